"""The scanner page and its verdicts (over the real check-in service), and the scanner role:
a member who reaches the scanner and nothing else."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, csrf_token, text
from tests.dashboard.test_invitations import accept, invite
from webapp import clock
from webapp.dashboard import SCANNER_ENDPOINTS
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.services.accounts import members
from webapp.services.accounts.members import NotOwner
from webapp.services.context import Context
from webapp.services.redemptions import checkin

SCANNER_EMAIL, SCANNER_PASSWORD = "door@acme.test", "door password 1"
SCAN = "/dashboard/test/scan"


def _template(api: Api, redemption: dict[str, Any] | None, **changes: Any) -> str:
    extra = {"redemption": redemption} if redemption else {}
    body = template_body(name="Concert", barcode={"format": "qr"}, **extra, **changes)
    response = api.post("/v1/templates", body)
    assert response.status_code == 201, response.get_json()
    return str(response.get_json()["id"])


def _issue(api: Api, template_id: str, holder: str = "Ada Lovelace") -> dict[str, Any]:
    response = api.post("/v1/passes", {"templateId": template_id, "holderName": holder,
                                       "fieldValues": {"member": holder, "level": "Gold"}})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def _scanner(app: Flask, dash: Dash) -> Dash:
    """A scanner added by the owner on the members page, signed in on a client of its own."""
    _, link = invite(dash, SCANNER_EMAIL, "scanner")
    client, response = accept(app, link, SCANNER_PASSWORD)  # new here: chooses a password
    assert response.status_code == 303
    return Dash(client, csrf_token(client, SCAN))


def _verdict(dash: Dash, code: str, **form: str) -> Any:
    """What the page's script gets for a decoded code: the verdict fragment."""
    return dash.post(SCAN, {"code": code, **form}, htmx=True)


def _attr(html: str, name: str) -> str:
    match = re.search(rf'{name}="([^"]*)"', html)
    assert match, f"no {name} in {html[:300]}"
    return match.group(1)


# ---- the scanner role ------------------------------------------------------------------


def _sample_path(app: Flask, rule: Any) -> str:
    """A URL of the rule with placeholder values (the guard answers before the view)."""
    values: dict[str, Any] = {}
    for name in rule.arguments:
        converter = rule._converters[name]
        kind = type(converter).__name__
        values[name] = sorted(converter.items)[-1] if kind == "AnyConverter" else \
            {"IntegerConverter": 1}.get(kind, "x_1")
    values["env"] = "test" if "env" in values else None
    with app.test_request_context():
        return url_for(rule.endpoint, **{k: v for k, v in values.items() if v is not None})


def test_a_scanner_reaches_every_dashboard_route_but_the_scanners_only(
        app: Flask, dash: Dash) -> None:
    scanner = _scanner(app, dash)
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/dashboard")]
    assert all(r.endpoint.startswith("dashboard.") for r in rules)  # all behind the guard
    assert len(rules) > 30  # every section's routes are here
    refused, allowed = 0, 0
    # Sign-out last: it ends the session the other requests need.
    for rule in sorted(rules, key=lambda r: r.endpoint == "dashboard.logout"):
        path = _sample_path(app, rule)
        for method in sorted((rule.methods or set()) - {"OPTIONS"}):
            response = scanner.client.open(path, method=method,
                                           data={"csrf_token": scanner.token})
            where = f"{method} {path} ({rule.endpoint})"
            if rule.endpoint in SCANNER_ENDPOINTS:
                allowed += 1
                assert response.status_code != 403, where
                if rule.endpoint != "dashboard.scan_open":  # it opens the scanner
                    assert response.headers.get("Location") != SCAN, where
            elif method in ("GET", "HEAD"):
                refused += 1
                assert response.status_code == 303, where
                assert response.headers["Location"] == SCAN, where
            else:
                refused += 1
                assert response.status_code == 403, where
                assert "Your role in this organization does not allow this" in text(
                    response), where
    assert refused > 30 and allowed >= 6


