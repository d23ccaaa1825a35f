"""POST /v1/assets, GET /v1/assets/<id> and the public bytes at /assets/<id>
(spec: POST /v1/assets; decisions.md section 6)."""

from __future__ import annotations

import base64
import http.client
import io
import json
import struct
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tests.api.factories import template_body
from tests.conftest import BASE_URL, Api, assert_error
from tests.support.gunicorn import serving

MIB = 1024 * 1024
MAX_FILE = 5 * MIB


def image_bytes(width: int = 64, height: int = 64, fmt: str = "PNG",
                color: str = "#3366cc") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buf, fmt)
    return buf.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header declares `width` x `height` pixels (a decompression bomb)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b""))


def upload(api: Api, data: str | bytes, slot: str = "icon", **extra: Any) -> Any:
    body = {"slot": slot, "data": b64(data) if isinstance(data, bytes) else data} | extra
    return api.post("/v1/assets", json=body)


# ---- upload: success ------------------------------------------------------------------------

def test_upload_returns_the_asset(api: Api) -> None:
    data = image_bytes(40, 30)
    response = upload(api, data, slot="logo", contentType="image/png")
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    assert list(body) == ["object", "id", "slot", "contentType", "byteSize", "width", "height",
                          "url", "createdAt"]
    assert body["object"] == "asset"
    assert body["id"].startswith("asset_")
    assert body["slot"] == "logo"
    assert body["contentType"] == "image/png"
    assert body["byteSize"] == len(data)
    assert (body["width"], body["height"]) == (40, 30)
    assert body["url"] == f"{BASE_URL}/assets/{body['id']}"
    assert body["createdAt"].endswith("Z") and len(body["createdAt"]) == 24
    assert "Retry-After" not in response.headers


@pytest.mark.parametrize(("fmt", "content_type"), [
    ("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp"),
])
def test_accepted_formats_are_sniffed(api: Api, fmt: str, content_type: str) -> None:
    response = upload(api, image_bytes(fmt=fmt))
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.get_json()["contentType"] == content_type


def test_sniffed_type_wins_over_a_declared_wrong_one(api: Api) -> None:
    response = upload(api, image_bytes(fmt="JPEG"), contentType="image/png")
    assert response.status_code == 201
    assert response.get_json()["contentType"] == "image/jpeg"


def test_content_type_is_optional(api: Api, png) -> None:
    response = api.post("/v1/assets", json={"slot": "strip", "data": png(20, 20)})
    assert response.status_code == 201
    assert response.get_json()["contentType"] == "image/png"


@pytest.mark.parametrize("slot", ["icon", "logo", "strip", "thumbnail", "background", "hero"])
def test_every_slot_is_accepted(api: Api, png, slot: str) -> None:
    response = upload(api, png(), slot=slot)
    assert response.status_code == 201
    assert response.get_json()["slot"] == slot


@pytest.mark.parametrize("size", [(16, 16), (4000, 16), (16, 4000), (4000, 4000)])
def test_sides_of_16_and_4000_pixels_are_accepted(api: Api, size: tuple[int, int]) -> None:
    response = upload(api, image_bytes(*size))
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    assert (body["width"], body["height"]) == size


def test_a_file_of_exactly_5_mib_is_accepted(api: Api) -> None:
    data = image_bytes(32, 32)
    data += b"\x00" * (MAX_FILE - len(data))  # trailing bytes after IEND are ignored
    assert len(data) == MAX_FILE
    response = upload(api, data)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.get_json()["byteSize"] == MAX_FILE


# ---- upload: errors -------------------------------------------------------------------------

@pytest.mark.parametrize("slot", ["banner", "", "ICON", "icon "])
def test_unknown_slot(api: Api, png, slot: str) -> None:
    assert_error(upload(api, png(), slot=slot), 400, "invalid_request_error", "unknown_slot",
                 "slot")


