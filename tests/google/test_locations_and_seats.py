"""Template locations reach Google as the class's merchantLocations, and event seats come
from the fields `event.seatFields` names; the fake checks both against Google's schema."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle, _merchant_locations_problem

LOCATIONS = [{"latitude": 52.52, "longitude": 13.405, "relevantText": "Welcome"},
             {"latitude": -33.9, "longitude": 151}]
MERCHANT_LOCATIONS = [{"latitude": 52.52, "longitude": 13.405},
                      {"latitude": -33.9, "longitude": 151.0}]


def make(api: Api, kind: str, **definition: Any) -> dict[str, Any]:
    body = template_body(kind, **definition)
    body["definition"]["platforms"] = {"apple": False, "google": True}
    response = api.post("/v1/templates", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_generic_template_locations_reach_the_class(api: Api, fake_google: FakeGoogle) -> None:
    template = make(api, "generic", locations=LOCATIONS)
    item = issue(api, template, fieldValues={"member": "Ada"})
    assert item["artifacts"]["google"] == {"ready": True, "reason": None}
    cls = fake_google.resource("genericClass", f"{ISSUER}.{template['id']}_r1")
    assert cls["merchantLocations"] == MERCHANT_LOCATIONS


def test_no_locations_no_merchant_locations(api: Api, fake_google: FakeGoogle) -> None:
    template = make(api, "generic")
    issue(api, template, fieldValues={"member": "Ada"})
    assert "merchantLocations" not in fake_google.resource(
        "genericClass", f"{ISSUER}.{template['id']}_r1")


def test_event_ticket_locations_and_mapped_seat(api: Api, fake_google: FakeGoogle) -> None:
    fields = {"primary": [{"key": "seatNo", "label": "Seat", "binding": "perPass"}],
              "secondary": [{"key": "rowNo", "label": "Row", "binding": "perPass"},
                            {"key": "block", "label": "Block", "binding": "shared",
                             "value": "B2"},
                            {"key": "note", "label": "Note", "binding": "perPass"}]}
    event = {"name": "The Show", "venue": {"name": "Hall"}, "startsAt": "2027-01-01T20:00:00Z",
             "category": "movie",
             "seatFields": {"number": "seatNo", "row": "rowNo", "section": "block"}}
    template = make(api, "event", locations=LOCATIONS, event=event,
                    config={"fields": fields})
    item = issue(api, template, fieldValues={"seatNo": "12", "rowNo": "F", "note": "VIP"},
                 barcodeValue="T-1")
    assert item["artifacts"]["google"] == {"ready": True, "reason": None}
    cls = fake_google.resource("eventTicketClass", f"{ISSUER}.{template['id']}_r1")
    assert cls["merchantLocations"] == MERCHANT_LOCATIONS
    obj = fake_google.resource("eventTicketObject", f"{ISSUER}.{item['id']}")
    assert {part: value["defaultValue"]["value"] for part, value in obj["seatInfo"].items()} \
        == {"seat": "12", "row": "F", "section": "B2"}
    # The seat's fields are in seatInfo, not repeated as text modules.
    assert [m["id"] for m in obj["textModulesData"]] == ["note"]


@pytest.mark.parametrize(("value", "problem"), [
    (MERCHANT_LOCATIONS, None),
    ([{"latitude": 91, "longitude": 0}], "Invalid MerchantLocation.latitude"),
    ([{"latitude": 0, "longitude": -180.5}], "Invalid MerchantLocation.longitude"),
    ([{"latitude": "1", "longitude": 0}], "Invalid MerchantLocation.latitude"),
    ([{"latitude": 1, "longitude": 0, "relevantText": "x"}],
     "Invalid MerchantLocation: only latitude and longitude are known"),
    ([{"latitude": 1, "longitude": 1}] * 11, "merchantLocations must be a list of at most 10"),
])
def test_the_fake_checks_merchant_locations(value: Any, problem: str | None) -> None:
    assert _merchant_locations_problem(value) == problem
