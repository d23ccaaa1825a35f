"""The dashboard's Messages page (issue 33): the composer's audience size and wallet
previews, sending and scheduling with the browser's time zone, errors beside the inputs with
what was typed kept, CSRF, escaping, another organization's messages; and a pass's tags
edited on its page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, form_data, text
from webapp import clock

EVIL = '<script>alert("x")</script>'


@pytest.fixture(autouse=True)
def _inline_jobs(app: Flask) -> None:
    app.config.update(JOBS_SYNCHRONOUS=True)


@pytest.fixture
def template(api: Api) -> dict[str, Any]:
    return dict(api.post("/v1/templates", template_body()).get_json())


def issue(api: Api, template: dict[str, Any], **body: Any) -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template["id"],
                                       "fieldValues": {"member": "Ada"}, **body})
    assert response.status_code == 201
    return dict(response.get_json())


def compose(dash: Dash, **fields: str) -> dict[str, Any]:
    form = form_data(text(dash.get("/dashboard/test/messages")), "message-form")
    del form["csrf_token"], form["form_token"]  # each post its own (Dash adds them)
    return {**form, **fields}


def test_preview_counts_the_audience_and_shows_both_wallets(
        dash: Dash, api: Api, template: dict[str, Any]) -> None:
    issue(api, template, tags=["vip"])
    issue(api, template)
    page = text(dash.get(f"/dashboard/test/messages/preview?template_id={template['id']}"
                         f"&tag=VIP&header=Pool&body={EVIL}"))
    assert "<strong>1</strong> pass will get this message." in page
    assert "Acme Gym · now" in page  # the template's organizationName sends it
    assert 'id="preview-apple"' in page and 'id="preview-google"' in page
    assert EVIL not in page and "&lt;script&gt;" in page
    assert "<strong>2</strong> passes" in text(dash.get(
        f"/dashboard/test/messages/preview?template_id={template['id']}"))
    assert "Choose a template, a tag or a search" in text(
        dash.get("/dashboard/test/messages/preview"))
    assert "tag" in text(dash.get("/dashboard/test/messages/preview?tag=a%20b"))


def test_send_now_from_the_composer(dash: Dash, api: Api, template: dict[str, Any]) -> None:
    one = issue(api, template)
    response = dash.post("/dashboard/test/messages", compose(
        dash, template_id=template["id"], header="Pool", body=EVIL), htmx=True)
    assert response.status_code == 201, text(response)
    page = text(response)
    assert "Sending to 1 pass." in page
    assert EVIL not in page and "&lt;script&gt;alert" in page
    [message] = api.get("/v1/messages").get_json()["data"]
    assert message["source"] == "dashboard" and message["status"] == "sent"
    assert message["audience"] == {"templateId": template["id"]}
    assert api.get(f"/v1/passes/{one['id']}/updates").get_json()["data"][0]["kind"] == \
        "message"
    assert "1 not in a wallet (nobody added the pass)" in text(
        dash.get("/dashboard/test/messages"))
    shown = text(dash.get(f"/dashboard/test/passes/{one['id']}"))
    assert "Message sent" in shown and "&lt;script&gt;alert" in shown and EVIL not in shown


def test_schedule_in_the_browsers_time_zone_and_cancel(dash: Dash, api: Api,
                                                       template: dict[str, Any]) -> None:
    issue(api, template)
    local = (clock.now() + timedelta(days=2)).astimezone().replace(tzinfo=None)
    local_text = local.strftime("%Y-%m-%dT%H:%M")
    response = dash.post("/dashboard/test/messages", compose(
        dash, template_id=template["id"], header="Later", body="b", when="later",
        send_at=local_text, tz="Europe/Berlin"), htmx=True)
    assert response.status_code == 201, text(response)
    [message] = api.get("/v1/messages").get_json()["data"]
    assert message["status"] == "scheduled"
    from datetime import datetime
    from zoneinfo import ZoneInfo

    expected = datetime.fromisoformat(local_text).replace(tzinfo=ZoneInfo("Europe/Berlin"))
    assert message["sendAt"] == clock.isoformat(expected)
    page = text(dash.get("/dashboard/test/messages"))
    assert "Scheduled" in page
    cancel = dash.post(f"/dashboard/test/messages/{message['id']}/cancel", htmx=True)
    assert cancel.status_code == 200 and "The scheduled message is canceled." in text(cancel)
    again = dash.post(f"/dashboard/test/messages/{message['id']}/cancel", htmx=True)
    assert again.status_code == 409 and "Only a scheduled message can be canceled" in \
        text(again)


@pytest.mark.parametrize(("fields", "shown"), [
    ({"header": "h" * 36, "body": "b"}, "at most 35 characters"),
    ({"header": "h", "body": "b", "tag": "a b"}, "The tag may hold only"),
    ({"header": "h", "body": "b", "search": "x" * 201}, "search may be at most 200"),
    ({"header": "h", "body": "b", "template_id": ""}, "Name the audience"),
    ({"header": "h", "body": "b", "when": "later", "send_at": ""},
     "Choose the date and time to send at."),
    ({"header": "h", "body": "b", "when": "later", "send_at": "2001-01-01T10:00"},
     "The time to send at is in the past"),
])
def test_errors_are_shown_with_what_was_typed(dash: Dash, api: Api, template: dict[str, Any],
                                              fields: dict[str, str], shown: str) -> None:
    issue(api, template)
    fields = {"template_id": template["id"], **fields}
    response = dash.post("/dashboard/test/messages", compose(dash, **fields), htmx=True)
    assert response.status_code == 422
    page = text(response)
    assert shown in page and 'class="field-error"' in page
    assert f'value="{fields["header"]}"' in page
    assert api.get("/v1/messages").get_json()["data"] == []


def test_csrf_and_other_organizations(dash: Dash, other_dash: Dash, api: Api,
                                      template: dict[str, Any]) -> None:
    issue(api, template)
    response = dash.post("/dashboard/test/messages", compose(
        dash, template_id=template["id"], header="h", body="b"), csrf=False)
    assert response.status_code == 400
    assert api.get("/v1/messages").get_json()["data"] == []
    dash.post("/dashboard/test/messages", compose(
        dash, template_id=template["id"], header="Ours", body="b"))
    [message] = api.get("/v1/messages").get_json()["data"]
    assert "Ours" not in text(other_dash.get("/dashboard/test/messages"))
    assert other_dash.post(f"/dashboard/test/messages/{message['id']}/cancel"
                           ).status_code == 404
    preview = text(other_dash.get(
        f"/dashboard/test/messages/preview?template_id={template['id']}"))
    assert "No such template" in preview


def test_tags_are_edited_on_the_pass_page(dash: Dash, api: Api, template: dict[str, Any]
                                          ) -> None:
    one = issue(api, template, tags=["vip"])
    page = text(dash.get(f"/dashboard/test/passes/{one['id']}"))
    form = form_data(page, "tags-form")
    assert form["tags"] == "vip"
    del form["csrf_token"], form["form_token"]
    response = dash.post(f"/dashboard/test/passes/{one['id']}/tags",
                         {**form, "tags": "VIP, Gold season-2027"})
    assert response.status_code == 303
    assert api.get(f"/v1/passes/{one['id']}").get_json()["tags"] == [
        "vip", "gold", "season-2027"]
    bad = dash.post(f"/dashboard/test/passes/{one['id']}/tags",
                    {**form, "tags": f"ok {EVIL}"}, htmx=True)
    assert bad.status_code == 422
    assert 'id="tags-problem"' in text(bad) and EVIL not in text(bad)
    assert "The tag “&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;” may hold only" in \
        text(bad)
    assert api.get(f"/v1/passes/{one['id']}").get_json()["tags"] == [
        "vip", "gold", "season-2027"]
    assert dash.post(f"/dashboard/test/passes/{one['id']}/tags", {**form, "tags": ""}
                     ).status_code == 303
    assert api.get(f"/v1/passes/{one['id']}").get_json()["tags"] == []
    assert dash.post(f"/dashboard/test/passes/{one['id']}/tags", {**form, "tags": "x"},
                     csrf=False).status_code == 400
