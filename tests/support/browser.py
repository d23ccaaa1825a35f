"""Browser tests: the app served on a free loopback port, and Debian's Chromium driven by
Playwright. Import the fixtures into a conftest with
`from tests.support.browser import live_server, browser, page_for  # noqa: F401`.

Chromium missing skips the test with a reason (fails under CI=true, see `missing`).
"""

from __future__ import annotations

import json
import os
import threading
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.conftest import base_overrides
from tests.support.services import free_port, missing
from webapp import create_app

CHROMIUM = "/usr/bin/chromium"
# Every refusal of the Content-Security-Policy, collected in the page (`add_init_script`).
WATCH_REFUSALS = """window.__refused = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__refused.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline')));"""
SCREENSHOTS = Path(__file__).resolve().parent.parent / "browser" / "screenshots"

DEVICES: dict[str, dict[str, Any]] = {
    "iphone": {
        "user_agent": ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) "
                       "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 "
                       "Safari/604.1"),
        "viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
        "is_mobile": True, "has_touch": True,
    },
    "android": {
        "user_agent": ("Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 "
                       "(KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"),
        "viewport": {"width": 412, "height": 915}, "device_scale_factor": 2.625,
        "is_mobile": True, "has_touch": True,
    },
    "desktop": {
        "user_agent": ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                       "Chrome/131.0.0.0 Safari/537.36"),
        "viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1,
    },
}


class LiveServer:
    """The app on http://127.0.0.1:<port>, served from a thread; `app` for set-up code."""

    def __init__(self, app: Any, port: int):
        self.app, self.port = app, port
        self.url = f"http://127.0.0.1:{port}"
        self._server = make_server("127.0.0.1", port, app, threaded=True)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> LiveServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(5)


@contextmanager
def serving(database_url: str, tmp_path: Path, extra: dict[str, Any] | None = None
            ) -> Iterator[LiveServer]:
    """A fresh app on this test's database, served on a free port; BASE_URL is that
    address, `extra` more configuration (a BASE_URL in it wins: a public address that the
    browser does not use)."""
    port = free_port()
    overrides = {**base_overrides(tmp_path, database_url),
                 "BASE_URL": f"http://127.0.0.1:{port}", **(extra or {})}
    app = create_app(overrides)
    app.instance_path = str(tmp_path / "instance")
    server = LiveServer(app, port).start()
    try:
        yield server
    finally:
        server.stop()
        with app.app_context():
            from webapp.extensions import db

            db.engine.dispose()


@pytest.fixture
def live_server(database: dict[str, Any], database_url: str, tmp_path: Path
                ) -> Iterator[LiveServer]:
    """The app served on a free port (see `serving`)."""
    with serving(database_url, tmp_path) as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Debian Chromium for the session."""
    if not os.path.exists(CHROMIUM):
        missing(f"{CHROMIUM} is not installed (Debian package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"])
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def page_for(browser: Any) -> Iterator[Callable[..., Any]]:
    """`page_for("iphone", locale="de-DE")`: a page in a new context for a device."""
    contexts: list[Any] = []

    def make(device: str = "desktop", locale: str = "en-US", **extra: Any) -> Any:
        options = dict(DEVICES[device])
        options.update(locale=locale, extra_http_headers={"Accept-Language": locale}, **extra)
        context = browser.new_context(**options)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def screenshot(page: Any, name: str) -> Path:
    """Save a full-page screenshot under tests/browser/screenshots/ (not committed)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def no_refusals(page: Any) -> None:
    """Once the page is idle, assert that the CSP refused nothing (see WATCH_REFUSALS)."""
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__refused") == []


def call(server: LiveServer, method: str, path: str, body: dict[str, Any] | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """An HTTP request to the live server with a JSON body; its status and body (an error
    status raises `urllib.error.HTTPError`)."""
    request = urllib.request.Request(
        f"{server.url}{path}", data=json.dumps(body).encode() if body is not None else None,
        method=method, headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request) as response:
        return response.status, response.read()


def api(server: LiveServer, key: str, method: str, path: str,
        body: dict[str, Any] | None = None) -> dict[str, Any]:
    """`/v1/<path>` with the API `key` and a new Idempotency-Key; the JSON it answers."""
    _status, data = call(server, method, f"/v1/{path}", body, {
        "Authorization": f"Bearer {key}", "Idempotency-Key": str(uuid.uuid4())})
    return dict(json.loads(data))
