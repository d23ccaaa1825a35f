"""The scanner page in Chromium with a fake rear camera that films a real pass's barcode.

Chromium reads a YUV4MPEG2 file as its camera (`--use-file-for-fake-video-capture`); the
file is made here from the barcode of a pass issued in the test (segno draws QR codes,
zxing-cpp the other symbologies), so no binary is committed. Debian's headless Chromium has
no `BarcodeDetector`, so these tests run the vendored ZXing decoder. Screenshots at 390x844
in tests/browser/screenshots/.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import segno
import zxingcpp
from PIL import Image

from tests.api.factories import template_body
from tests.browser.dashboard.conftest import PASSWORD, sign_in
from tests.browser.test_accessibility import serious_violations
from tests.support.browser import CHROMIUM, DEVICES, WATCH_REFUSALS, LiveServer, api, screenshot
from webapp.services.context import Context

OWNER = "owner@door.test"
SCANNER, SCANNER_PASSWORD = "sam@door.test", "door password 1"
WIDTH, HEIGHT = 640, 480


@pytest.fixture
def org(live_server: LiveServer) -> dict[str, Any]:
    """An organization (owner OWNER) with a scanner member SCANNER; its test key."""
    from webapp.services.accounts import members, organizations

    with live_server.app.app_context():
        created = organizations.create("Door Co", OWNER, PASSWORD)
        org_id = created.organization.id
        owner = Context(org_id, "test", actor="dashboard",
                        user_id=members.list_(Context(org_id, "test"))[0].user_id)
        members.add(owner, SCANNER, SCANNER_PASSWORD, "scanner")
    return {"id": org_id, "key": created.keys["test"]}


def _pass(server: LiveServer, key: str, barcode_format: str = "qr",
          redemption: dict[str, Any] | None = None) -> dict[str, Any]:
    """A pass of a check-in template whose barcode carries its short ID."""
    body = template_body(name="Concert", barcode={"format": barcode_format},
                         redemption=redemption or {"mode": "single"})
    template = api(server, key, "POST", "templates", body)
    return api(server, key, "POST", "passes", {
        "templateId": template["id"], "holderName": "Ada Lovelace",
        "fieldValues": {"member": "Ada Lovelace", "level": "Gold"}})


def _symbol(barcode_format: str, message: str) -> Image.Image:
    """The pass's barcode as a wallet draws it, black on white."""
    if barcode_format == "qr":
        code = segno.make_qr(message, error="m", boost_error=False)
        rows = [[0 if dark else 255 for dark in row] for row in code.matrix_iter(border=4)]
        image = Image.new("L", (len(rows[0]), len(rows)))
        image.putdata([value for row in rows for value in row])
        return image
    name = {"pdf417": "PDF417", "aztec": "Aztec", "code128": "Code128"}[barcode_format]
    drawn = memoryview(zxingcpp.create_barcode(
        message, getattr(zxingcpp.BarcodeFormat, name)).to_image(scale=1,
                                                                 add_quiet_zones=True))
    height, width = drawn.shape
    return Image.frombuffer("L", (width, height), drawn.tobytes(), "raw", "L", 0, 1)