def test_footer_slot_is_refused_saying_why(api: Api, png) -> None:
    response = upload(api, png(), slot="footer")
    assert_error(response, 400, "invalid_request_error", "unknown_slot", "slot")
    assert response.get_json()["error"]["message"] == (
        "slot must be one of icon, logo, strip, thumbnail, background, hero (no footer: Apple "
        "Wallet shows one only on boarding passes, which this service does not issue, and "
        "Google Wallet has none).")


@pytest.mark.parametrize("missing", ["slot", "data"])
def test_missing_member(api: Api, png, missing: str) -> None:
    body = {"slot": "icon", "data": png()}
    del body[missing]
    assert_error(api.post("/v1/assets", json=body), 400, "invalid_request_error",
                 "parameter_missing", missing)


@pytest.mark.parametrize("value", [123, None, ["aGVsbG8="], {"b64": "aGVsbG8="}, True])
def test_data_must_be_a_string(api: Api, value: Any) -> None:
    response = api.post("/v1/assets", json={"slot": "icon", "data": value})
    assert_error(response, 400, "invalid_request_error", "parameter_invalid", "data")


@pytest.mark.parametrize("value", ["not base64!", "aGVsbG8", "aGVs bG8=", "@@@@", "aGVsbG8=\n="])
def test_data_must_be_base64(api: Api, value: str) -> None:
    response = api.post("/v1/assets", json={"slot": "icon", "data": value})
    assert_error(response, 400, "invalid_request_error", "invalid_base64", "data")


def test_unknown_member(api: Api, png) -> None:
    response = api.post("/v1/assets", json={"slot": "icon", "data": png(), "name": "x"})
    assert_error(response, 400, "invalid_request_error", "parameter_unknown", "name")


def test_empty_file(api: Api) -> None:
    assert_error(upload(api, ""), 400, "invalid_request_error", "empty_file", "data")


@pytest.mark.parametrize("data", [b"hello, world", b"\x89PNG\r\n\x1a\n" + b"\x00" * 40,
                                  image_bytes()[:60]])
def test_not_an_image(api: Api, data: bytes) -> None:
    assert_error(upload(api, data), 400, "invalid_request_error", "invalid_image", "data")


def test_bmp_is_unsupported(api: Api) -> None:
    assert_error(upload(api, image_bytes(fmt="BMP")), 400, "invalid_request_error",
                 "unsupported_image_type", "data")


@pytest.mark.parametrize("size", [(15, 64), (64, 15), (4001, 16), (16, 4001), (1, 1)])
def test_pixel_size_out_of_range(api: Api, size: tuple[int, int]) -> None:
    assert_error(upload(api, image_bytes(*size)), 400, "invalid_request_error",
                 "image_dimensions", "data")


@pytest.mark.parametrize("extra", [1, 3, 1000])
def test_file_over_5_mib_is_413(api: Api, extra: int) -> None:
    data = b"\x89PNG" + b"\x00" * (MAX_FILE + extra - 4)
    response = upload(api, data)
    assert_error(response, 413, "invalid_request_error", "file_too_large", "data")


def test_body_over_the_request_limit_is_413_json(app, api: Api) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == 8 * MIB
    body = json.dumps({"slot": "icon", "data": "A" * (9 * MIB)})
    response = api.request("POST", "/v1/assets", data=body,
                           headers={"Content-Type": "application/json"})
    assert_error(response, 413, "invalid_request_error", "file_too_large")


