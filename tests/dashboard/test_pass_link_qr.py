"""The pass page's permanent link (a link, with a copy button) and the printable QR code of
that link (a page and an SVG file), checked by decoding the code."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
import zxingcpp
from PIL import Image

from tests.api.factories import template_body
from tests.conftest import Api
from tests.dashboard.conftest import Dash, text


@pytest.fixture
def issued(api: Api) -> dict[str, Any]:
    template = api.post("/v1/templates", template_body(name="Gym membership")).get_json()
    response = api.post("/v1/passes", {"templateId": template["id"], "holderName": "Ada Lovelace",
                                       "fieldValues": {"member": "Ada"}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _modules(path: str) -> set[tuple[int, int]]:
    """The dark modules of a segno SVG path: runs drawn along each row's middle."""
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command in "Mm":
            x, y = (float(a), float(b)) if command == "M" else (x + float(a), y + float(b))
        else:
            end = float(a) if command == "H" else x + float(a)
            dark.update((int(col), int(y)) for col in range(int(x), int(end)))
            x = end
    return dark


def _decode_svg(svg: str) -> list[str]:
    """What a scanner reads from an SVG QR code (rasterized module by module)."""
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1)) if "viewBox" in svg \
        else int(re.search(r'width="(\d+)"', svg).group(1)) // 10
    image = Image.new("L", (size * 8, size * 8), 255)
    modules = max(re.findall(r' d="([^"]+)"', svg), key=len)  # not the background's
    for col, row in _modules(modules):
        image.paste(0, (col * 8, row * 8, col * 8 + 8, row * 8 + 8))
    return [found.text for found in zxingcpp.read_barcodes(image)]


def test_the_permanent_link_is_a_link_with_a_copy_button(dash: Dash, issued: dict[str, Any]
                                                         ) -> None:
    page = text(dash.get(f"/dashboard/test/passes/{issued['id']}"))
    url = issued["distributionUrl"]
    assert (f'<span class="copyable" id="permanent-link"><a href="{url}" target="_blank" '
            f'rel="noopener"><code>{url}</code></a><button type="button" class="btn small" '
            f'data-copy="{url}">Copy link</button></span>') in page


def test_the_pass_page_links_to_the_qr_code(dash: Dash, issued: dict[str, Any]) -> None:
    page = text(dash.get(f"/dashboard/test/passes/{issued['id']}"))
    assert f'<a href="/dashboard/test/passes/{issued["id"]}/qr">Printable QR code</a>' in page
    assert f'<a href="/dashboard/test/passes/{issued["id"]}/qr.svg" download>SVG file</a>' \
        in page


def test_the_qr_page_shows_a_code_of_the_permanent_link(dash: Dash, issued: dict[str, Any]
                                                        ) -> None:
    response = dash.get(f"/dashboard/test/passes/{issued['id']}/qr")
    assert response.status_code == 200
    page = text(response)
    sheet = page[page.index('<article class="print-sheet" id="qr-sheet">'):]
    assert "Gym membership" in sheet and "Ada Lovelace" in sheet
    assert f"<code>{issued['distributionUrl']}</code>" in sheet
    assert "Scan with your phone's camera to add this pass to your wallet." in sheet
    svg = re.search(r"<svg .*?</svg>", sheet, re.S).group(0)
    assert 'role="img" aria-label="QR code of the pass&#x27;s link"' in svg
    assert _decode_svg(svg) == [issued["distributionUrl"]]
    assert "<script" not in page.split("</head>", 1)[1]  # the CSP: the print button is JS
    assert 'data-print>Print</button>' in page
    assert "voided" not in sheet


def test_the_svg_file_decodes_to_the_permanent_link(dash: Dash, issued: dict[str, Any]
                                                    ) -> None:
    response = dash.get(f"/dashboard/test/passes/{issued['id']}/qr.svg")
    assert response.status_code == 200
    assert response.content_type == "image/svg+xml"
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="pass-{issued["shortId"]}-qr.svg"'
    svg = text(response)
    assert svg.startswith('<?xml version="1.0" encoding="utf-8"?>\n<svg ')
    assert "<title>QR code of the pass's link</title>" in svg
    assert '<path fill="#fff" d="M0 0h' in svg  # prints the same on any paper or poster
    assert _decode_svg(unescape(svg)) == [issued["distributionUrl"]]


def test_a_voided_pass_says_so_on_the_sheet(dash: Dash, issued: dict[str, Any]
                                            ) -> None:
    assert dash.post(f"/dashboard/test/passes/{issued['id']}/void").status_code == 303
    page = text(dash.get(f"/dashboard/test/passes/{issued['id']}/qr"))
    assert "This pass is voided: the page the code opens shows it as no longer valid." in page


@pytest.mark.parametrize("suffix", ["qr", "qr.svg"])
def test_another_organization_or_environment_gets_404(dash: Dash, other_dash: Dash,
                                                      issued: dict[str, Any],
                                                      suffix: str) -> None:
    assert dash.get(f"/dashboard/test/passes/{issued['id']}/{suffix}").status_code == 200
    assert other_dash.get(f"/dashboard/test/passes/{issued['id']}/{suffix}").status_code == 404
    assert dash.get(f"/dashboard/live/passes/{issued['id']}/{suffix}").status_code == 404
    assert dash.get(f"/dashboard/test/passes/pass_unknown/{suffix}").status_code == 404


def test_signed_out_is_sent_to_sign_in(client: Any, issued: dict[str, Any]) -> None:
    response = client.get(f"/dashboard/test/passes/{issued['id']}/qr.svg")
    assert response.status_code in (302, 303)
    assert "/dashboard/login" in response.headers["Location"]

