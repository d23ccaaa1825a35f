"""The unauthenticated `POST /wallet/apple/v1/log` is bounded (issue 22: 200 requests wrote
21.6 MB of log): body size, lines and line length kept, requests per client IP."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from flask.testing import FlaskClient

from webapp.distribution.apple import LOG_BODY_LIMIT
from webapp.services.apple.registrations import MAX_LOG_LENGTH, MAX_LOG_LINES

LOG = "/wallet/apple/v1/log"
LOGGER = "webapp.apple.webservice"


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def _post(client: FlaskClient, lines: Any, ip: str = "198.51.100.1") -> Any:
    return client.post(LOG, json={"logs": lines}, environ_base={"REMOTE_ADDR": ip})


def test_a_report_is_logged(client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=LOGGER):
        response = _post(client, ["Web service error for pass.example: 401"])
    assert response.status_code == 200
    assert _logged(caplog) == ["apple wallet device log: Web service error for pass.example: 401"]


def test_lines_and_their_length_are_capped(client: FlaskClient,
                                           caplog: pytest.LogCaptureFixture) -> None:
    assert (MAX_LOG_LINES, MAX_LOG_LENGTH) == (10, 500)
    lines = [f"{n:02d}" + "x" * 600 for n in range(40)]
    with caplog.at_level(logging.INFO, logger=LOGGER):
        response = client.post(LOG, data=json.dumps({"logs": lines})[:LOG_BODY_LIMIT - 3] + '"]}',
                               content_type="application/json")
    assert response.status_code == 200
    logged = _logged(caplog)
    assert len(logged) == MAX_LOG_LINES
    assert [line.removeprefix("apple wallet device log: ")[:2] for line in logged] == \
        [f"{n:02d}" for n in range(MAX_LOG_LINES)]
    assert all(len(line) == len("apple wallet device log: ") + MAX_LOG_LENGTH for line in logged)


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_over_16_kib_is_refused_unread(client: FlaskClient, chunked: bool,
                                              caplog: pytest.LogCaptureFixture) -> None:
    body = json.dumps({"logs": ["x" * LOG_BODY_LIMIT]}).encode()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        if chunked:  # no Content-Length: the server ends the body (wsgi.input_terminated)
            response = client.post(LOG, input_stream=io.BytesIO(body), environ_overrides={
                "wsgi.input_terminated": True, "CONTENT_LENGTH": "",
                "HTTP_TRANSFER_ENCODING": "chunked"}, content_type="application/json")
        else:
            response = client.post(LOG, data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.headers["Cache-Control"] == "no-store"
    assert _logged(caplog) == []


@pytest.mark.parametrize("body", [b"[" * 15000, b"\xff\xfe", b"{}", b'{"logs": [1]}'])
def test_malformed_reports_are_400(client: FlaskClient, body: bytes) -> None:
    assert client.post(LOG, data=body, content_type="application/json").status_code == 400


def test_each_client_ip_may_report_10_times_a_minute(client: FlaskClient,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    lines = ["y" * MAX_LOG_LENGTH] * MAX_LOG_LINES
    with caplog.at_level(logging.INFO, logger=LOGGER):
        statuses = [_post(client, lines).status_code for _ in range(200)]
        other = _post(client, ["another device"], ip="198.51.100.2")
    assert statuses[:10] == [200] * 10
    assert set(statuses[10:]) == {429}
    assert other.status_code == 200
    # 200 requests with the largest report: about 50 KB of log instead of 21.6 MB.
    logged = _logged(caplog)
    assert len(logged) == 10 * MAX_LOG_LINES + 1
    assert sum(len(line) for line in logged) < 60_000