def post_raw(port: int, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str],
                                                                      Any]:
    """POST /v1/assets over a real socket; the status, headers and JSON body received."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/v1/assets", body=body,
                     headers={"Content-Type": "application/json"} | headers)
        response = conn.getresponse()
        status, got, raw = response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()
    assert got["Content-Type"] == "application/json"
    payload = json.loads(raw)
    assert set(payload) == {"error", "requestId"}
    assert payload["requestId"] == got["Request-Id"]
    return status, got, payload


def big_body(mib: int) -> bytes:
    return json.dumps({"slot": "icon", "data": "A" * (mib * MIB)}).encode()


def test_body_over_the_request_limit_is_413_json_over_a_real_socket(app, org: dict) -> None:
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        status, _headers, payload = post_raw(server.server_port, big_body(9), {
            "Authorization": f"Bearer {org['keys']['test']}",
            "Idempotency-Key": str(uuid.uuid4())})
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    assert status == 413
    assert payload["error"]["type"] == "invalid_request_error"
    assert payload["error"]["code"] == "file_too_large"


@pytest.fixture
def gunicorn_port(app, database_url: str, tmp_path: Path) -> Iterator[int]:
    """The service behind gunicorn (the production server), on the test database."""
    with serving(app, database_url, tmp_path, env={"BASE_URL": BASE_URL}) as served:
        yield served.port


def test_early_answers_reach_the_client_behind_gunicorn(gunicorn_port: int, org: dict) -> None:
    # gunicorn closes the socket after answering; a body left unread would turn the answer
    # into a connection reset (the app drains it, up to twice MAX_CONTENT_LENGTH).
    auth = {"Authorization": f"Bearer {org['keys']['test']}"}
    for mib in (9, 15):
        status, _headers, payload = post_raw(gunicorn_port, big_body(mib), auth | {
            "Idempotency-Key": str(uuid.uuid4())})
        assert status == 413, payload
        assert payload["error"]["code"] == "file_too_large"
    status, _headers, payload = post_raw(gunicorn_port, big_body(6), {})
    assert status == 401
    assert payload["error"] == {"code": "invalid_api_key", "message": "Invalid API key provided."}
    status, _headers, payload = post_raw(gunicorn_port, big_body(6), auth)
    assert status == 400
    assert payload["error"]["code"] == "idempotency_key_missing"


def test_decompression_bomb_is_refused_quickly(api: Api) -> None:
    data = png_claiming(50000, 50000)
    assert len(data) < 200
    started = time.perf_counter()
    response = upload(api, data)
    assert time.perf_counter() - started < 2
    assert_error(response, 400, "invalid_request_error", "image_dimensions", "data")


def test_bomb_within_pillow_limits_but_over_4000_is_refused_from_the_header(api: Api) -> None:
    # 9000 x 9000 is under Pillow's own bomb threshold: the 4000 px check must stop it.
    started = time.perf_counter()
    response = upload(api, png_claiming(9000, 9000))
    assert time.perf_counter() - started < 2
    assert_error(response, 400, "invalid_request_error", "image_dimensions", "data")


def test_failed_uploads_store_nothing(app, api: Api) -> None:
    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import Asset

    upload(api, image_bytes(fmt="BMP"))
    upload(api, image_bytes(15, 15))
    upload(api, "")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Asset)) == 0


# ---- GET /v1/assets/<id> --------------------------------------------------------------------

def test_get_returns_the_same_object(api: Api, png) -> None:
    created = upload(api, png(20, 30), slot="thumbnail").get_json()
    response = api.get(f"/v1/assets/{created['id']}")
    assert response.status_code == 200
    assert response.get_json() == created


@pytest.mark.parametrize("asset_id", ["asset_doesnotexist", "nope", "tmpl_abc"])
def test_get_unknown_is_404(api: Api, asset_id: str) -> None:
    assert_error(api.get(f"/v1/assets/{asset_id}"), 404, "not_found_error", "resource_missing")


def test_another_organizations_asset_is_404(api: Api, other_api: Api, png) -> None:
    created = upload(other_api, png()).get_json()
    assert_error(api.get(f"/v1/assets/{created['id']}"), 404, "not_found_error",
                 "resource_missing")
    # Nor can it be referenced by a template of this organization.
    body = template_body()
    body["definition"]["images"] = {"icon": created["id"]}
    response = api.post("/v1/templates", json=body)
    error = assert_error(response, 400, "invalid_request_error", param="definition")
    assert [issue["path"] for issue in error["issues"]] == ["/images/icon"]


def test_asset_needs_a_key(client, api: Api, png) -> None:
    created = upload(api, png()).get_json()
    assert_error(client.get(f"/v1/assets/{created['id']}"), 401, None, "invalid_api_key")
    assert_error(client.post("/v1/assets", json={"slot": "icon", "data": png()}), 401, None,
                 "invalid_api_key")


def test_assets_are_shared_by_test_and_live(api: Api, live_api: Api, png) -> None:
    created = upload(api, png()).get_json()
    assert live_api.get(f"/v1/assets/{created['id']}").get_json() == created
    body = template_body()
    body["definition"]["images"] = {"icon": created["id"]}
    response = live_api.post("/v1/templates", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.get_json()["definition"]["images"] == {"icon": created["id"]}

    live_created = upload(live_api, png(), slot="logo").get_json()
    assert api.get(f"/v1/assets/{live_created['id']}").get_json() == live_created


def test_upload_is_idempotent(api: Api, png) -> None:
    body = {"slot": "icon", "data": png()}
    first = api.post("/v1/assets", json=body, idem="asset-once")
    second = api.post("/v1/assets", json=body, idem="asset-once")
    assert first.status_code == second.status_code == 201
    assert second.headers["Idempotent-Replayed"] == "true"
    assert second.get_json() == first.get_json()


# ---- public bytes ---------------------------------------------------------------------------

@pytest.mark.parametrize(("fmt", "content_type"), [("PNG", "image/png"), ("JPEG", "image/jpeg"),
                                                   ("WEBP", "image/webp")])
def test_public_bytes(client, api: Api, fmt: str, content_type: str) -> None:
    data = image_bytes(48, 24, fmt=fmt)
    asset = upload(api, data, contentType="image/gif").get_json()
    response = client.get(f"/assets/{asset['id']}")  # no key
    assert response.status_code == 200
    assert response.get_data() == data
    assert response.headers["Content-Type"] == content_type
    assert "immutable" in response.headers["Cache-Control"]
    assert "public" in response.headers["Cache-Control"]
    assert response.headers["ETag"].startswith('"') and response.headers["ETag"].endswith('"')
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_public_bytes_url_is_the_asset_url(client, api: Api, png) -> None:
    asset = upload(api, png()).get_json()
    path = asset["url"].removeprefix(BASE_URL)
    assert path == f"/assets/{asset['id']}"
    assert client.get(path).status_code == 200


def test_public_bytes_revalidate_with_304(client, api: Api, png) -> None:
    asset = upload(api, png()).get_json()
    etag = client.get(f"/assets/{asset['id']}").headers["ETag"]
    for header in (etag, f'"other", {etag}', f"W/{etag}", "*"):
        response = client.get(f"/assets/{asset['id']}", headers={"If-None-Match": header})
        assert response.status_code == 304, header
        assert response.get_data() == b""
        assert response.headers["ETag"] == etag
        assert "immutable" in response.headers["Cache-Control"]
    stale = client.get(f"/assets/{asset['id']}", headers={"If-None-Match": '"other"'})
    assert stale.status_code == 200 and stale.get_data()


def test_same_bytes_same_etag_other_bytes_other_etag(client, api: Api, png) -> None:
    a = upload(api, png(color="#000000")).get_json()
    b = upload(api, png(color="#000000")).get_json()
    c = upload(api, png(color="#ffffff")).get_json()
    etags = [client.get(f"/assets/{x['id']}").headers["ETag"] for x in (a, b, c)]
    assert etags[0] == etags[1] != etags[2]


@pytest.mark.parametrize("asset_id", ["asset_doesnotexist", "nope", "tmpl_abc"])
def test_public_bytes_unknown_is_404(client, asset_id: str) -> None:
    response = client.get(f"/assets/{asset_id}")
    assert response.status_code == 404
    assert "immutable" not in response.headers.get("Cache-Control", "")


def test_public_bytes_of_any_organization_need_no_key(client, other_api: Api, png) -> None:
    asset = upload(other_api, png()).get_json()
    assert client.get(f"/assets/{asset['id']}").status_code == 200
