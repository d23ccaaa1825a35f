"""Chunked request bodies (Transfer-Encoding: chunked, no Content-Length) over
MAX_CONTENT_LENGTH get 413 like sized ones, in each door's shape, behind Werkzeug's server
and gunicorn; under the limit they arrive whole (issue 22)."""

from __future__ import annotations

import http.client
import json
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api.factories import template_body
from tests.support import gunicorn

MIB = 1024 * 1024


def _chunks(size: int) -> Iterator[bytes]:
    """A JSON object of about `size` bytes, in 64 KiB chunks."""
    yield b'{"slot": "icon", "data": "'
    for start in range(0, size, 64 * 1024):
        yield b"A" * min(64 * 1024, size - start)
    yield b'"}'


def post_chunked(port: int, path: str, body: Iterator[bytes], headers: dict[str, str]
                 ) -> tuple[int, dict[str, str], bytes]:
    """POST with Transfer-Encoding: chunked; the answer received (it must arrive)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, body=body, encode_chunked=True,
                     headers={"Content-Type": "application/json"} | headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.fixture
def werkzeug_port(app: Flask) -> Iterator[int]:
    """The app behind Werkzeug's server (what `make run` serves with)."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture
def gunicorn_port(app: Flask, database_url: str, tmp_path: Path) -> Iterator[int]:
    with gunicorn.serving(app, database_url, tmp_path) as served:
        yield served.port


@pytest.fixture(params=["werkzeug", "gunicorn"])
def port(request: pytest.FixtureRequest) -> int:
    return request.getfixturevalue(f"{request.param}_port")


def _api_error(status: int, headers: dict[str, str], payload: bytes) -> dict[str, Any]:
    assert headers["Content-Type"] == "application/json"
    body = json.loads(payload)
    assert set(body) == {"error", "requestId"} and body["requestId"] == headers["Request-Id"]
    return {"status": status, **body["error"]}


@pytest.mark.parametrize("mib", [9, 15])
def test_over_the_limit_is_413_in_the_api_shape(port: int, org: dict, mib: int) -> None:
    auth = {"Authorization": f"Bearer {org['keys']['test']}"}
    for path in ("/v1/assets", "/v1/templates"):
        answer = post_chunked(port, path, _chunks(mib * MIB),
                              auth | {"Idempotency-Key": str(uuid.uuid4())})
        error = _api_error(*answer)
        assert error["status"] == 413, error
        assert error["type"] == "invalid_request_error"
        assert error["code"] in {"file_too_large", "body_too_large"}


def test_over_the_limit_is_413_on_the_dashboard_and_apples_log(port: int) -> None:
    status, headers, body = post_chunked(port, "/dashboard/login", _chunks(9 * MIB), {})
    assert status == 413
    assert headers["Content-Type"].startswith("text/html")
    assert b"Too large" in body
    status, _headers, body = post_chunked(port, "/wallet/apple/v1/log", _chunks(9 * MIB), {})
    assert (status, body) == (413, b"")


def test_under_the_limit_the_body_arrives_whole(port: int, org: dict) -> None:
    definition = json.dumps(template_body(name="Chunked " + "x" * 50)).encode()
    pieces = iter([definition[i:i + 7] for i in range(0, len(definition), 7)])
    status, _headers, payload = post_chunked(port, "/v1/templates", pieces, {
        "Authorization": f"Bearer {org['keys']['test']}", "Idempotency-Key": str(uuid.uuid4())})
    assert status == 201, payload
    assert json.loads(payload)["name"] == "Chunked " + "x" * 50


@pytest.mark.parametrize("size", [2 * MIB, 9 * MIB, 20 * MIB])
def test_the_answer_is_the_sized_bodys(client: Any, org: dict, size: int) -> None:
    import io

    body = b"".join(_chunks(size))
    headers = {"Authorization": f"Bearer {org['keys']['test']}",
               "Content-Type": "application/json"}
    sized = client.post("/v1/templates", data=body,
                        headers=headers | {"Idempotency-Key": str(uuid.uuid4())})
    chunked = client.post("/v1/templates", input_stream=io.BytesIO(body), headers=headers | {
        "Idempotency-Key": str(uuid.uuid4()), "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True, "CONTENT_LENGTH": ""})
    assert chunked.status_code == sized.status_code == 413
    assert chunked.get_json()["error"] == sized.get_json()["error"]  # the size named too
