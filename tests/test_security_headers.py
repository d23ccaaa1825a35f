"""Security headers (issue 22): the dashboard's Content-Security-Policy and what it needs of
the templates (no inline script, style or handler), framing, sniffing, referrers, caching;
the public pages' headers, and their styled 429."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.factories import template_body
from tests.conftest import Api, app_with
from tests.dashboard.conftest import Dash, sign_in
from webapp.security_headers import DASHBOARD_CSP, PUBLIC_CSP

# What a strict policy (no 'unsafe-inline') blocks: style attributes and elements, inline
# scripts, event-handler attributes and javascript: URLs.
_INLINE = re.compile(r"""\sstyle\s*=|<style|<script(?![^>]*\ssrc=)|\son[a-z]+\s*=|javascript:""",
                     re.IGNORECASE)


def _dashboard_headers(response: Any) -> None:
    headers = response.headers
    assert headers["Content-Security-Policy"] == DASHBOARD_CSP
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cache-Control"] == "no-store"


def test_the_policy_allows_nothing_inline_and_no_framing() -> None:
    directives = dict(d.strip().split(" ", 1) for d in DASHBOARD_CSP.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in DASHBOARD_CSP


def test_sign_in_page_has_the_dashboard_headers(client: FlaskClient) -> None:
    response = client.get("/dashboard/login")
    assert response.status_code == 200
    _dashboard_headers(response)


def test_signed_out_redirect_and_error_pages_have_them_too(client: FlaskClient) -> None:
    redirect = client.get("/dashboard/test/passes")
    assert redirect.status_code == 303
    _dashboard_headers(redirect)
    missing = client.get("/dashboard/nope")
    assert missing.status_code == 404
    _dashboard_headers(missing)


@pytest.fixture
def pages(client: FlaskClient, api: Api, org: dict[str, Any], png: Any) -> list[str]:
    """Every kind of dashboard page, with a template that uses every image the preview
    draws and a pass with a download link."""
    images = {}
    for slot, size in (("logo", (160, 50)), ("strip", (375, 123)), ("background", (180, 220)),
                       ("thumbnail", (90, 90)), ("icon", (29, 29))):
        uploaded = api.post("/v1/assets", {"slot": slot, "data": png(*size)})
        assert uploaded.status_code == 201, uploaded.get_json()
        images[slot] = uploaded.get_json()["id"]
    event = api.post("/v1/templates", template_body("event", images={
        k: v for k, v in images.items() if k != "strip"}))
    assert event.status_code == 201, event.get_json()
    striped = api.post("/v1/templates", template_body("event", images={
        k: v for k, v in images.items() if k in ("logo", "strip")}))
    assert striped.status_code == 201, striped.get_json()
    generic = api.post("/v1/templates", template_body(images={
        k: v for k, v in images.items() if k != "background"}))
    assert generic.status_code == 201, generic.get_json()
    template_id = generic.get_json()["id"]
    issued = api.post("/v1/passes", {"templateId": template_id, "holderName": "Ada",
                                     "holderEmail": "ada@example.test",
                                     "fieldValues": {"member": "Ada Lovelace"}})
    assert issued.status_code == 201, issued.get_json()
    pass_id = issued.get_json()["id"]
    assert api.post(f"/v1/passes/{pass_id}/download-links", {}).status_code == 201
    env = "/dashboard/test"
    return [f"{env}/passes", f"{env}/passes?q=ada", f"{env}/passes/{pass_id}",
            f"{env}/passes/new", f"{env}/templates", f"{env}/templates/new",
            f"{env}/templates/{template_id}", f"{env}/templates/{event.get_json()['id']}",
            f"{env}/templates/{template_id}/revisions", f"{env}/keys", f"{env}/members",
            f"{env}/certificates", f"{env}/webhooks", "/dashboard/live/passes",
            f"{env}/templates/{striped.get_json()['id']}"]


def test_dashboard_pages_have_no_inline_script_or_style(client: FlaskClient, org: dict,
                                                        pages: list[str]) -> None:
    login = client.get("/dashboard/login").get_data(as_text=True)
    assert not _INLINE.findall(login)
    dash = sign_in(client, org["email"], org["password"])
    for path in pages:
        response = dash.get(path)
        assert response.status_code == 200, path
        _dashboard_headers(response)
        html = response.get_data(as_text=True)
        assert not _INLINE.findall(html), (path, _INLINE.findall(html))
    designer = dash.get(pages[6]).get_data(as_text=True)
    others = [dash.get(path).get_data(as_text=True) for path in (pages[7], pages[-1])]
    for image in ('class="pp-bgimg"', 'class="strip"', 'class="pp-hero"'):
        assert any(image in page for page in (designer, *others)), image
    # the card's colours travel as data for dashboard.js, which sets them through CSSOM
    assert 'data-background="#112233" data-color="#ffffff"' in designer


@pytest.fixture
def dash(client: FlaskClient, org: dict[str, Any]) -> Dash:
    return sign_in(client, org["email"], org["password"])


def test_htmx_runs_without_eval(dash: Dash) -> None:
    html = dash.get("/dashboard/test/passes").get_data(as_text=True)
    config = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html)
    assert config
    assert '"allowEval":false' in config.group(1)
    assert '"allowScriptTags":false' in config.group(1)
    assert '"includeIndicatorStyles":false' in config.group(1)


def test_htmx_partials_have_the_headers_and_nothing_inline(dash: Dash, api: Api) -> None:
    created = api.post("/v1/templates", template_body())
    template_id = created.get_json()["id"]
    page = dash.get(f"/dashboard/test/templates/{template_id}").get_data(as_text=True)
    form = dict(re.findall(r'name="(f-[^"]+|op|revision|[a-z_]+)" value="([^"]*)"', page))
    response = dash.post(f"/dashboard/test/templates/{template_id}/preview", form, htmx=True,
                         header=True)
    assert response.status_code == 200
    _dashboard_headers(response)
    assert not _INLINE.findall(response.get_data(as_text=True))


def test_static_files_are_not_sniffed(client: FlaskClient) -> None:
    response = client.get("/static/dashboard/dashboard.js")
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    response.close()


def test_no_template_of_the_dashboard_has_inline_code() -> None:
    """Also the partials and branches the pages above do not reach."""
    folder = Path(__file__).resolve().parents[1] / "webapp" / "templates" / "dashboard"
    for template in folder.rglob("*.html"):
        found = _INLINE.findall(template.read_text())
        assert not found, (template.name, found)


# --- public pages ---------------------------------------------------------------------------

def _public_headers(response: Any) -> None:
    headers = response.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/p/AAAAAAAAAAAA", "/d/" + "x" * 40,
                                  "/p/AAAAAAAAAAAA/apple.pkpass", "/d/" + "x" * 40 + "/google",
                                  "/assets/ast_nothing", "/nowhere"])
def test_public_pages_and_their_errors_have_the_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    _public_headers(response)


def test_plain_error_page_needs_no_inline_style(client: FlaskClient) -> None:
    response = client.get("/no-such-page")  # (holder links answer the holder's own 404)
    assert response.headers["Content-Security-Policy"] == PUBLIC_CSP
    html = response.get_data(as_text=True)
    assert "<h1>404 Not Found</h1>" in html
    assert not _INLINE.findall(html)
    assert "/static/holder/holder.css" in html


@pytest.fixture
def limited_app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Any:
    yield from app_with(database, database_url, tmp_path, {"RATE_LIMIT_PUBLIC": 1})


@pytest.mark.parametrize(("accept", "heading"), [
    ("en", "Too many requests"), ("de-DE", "Zu viele Anfragen"), ("fr", "Trop de demandes"),
    ("es", "Demasiadas solicitudes")])
def test_public_429_is_the_styled_page_in_the_readers_language(limited_app: Flask, accept: str,
                                                              heading: str) -> None:
    client = limited_app.test_client()
    token = "t" * 40
    assert client.get(f"/d/{token}").status_code == 404
    response = client.get(f"/d/{token}", headers={"Accept-Language": accept})
    assert response.status_code == 429
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f"<h1>{heading}</h1>" in html
    assert f'<html lang="{accept[:2]}">' in html
    assert "holder/holder.css" in html
    assert token not in html
    assert int(response.headers["Retry-After"]) >= 1
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Content-Language"] == accept[:2]
    _public_headers(response)
