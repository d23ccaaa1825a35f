"""Browser fixtures for the holder pages: the shared live server and Chromium, and passes
issued through the API of that server's app.

The live server stands where production puts the app: behind a TLS proxy at a public
address (`tests.conftest.BASE_URL`), so Google can fetch the templates' images and the
"Add to Google Wallet" button is offered; the browser talks to its loopback port.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.api.factories import template_body
from tests.conftest import base_overrides
from tests.google.conftest import (  # noqa: F401  (fixtures: a fake Google on loopback)
    demo_account,
    demo_account_file,
    fake_google,
    fake_google_server,
    google_overrides,
)
from tests.support.browser import LiveServer
from tests.support.services import free_port
from webapp import create_app


@pytest.fixture
def live_server(database: dict[str, Any], database_url: str, tmp_path: Path,
                fake_google: Any, demo_account_file: str) -> Iterator[LiveServer]:  # noqa: F811
    """The app on a loopback port with its public BASE_URL, and Google Wallet pointed at
    the fake Google so that the "Add to Google Wallet" link can answer with its save
    redirect."""
    app = create_app({**base_overrides(tmp_path, database_url),
                      **google_overrides(fake_google, demo_account_file)})
    app.instance_path = str(tmp_path / "instance")
    server = LiveServer(app, free_port()).start()
    try:
        yield server
    finally:
        server.stop()
        with app.app_context():
            from webapp.extensions import db

            db.engine.dispose()


class Issuer:
    """Issues templates, passes and download links through /v1 on the live app."""

    def __init__(self, server: Any, key: str | None = None):
        """An issuer with `key` (a test key), or with a new organization's."""
        from webapp.services.accounts import organizations

        self.server = server
        if key is None:
            with server.app.app_context():
                created = organizations.create("Acme", f"o-{uuid.uuid4().hex[:8]}@acme.test",
                                               "correct horse battery")
            key = created.keys["test"]
        self.key = key
        self.client = server.app.test_client()

    def _post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.client.post(path, json=body or {}, headers={
            "Authorization": f"Bearer {self.key}", "Idempotency-Key": str(uuid.uuid4())})
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def delete(self, path: str) -> int:
        return self.client.delete(path, headers={
            "Authorization": f"Bearer {self.key}",
            "Idempotency-Key": str(uuid.uuid4())}).status_code

    def asset(self, slot: str, width: int, height: int, color: str) -> str:
        import base64
        import io

        from PIL import Image, ImageDraw

        image = Image.new("RGB", (width, height), color)
        draw = ImageDraw.Draw(image)
        for i in range(0, width, max(8, width // 12)):  # some texture, so it reads as a picture
            draw.line([(i, 0), (i + height, height)], fill="#ffffff", width=max(2, width // 60))
        buf = io.BytesIO()
        image.save(buf, "PNG")
        return self._post("/v1/assets", {"slot": slot, "data": base64.b64encode(
            buf.getvalue()).decode()})["id"]

    def issue(self, template: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
        created = self._post("/v1/templates", template or template_body())
        values: dict[str, Any] = {"templateId": created["id"],
                                  "fieldValues": {"member": "Ada Lovelace"}}
        values.update(body)
        return self._post("/v1/passes", values)

    def link(self, item: dict[str, Any], seconds: int = 3600) -> str:
        url = self._post(f"/v1/passes/{item['id']}/download-links",
                         {"expiresInSeconds": seconds})["url"]
        return urlsplit(url).path  # `/d/<token>`, on whichever address the browser uses


@pytest.fixture
def issuer(live_server: Any) -> Issuer:
    return Issuer(live_server)


@pytest.fixture
def recorded() -> Callable[[Any], list[Any]]:
    """Attach a recorder to a page: every request it makes, in order."""
    def attach(page: Any) -> list[Any]:
        requests: list[Any] = []
        page.on("request", lambda request: requests.append(request))
        return requests

    return attach