def _camera_file(symbol: Image.Image, path: Path, frames: int = 4, blank: int = 0) -> Path:
    """A YUV4MPEG2 (4:2:0) video at 10 frames a second, which the fake camera plays in a
    loop: `frames` frames of `symbol` on white, then `blank` frames of white alone."""
    scale = max(1, min((WIDTH - 40) // symbol.width, (HEIGHT - 40) // symbol.height))
    width, height = symbol.width * scale, symbol.height * scale
    if height < 120:  # a linear code: taller bars, as on a phone's screen
        height = 160
    frame = Image.new("L", (WIDTH, HEIGHT), 255)
    frame.paste(symbol.resize((width, height), Image.Resampling.NEAREST),
                ((WIDTH - width) // 2, (HEIGHT - height) // 2))
    chroma = bytes([128]) * (WIDTH // 2 * HEIGHT // 2)  # grey: no colour
    data = b"FRAME\n" + frame.tobytes() + chroma + chroma
    white = b"FRAME\n" + bytes([255]) * (WIDTH * HEIGHT) + chroma + chroma
    path.write_bytes(f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode()
                     + data * frames + white * blank)
    return path


@pytest.fixture
def phone_with_camera(browser: Any) -> Iterator[Any]:
    """`phone_with_camera(video_file)`: a 390x844 page of a Chromium whose camera films it."""
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium")
    launched: list[Any] = []

    def make(video: Path) -> Any:
        instance = browser.browser_type.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                  f"--use-file-for-fake-video-capture={video}"])
        launched.append(instance)
        context = instance.new_context(**DEVICES["iphone"], locale="en-US",
                                       timezone_id="Europe/Berlin", permissions=["camera"])
        page = context.new_page()
        page.add_init_script(WATCH_REFUSALS)
        return page

    yield make
    for instance in launched:
        instance.close()


def _wait_for_verdict(page: Any, kind: str) -> Any:
    """The verdict of `kind` on screen; else fail with what the page says."""
    try:
        return page.wait_for_selector(f".verdict.{kind}", timeout=20000)
    except Exception as exc:
        said = page.evaluate("document.getElementById('scan-status').textContent")
        shown = page.evaluate("document.getElementById('verdict-box').textContent")
        raise AssertionError(f"no {kind} verdict; status: {said!r}; box: {shown!r}") from exc


def _redeemed_at(server: LiveServer, org: dict[str, Any], pass_id: str) -> str:
    """When the pass was first checked in, as the page shows it (Europe/Berlin)."""
    from webapp.services.redemptions import checkin

    with server.app.app_context():
        first = checkin.list_(Context(org["id"], "test"), pass_id).data[-1]
    return first.redeemed_at.replace(tzinfo=UTC).astimezone(ZoneInfo("Europe/Berlin")
                                                            ).strftime("%H:%M")


def test_first_scan_is_green_and_the_second_red(phone_with_camera: Any, live_server: LiveServer,
                                                org: dict[str, Any], tmp_path: Path) -> None:
    item = _pass(live_server, org["key"])
    video = _camera_file(_symbol("qr", item["shortId"]), tmp_path / "pass.y4m")
    page = phone_with_camera(video)
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    page.goto(f"{live_server.url}/dashboard/test/scan?location=Gate+B")
    green = _wait_for_verdict(page, "valid")
    screenshot(page, "scanner-valid")
    assert page.get_attribute("body", "data-reader") == "ZXing"  # no BarcodeDetector here
    assert [line for line in green.inner_text().splitlines() if line][:3] == [
        "✓", "Valid", "Ada Lovelace"]
    decoded_to_verdict = int(green.get_attribute("data-elapsed-ms") or "0")
    green.click()  # the same pass stays in front of the camera: scanned again after a pause
    red = _wait_for_verdict(page, "refused")
    screenshot(page, "scanner-refused")
    assert page.locator(".verdict-title").inner_text() == "Already checked in"
    time = _redeemed_at(live_server, org, item["id"])
    assert page.locator(".verdict-reason").inner_text() == f"at {time} by {SCANNER}, Gate B"
    assert page.locator("#scan-zone-name").inner_text() == "Europe/Berlin"
    assert int(red.get_attribute("data-elapsed-ms") or "0") < 300
    assert decoded_to_verdict < 300
    red.click()  # the camera again, the same pass left alone for a few seconds
    page.wait_for_selector("#verdict", state="detached")
    screenshot(page, "scanner-camera")
    assert page.evaluate("window.__refused") == []


@pytest.mark.parametrize("barcode_format", ["pdf417", "aztec", "code128"])
def test_the_other_symbologies_scan_too(phone_with_camera: Any, live_server: LiveServer,
                                        org: dict[str, Any], tmp_path: Path,
                                        barcode_format: str) -> None:
    item = _pass(live_server, org["key"], barcode_format, {"mode": "multiple"})
    video = _camera_file(_symbol(barcode_format, item["shortId"]), tmp_path / "pass.y4m")
    page = phone_with_camera(video)
    sign_in(page, live_server.url, OWNER, PASSWORD)
    page.goto(f"{live_server.url}/dashboard/test/scan")
    verdict = _wait_for_verdict(page, "valid")
    assert "Use 1" in verdict.inner_text()
    if barcode_format == "pdf417":
        screenshot(page, "scanner-valid-counted")


def test_manual_entry_and_its_timing(page_for: Any, live_server: LiveServer,
                                     org: dict[str, Any]) -> None:
    items = [_pass(live_server, org["key"]) for _ in range(3)]
    page = page_for("iphone", timezone_id="Europe/Berlin")
    page.add_init_script(WATCH_REFUSALS)
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    # No camera in this Chromium: the page says so and the typed short ID is the way.
    page.wait_for_selector("#scan-status:has-text('type the short ID below')")
    screenshot(page, "scanner-no-camera")
    assert serious_violations(page) == []
    page.fill("#scan-location", "Side door")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.press("#scan-code", "Enter")  # an empty field (a verdict already gone): nothing
    page.wait_for_timeout(500)
    assert posts == [] and page.locator("#verdict").count() == 0
    took = []
    for expected in ("valid", "refused"):
        for item in items:
            page.fill("#scan-code", item["shortId"].lower())
            page.press("#scan-code", "Enter")
            verdict = page.wait_for_selector(f".verdict.{expected}")
            took.append(int(verdict.get_attribute("data-elapsed-ms") or "0"))
            if expected == "refused" and item is items[0]:
                screenshot(page, "scanner-manual-refused")
                assert serious_violations(page) == []
                assert page.locator(".verdict-reason").inner_text().endswith(
                    f"by {SCANNER}, Side door")
            page.keyboard.press("Enter")  # the verdict away, the field ready again
            page.wait_for_selector("#verdict", state="detached")
            assert page.evaluate("document.activeElement.id") == "scan-code"
    assert page.input_value("#scan-location") == "Side door"  # kept across scans
    assert statistics.median(took) < 300, took
    # A refused request (here: the form's token spoilt) shows the dashboard's own reason.
    page.evaluate("document.querySelector('#scan-form [name=csrf_token]').value = 'stale'")
    page.fill("#scan-code", items[0]["shortId"])
    page.press("#scan-code", "Enter")
    problem = page.wait_for_selector(".verdict.problem")
    assert problem.inner_text().splitlines()[-1].startswith(
        "This form has expired: Reload the page and try again.")
    assert page.evaluate("window.__refused") == []


def test_a_scanner_opening_the_dashboard_lands_on_the_scanner(
        page_for: Any, live_server: LiveServer, org: dict[str, Any]) -> None:
    owner = page_for("iphone")
    sign_in(owner, live_server.url, OWNER, PASSWORD)
    owner.goto(f"{live_server.url}/dashboard/test/members")
    row = owner.locator("tr", has_text=SCANNER)
    assert row.locator("select").input_value() == "scanner"
    screenshot(owner, "scanner-members-roles")
    assert serious_violations(owner) == []
    page = page_for("iphone")
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    for path in ("/dashboard/test/passes", "/dashboard/test/members", "/dashboard/live/keys"):
        page.goto(f"{live_server.url}{path}")
        assert page.url.endswith("/scan"), path
    page.goto(f"{live_server.url}/dashboard/test/scan")
    assert page.locator(".scan-bar a").count() == 0  # no link into the dashboard
    page.click("text=Sign out")
    page.wait_for_url(f"{live_server.url}/dashboard/login")


def _verdict_posts(page: Any) -> list[str]:
    """Each POST of a code the page makes, as it happens (list filled in as they go)."""
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url)
            if request.method == "POST" and request.url.endswith("/scan") else None)
    return posts


def _redemptions(server: LiveServer, org: dict[str, Any], pass_id: str) -> int:
    from webapp.services.redemptions import checkin

    with server.app.app_context():
        return len(checkin.list_(Context(org["id"], "test"), pass_id).data)


def test_a_code_left_in_view_is_judged_once_and_stays_green(
        phone_with_camera: Any, live_server: LiveServer, org: dict[str, Any],
        tmp_path: Path) -> None:
    item = _pass(live_server, org["key"])
    page = phone_with_camera(_camera_file(_symbol("qr", item["shortId"]), tmp_path / "p.y4m"))
    posts = _verdict_posts(page)
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    _wait_for_verdict(page, "valid")
    for second in range(15):  # the pass held up for 15 s: the same green screen throughout
        page.wait_for_timeout(1000)
        assert page.locator("#verdict").get_attribute("data-verdict") == "valid", second
    screenshot(page, "scanner-held-15s")
    assert len(posts) == 1
    assert _redemptions(live_server, org, item["id"]) == 1


def test_a_code_back_in_view_soon_shows_its_verdict_again(
        phone_with_camera: Any, live_server: LiveServer, org: dict[str, Any],
        tmp_path: Path) -> None:
    """In view 2 s, out of view 3 s: the verdict goes once the code has gone, and comes back
    with it, the same, without asking the server again."""
    item = _pass(live_server, org["key"])
    page = phone_with_camera(_camera_file(_symbol("qr", item["shortId"]), tmp_path / "p.y4m",
                                          frames=20, blank=30))
    posts = _verdict_posts(page)
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    _wait_for_verdict(page, "valid")
    page.wait_for_selector("#verdict", state="detached", timeout=10000)
    _wait_for_verdict(page, "valid")
    page.wait_for_timeout(6000)
    assert page.locator(".verdict.refused").count() == 0
    assert len(posts) == 1
    assert _redemptions(live_server, org, item["id"]) == 1


def test_a_code_back_after_a_while_is_judged_again(
        phone_with_camera: Any, live_server: LiveServer, org: dict[str, Any],
        tmp_path: Path) -> None:
    """In view 2 s, out of view 7 s: back, it is a new scan (here: already checked in)."""
    item = _pass(live_server, org["key"])
    page = phone_with_camera(_camera_file(_symbol("qr", item["shortId"]), tmp_path / "p.y4m",
                                          frames=20, blank=70))
    posts = _verdict_posts(page)
    sign_in(page, live_server.url, SCANNER, SCANNER_PASSWORD, "/dashboard/test/scan")
    _wait_for_verdict(page, "valid")
    page.wait_for_selector("#verdict", state="detached", timeout=10000)
    _wait_for_verdict(page, "refused")
    assert page.locator(".verdict-title").inner_text() == "Already checked in"
    assert len(posts) == 2
