"""`make run` (flask run: Werkzeug's server) writes no download-link token, pass page ID,
device ID or searched email to its log (issue 22), and neither does the app's own request
log."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.conftest import Api
from tests.support.services import free_port, wait_until_serving
from webapp.logging import RedactRequestLines, redact_path, redact_request_line

ROOT = Path(__file__).resolve().parent.parent
EMAIL = "ada.lovelace@example.test"


@pytest.fixture
def secrets(api: Api) -> dict[str, str]:
    """A pass's page ID and a download link's token, both keys to the pass."""
    template = api.post("/v1/templates", template_body()).get_json()
    issued = api.post("/v1/passes", {"templateId": template["id"], "holderEmail": EMAIL,
                                     "fieldValues": {"member": "Ada"}}).get_json()
    link = api.post(f"/v1/passes/{issued['id']}/download-links", {}).get_json()
    return {"short_id": issued["distributionUrl"].rsplit("/", 1)[1],
            "token": link["url"].rsplit("/", 1)[1]}


def _served_log(app: Flask, database_url: str, tmp_path: Path, paths: list[str],
                raw: bytes) -> str:
    """What `flask run` (as `make run` starts it) writes while `paths` are requested, and
    one malformed request line `raw`."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"BASE_URL"}}
    env.update(INSTANCE_PATH=str(tmp_path / "served"), DATABASE_URL=database_url,
               SECRET_KEY=app.config["SECRET_KEY"],
               ENCRYPTION_KEYS=",".join(app.config["ENCRYPTION_KEYS"]),
               HOST="127.0.0.1", PORT=str(port))
    server = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "wsgi", "run", "--host", "127.0.0.1",
         "--port", str(port)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{url}/static/holder/holder.css")
        with httpx.Client(base_url=url, timeout=10) as client:
            statuses = [client.get(path).status_code for path in paths]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(raw)
            assert sock.recv(100)  # an error answer
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert statuses[:3] == [200, 200, 303], statuses  # the page, the pass file, a sign-in
    return output


def test_make_run_logs_no_token_id_or_searched_email(app: Flask, database_url: str,
                                                     tmp_path: Path,
                                                     secrets: dict[str, str]) -> None:
    token, short_id = secrets["token"], secrets["short_id"]
    paths = [f"/d/{token}", f"/d/{token}/apple.pkpass", f"/dashboard/test/passes?q={EMAIL}",
             f"/p/{short_id}", f"/p/{short_id}/google?from=qr",
             "/wallet/apple/v1/devices/device-secret-1/registrations/pass.example.test"]
    raw = f"GET /d/{token}?q={EMAIL} HTTP/1.1 extra\r\n\r\n".encode()
    output = _served_log(app, database_url, tmp_path, paths, raw)
    for secret in (token, short_id, EMAIL, EMAIL.replace("@", "%40"), "device-secret-1"):
        assert secret not in output, secret
    # Werkzeug's access lines and the app's own request lines are there, redacted.
    assert '"GET /d/[token] HTTP/1.1" 200' in output
    assert '"GET /d/[token]/apple.pkpass HTTP/1.1" 200' in output
    assert "GET /dashboard/test/passes?q=[redacted] HTTP/1.1" in output
    assert "GET /p/[id]/google?from=[redacted] HTTP/1.1" in output
    assert "GET /wallet/apple/v1/devices/[device]/registrations/pass.example.test" in output
    assert "webapp.request requestId=req_" in output and "path=/d/[token] status=200" in output
    assert "path=/p/[id]/google" in output
    assert "Bad request" in output  # the malformed line's error, with its target redacted


@pytest.mark.parametrize(("line", "redacted"), [
    ('"GET /d/AbC-123_x HTTP/1.1" 200 -', '"GET /d/[token] HTTP/1.1" 200 -'),
    ("GET /dashboard/test/passes?q=a%40b.c&status=active",
     "GET /dashboard/test/passes?q=[redacted]&status=[redacted]"),
    ("GET /dashboard/test/passes?ada@example.test", "GET /dashboard/test/passes?[redacted]"),
    ("GET /p/8TMDM6UJG6WF/apple.pkpass?x", "GET /p/[id]/apple.pkpass?[redacted]"),
    ("DELETE /wallet/apple/v1/devices/abc/registrations/p/1",
     "DELETE /wallet/apple/v1/devices/[device]/registrations/p/1"),
    ("Bad request syntax ('GET /d/tok?q=x HTTP/1.1 x')",
     "Bad request syntax ('GET /d/[token]?q=[redacted] HTTP/1.1 x')"),
    ("GET /v1/passes/pass_01abc HTTP/1.1", "GET /v1/passes/pass_01abc HTTP/1.1"),
])
def test_request_lines_are_redacted(line: str, redacted: str) -> None:
    assert redact_request_line(line) == redacted


def test_the_app_log_redacts_the_same_paths() -> None:
    assert redact_path("/d/tok/google") == "/d/[token]/google"
    assert redact_path("/p/8TMDM6UJG6WF") == "/p/[id]"
    assert redact_path("/dashboard/test/passes") == "/dashboard/test/passes"


def test_the_filter_leaves_format_strings_working() -> None:
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1,
                               '127.0.0.1 - - [date] "%s" %s %s', ("GET /d/x?q=1 HTTP/1.1",
                                                                   "200", "-"), None)
    assert RedactRequestLines().filter(record)
    assert record.getMessage() == ('127.0.0.1 - - [date] "GET /d/[token]?q=[redacted] HTTP/1.1"'
                                   ' 200 -')
    plain = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, "GET /p/abc", None, None)
    assert RedactRequestLines().filter(plain)
    assert plain.getMessage() == "GET /p/[id]"


def test_the_filter_is_installed_once(app: Flask, tmp_path: Path, database: Any,
                                      database_url: str) -> None:
    from tests.conftest import base_overrides
    from webapp import create_app

    create_app(base_overrides(tmp_path, database_url))
    filters = [f for f in logging.getLogger("werkzeug").filters
               if isinstance(f, RedactRequestLines)]
    assert len(filters) == 1