def test_a_scanner_signs_in_to_the_scanner_and_sees_no_other_section(
        app: Flask, dash: Dash) -> None:
    scanner = _scanner(app, dash)
    landing = scanner.get("/dashboard/test/passes")
    assert landing.status_code == 303 and landing.headers["Location"] == SCAN
    page = text(scanner.get(SCAN))
    assert 'id="scan-video"' in page and "Sign out" in page
    assert "/dashboard/test/passes" not in page  # no way back into the dashboard
    # An HTMX request for another section is sent to the scanner too, and the live one works.
    response = scanner.get("/dashboard/live/templates", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == "/dashboard/live/scan"
    for static in ("dashboard/scanner.js", "dashboard/scanner.css",
                   "vendor/zxing-library-0.23.0.min.js"):
        with scanner.get(f"/static/{static}") as response:
            assert response.status_code == 200
    # The error pages' navigation offers only the scanner.
    page = text(scanner.post("/dashboard/test/keys", {"name": "x"}))
    nav = re.search(r'<nav class="sidenav".*?</nav>', page, re.S).group(0)
    assert re.findall(r'href="([^"]+)"', nav) == ["/dashboard/test/scan"]


def test_the_scanner_opens_on_live_when_live_has_passes(app: Flask, dash: Dash, api: Api,
                                                       live_api: Api, pki: Any) -> None:
    from tests.dashboard.test_going_live import _p12

    assert _p12(dash, pki).status_code == 201  # live can sign
    scanner = _scanner(app, dash)
    for who in (scanner, dash):
        assert who.get("/dashboard/scan").headers["Location"] == SCAN
    signed_in = _sign_in_page(app)
    assert signed_in.headers["Location"] == "/dashboard/scan"  # a scanner's landing
    _issue(api, _template(api, {"mode": "single"}))  # test passes do not count
    assert scanner.get("/dashboard/scan").headers["Location"] == SCAN
    _issue(live_api, _template(live_api, {"mode": "single"}, platforms={"apple": True,
                                                                         "google": False}))
    for who in (scanner, dash):
        response = who.get("/dashboard/scan?location=Gate%20B")
        assert response.headers["Location"] == "/dashboard/live/scan?location=Gate+B"
    assert scanner.get("/dashboard/").headers["Location"] == "/dashboard/scan"


@pytest.mark.parametrize(("env", "other"), [("test", "live"), ("live", "test")])
def test_the_scanner_says_which_passes_it_scans_and_switches(
        app: Flask, dash: Dash, env: str, other: str) -> None:
    scanner = _scanner(app, dash)
    for who in (scanner, dash):
        page = text(who.get(f"/dashboard/{env}/scan?location=Gate%20B"))
        banner = re.search(r'<p class="scan-env (\w+)" id="scan-env">(.*?)</p>', page, re.S)
        assert banner and banner.group(1) == env
        assert re.sub(r"<[^>]+>|\s+", " ", banner.group(2)).split() == [
            "Scanning", env.upper(), "passes", "Switch", "to", other]
        assert f'href="/dashboard/{other}/scan?location=Gate+B"' in banner.group(2)


def _sign_in_page(app: Flask) -> Any:
    """The scanner signing in on a fresh client: the answer to the sign-in form."""
    client = app.test_client()
    return client.post("/dashboard/login", data={
        "email": SCANNER_EMAIL, "password": SCANNER_PASSWORD, "csrf_token": csrf_token(client)})


def test_owners_and_members_reach_the_scanner_too(app: Flask, dash: Dash) -> None:
    page = text(dash.get(SCAN))
    assert 'id="scan-form"' in page and "/dashboard/test/passes" in page  # back link
    assert 'href="/dashboard/test/scan"' in text(dash.get("/dashboard/test/passes"))  # nav


def test_owner_changes_roles_on_the_members_page(app: Flask, dash: Dash,
                                                 org: dict[str, Any]) -> None:
    scanner = _scanner(app, dash)
    page = text(dash.get("/dashboard/test/members"))
    membership_id = re.search(r"/dashboard/test/members/(mem_[0-9a-z]+)/role", page).group(1)
    assert '<option value="scanner" selected>scanner</option>' in page
    response = dash.post(f"/dashboard/test/members/{membership_id}/role", {"role": "member"},
                         htmx=True, header=True)
    assert response.status_code == 200
    assert f"{SCANNER_EMAIL} is now member." in text(response)
    assert scanner.get("/dashboard/test/passes").status_code == 200  # on the next request
    response = dash.post(f"/dashboard/test/members/{membership_id}/role", {"role": "boss"},
                         htmx=True, header=True)
    assert response.status_code == 422
    assert "role must be one of owner, member, scanner." in text(response)
    # a member cannot change roles; a scanner cannot even reach the form
    member = scanner
    assert member.post(f"/dashboard/test/members/{membership_id}/role",
                       {"role": "owner"}).status_code == 403


def test_set_role_rules(app: Flask, dash: Dash, org: dict[str, Any]) -> None:
    _scanner(app, dash)
    with app.app_context():
        owner = next(m for m in members.list_(Context(org["id"], "test")) if m.role == "owner")
        ctx = Context(org["id"], "test", actor="dashboard", user_id=owner.user_id)
        door = next(m for m in members.list_(ctx) if m.email == SCANNER_EMAIL)
        assert [m.role for m in members.list_(ctx)] == ["owner", "scanner"]
        with pytest.raises(Conflict) as last:
            members.set_role(ctx, owner.id, "scanner")
        assert last.value.code == "last_owner"
        with pytest.raises(InvalidRequest) as bad:
            members.set_role(ctx, door.id, "admin")
        assert bad.value.param == "role"
        with pytest.raises(NotFound):
            members.set_role(ctx, "mem_nope", "member")
        as_scanner = Context(org["id"], "test", actor="dashboard", user_id=door.user_id)
        with pytest.raises(NotOwner):
            members.set_role(as_scanner, door.id, "owner")
        assert members.set_role(ctx, door.id, "owner").role == "owner"
        assert members.set_role(ctx, owner.id, "member").role == "member"  # another owner now
        with pytest.raises(InvalidRequest):
            members.add(ctx, "x@acme.test", "password 123", "root")


# ---- verdicts --------------------------------------------------------------------------


def test_first_scan_is_valid_and_the_second_is_refused_with_when_who_and_where(
        app: Flask, dash: Dash, api: Api, org: dict[str, Any]) -> None:
    clock.set_now(lambda: datetime(2026, 11, 25, 18, 2, 30, tzinfo=UTC))
    scanner = _scanner(app, dash)
    item = _issue(api, _template(api, {"mode": "single"}))
    first = _verdict(scanner, item["shortId"].lower(), location="Gate B", tz="Europe/Berlin")
    assert first.status_code == 200
    html = text(first)
    assert html.lstrip().startswith('<section class="verdict valid"')  # the fragment only
    assert '<h1 class="verdict-title">Valid</h1>' in html
    assert '<p class="verdict-holder">Ada Lovelace</p>' in html
    assert "<dt>Member</dt><dd>Ada Lovelace</dd>" in html
    assert "<dt>Level</dt><dd>Gold</dd>" in html and "<dt>Club</dt><dd>Downtown</dd>" in html
    second = text(_verdict(scanner, item["shortId"], location="Gate C", tz="Europe/Berlin"))
    assert _attr(second, "data-verdict") == "refused"
    assert _attr(second, "data-code") == "already_redeemed"
    assert '<h1 class="verdict-title">Already checked in</h1>' in second
    # 18:02 UTC is 19:02 in Berlin; the first check-in's place, not this one's
    assert (f'<p class="verdict-reason">at 19:02 by {SCANNER_EMAIL}, Gate B</p>'
            in second)
    assert '<p class="verdict-holder">Ada Lovelace</p>' in second
    with app.app_context():
        listed = checkin.list_(Context(org["id"], "test"), item["id"]).data
    assert [(r.source, r.location, r.scanned_by_name) for r in listed] == [
        ("scanner", "Gate B", SCANNER_EMAIL)]


def test_times_are_in_the_phones_zone_with_the_day_when_not_today(
        app: Flask, dash: Dash, api: Api) -> None:
    now = [datetime(2026, 11, 24, 22, 30, tzinfo=UTC)]  # 17:30 on the 24th in New York
    clock.set_now(lambda: now[0])
    item = _issue(api, _template(api, {"mode": "single"}))
    assert _attr(text(_verdict(dash, item["id"])), "data-verdict") == "valid"
    same_day = text(_verdict(dash, item["id"], tz="America/New_York"))
    assert '<p class="verdict-reason">at 17:30 by owner-' in same_day
    now[0] = datetime(2026, 11, 25, 6, 0, tzinfo=UTC)  # 01:00 on the 25th there
    later = text(_verdict(dash, item["id"], tz="America/New_York"))
    assert '<p class="verdict-reason">on 24 Nov 2026 at 17:30 by owner-' in later
    page = text(dash.post(SCAN, {"code": item["id"], "tz": "Not/AZone"}))
    assert '<p class="verdict-reason">on 24 Nov 2026 at 22:30 by' in page  # UTC, named:
    assert 'Times shown in <span id="scan-zone-name">UTC</span>' in page


def test_refusals_say_why(app: Flask, dash: Dash, api: Api) -> None:
    plain = _issue(api, _template(api, None))
    html = text(_verdict(dash, plain["shortId"]))
    assert _attr(html, "data-code") == "redemption_not_enabled"
    assert '<h1 class="verdict-title">Not a check-in pass</h1>' in html
    voided = _issue(api, _template(api, {"mode": "single"}))
    assert api.delete(f"/v1/passes/{voided['id']}").status_code == 200
    html = text(_verdict(dash, voided["shortId"]))
    assert _attr(html, "data-code") == "pass_voided"
    assert '<h1 class="verdict-title">Pass voided</h1>' in html
    html = text(_verdict(dash, "NO-SUCH-CODE"))
    assert _attr(html, "data-code") == "unknown_code"
    assert "No test pass of this organization has the code NO-SUCH-CODE." in html


def test_counted_passes_show_the_use_and_refuse_past_the_limit(
        app: Flask, dash: Dash, api: Api) -> None:
    item = _issue(api, _template(api, {"mode": "multiple", "maxUses": 2}))
    assert "Use 1 of 2" in text(_verdict(dash, item["shortId"]))
    assert "Use 2 of 2" in text(_verdict(dash, item["shortId"], location="Pool"))
    html = text(_verdict(dash, item["shortId"]))
    assert _attr(html, "data-code") == "max_uses_reached"
    assert '<h1 class="verdict-title">No uses left</h1>' in html
    assert "Last check-in at " in html and ", Pool</p>" in html


def test_a_pass_of_another_environment_or_organization_is_unknown(
        dash: Dash, api: Api, other_api: Api) -> None:
    mine = _issue(api, _template(api, {"mode": "single"}))
    other = _issue(other_api, _template(other_api, {"mode": "single"}))
    for code in (other["shortId"], other["id"]):
        assert _attr(text(_verdict(dash, code)), "data-code") == "unknown_code"
    live = text(dash.post("/dashboard/live/scan", {"code": mine["shortId"]}, htmx=True))
    assert _attr(live, "data-code") == "unknown_code"
    assert "No live pass of this organization has the code" in live
    assert _attr(text(_verdict(dash, mine["shortId"])), "data-verdict") == "valid"


@pytest.mark.parametrize(("form", "message"), [
    ({"code": "  "}, "Scan a barcode or type the pass&#39;s short ID."),
    ({"code": "ABC", "location": "G" * 101}, "location must be at most 100 characters."),
])
def test_bad_input_is_422_with_the_reason(dash: Dash, form: dict[str, str],
                                          message: str) -> None:
    response = dash.post(SCAN, form, htmx=True)
    assert response.status_code == 422
    assert _attr(text(response), "data-verdict") == "error"
    assert message in text(response)


def test_control_characters_and_a_missing_token_are_refused(dash: Dash) -> None:
    assert dash.post(SCAN, {"code": "A\x00B"}, htmx=True).status_code == 400
    assert dash.post(SCAN, {"code": "ABC"}, csrf=False).status_code == 400


def test_without_script_the_form_posts_and_the_page_shows_the_verdict(
        dash: Dash, api: Api) -> None:
    item = _issue(api, _template(api, {"mode": "single"}))
    page = text(dash.post(SCAN, {"code": item["shortId"], "location": "Gate B"}))
    assert page.startswith("<!doctype html>")
    assert 'data-verdict="valid"' in page
    assert 'id="scan-location" name="location" maxlength="100" value="Gate B"' in page
    assert 'href="/dashboard/test/scan?location=Gate+B">Tap for the next scan</a>' in page
    assert 'value="Gate B"' in text(dash.get(f"{SCAN}?location=Gate+B"))


def test_a_verdict_answers_well_under_300_ms(dash: Dash, api: Api) -> None:
    template_id = _template(api, {"mode": "single"})
    codes = [_issue(api, template_id, f"Guest {n}")["shortId"] for n in range(6)]
    took = []
    for code in codes + codes:  # valid, then refused
        started = time.perf_counter()
        response = _verdict(dash, code, location="Gate B", tz="Europe/Berlin")
        took.append(time.perf_counter() - started)
        assert response.status_code == 200
    took.sort()
    assert took[len(took) // 2] < 0.1, took  # the median; the browser test times the rest


def test_signed_out_visitors_go_to_sign_in(client: FlaskClient) -> None:
    response = client.get(SCAN)
    assert response.status_code == 303
    assert response.headers["Location"] == "/dashboard/login?next=/dashboard/test/scan"


# ---- unknown codes are limited ---------------------------------------------------------


def test_unknown_codes_are_limited_per_signed_in_person(database: Any, database_url: str,
                                                       tmp_path: Any) -> None:
    from tests.conftest import Api, base_overrides
    from tests.dashboard.conftest import sign_in
    from webapp import create_app
    from webapp.services.accounts import organizations

    app = create_app({**base_overrides(tmp_path, database_url),
                      "DASHBOARD_SCAN_FAILURE_LIMIT": "3/minute"})
    with app.app_context():
        created = organizations.create("Door Co", "owner@door.test", "correct horse battery")
    owner = sign_in(app.test_client(), created.email, created.password)
    scanner = _scanner(app, owner)
    api = Api(app.test_client(), created.keys["test"])
    items = [_issue(api, _template(api, {"mode": "multiple"})) for _ in range(2)]
    for _ in range(4):  # known codes are free
        assert 'data-code="valid"' in text(_verdict(scanner, items[0]["shortId"]))
    for guess in ("AAAAAAAAAAAA", "MEMBER-0001", "MEMBER-0002"):
        assert 'data-code="unknown_code"' in text(_verdict(scanner, guess))
    paused = _verdict(scanner, items[1]["shortId"])  # even a real pass waits now
    assert paused.status_code == 429
    assert re.search(r"Too many unknown codes: scanning is paused\. Wait (\d+ seconds|1 "
                     r"minute)\.", text(paused))
    assert 1 <= int(paused.headers["Retry-After"]) <= 60
    assert api.get(f"/v1/passes/{items[1]['id']}").get_json()["redemptionCount"] == 0
    # Another person's scanner is not held up.
    assert 'data-code="valid"' in text(_verdict(owner, items[1]["shortId"]))
