"""An erased holder's data leaves Google's copy too (issue 33): the void marks the object
inactive, the erasure's own update writes the erased content over the holder's and takes
out the messages (they quote changed values)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api.factories import template_body
from tests.conftest import Api
from tests.google.conftest import ISSUER, issue
from tests.support.fake_google import FakeGoogle

NAME = "Zephyrine Quillfeather"


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    body = template_body()
    body["definition"]["config"]["fields"]["secondary"][0]["changeMessage"] = "Now %@!"
    return api.post("/v1/templates", body).get_json()


@pytest.mark.parametrize("voided_first", [False, True])
def test_google_object_loses_the_holder_data(api: Api, template: dict[str, Any],
                                             fake_google: FakeGoogle, served: str,
                                             voided_first: bool) -> None:
    p = issue(api, template, holderName=NAME, fieldValues={"member": NAME, "level": "Zq-9"})
    location = api.client.get(f"/p/{p['shortId']}/google").headers["Location"]
    assert fake_google.save(location).status_code == 200
    obj_id = f"{ISSUER}.{p['id']}"
    changed = api.patch(f"/v1/passes/{p['id']}", {"fieldValues": {"level": "Zq-10"},
                                                   "notificationMode": "notify"})
    assert changed.status_code == 200
    assert "Zq-10" in json.dumps(fake_google.resource("genericObject", obj_id)["messages"])
    assert NAME in json.dumps(fake_google.resource("genericObject", obj_id))
    notified = list(fake_google.state.notifications[obj_id])
    if voided_first:
        assert api.delete(f"/v1/passes/{p['id']}").status_code == 200
    assert api.post(f"/v1/passes/{p['id']}/erase").status_code == 200
    [erase, void, *_] = api.get(f"/v1/passes/{p['id']}/updates").get_json()["data"]
    assert (erase["kind"], void["kind"]) == ("erase", "void")
    assert erase["delivery"]["google"]["status"] == "updated"
    obj = fake_google.resource("genericObject", obj_id)
    assert obj["state"] == "INACTIVE"
    assert NAME not in json.dumps(obj) and "Zq-9" not in json.dumps(obj)
    assert "Zq-10" not in json.dumps(obj)
    assert fake_google.state.notifications[obj_id] == notified  # silent
