"""Barcode SVGs for the holder page (decoding is checked in the browser tests)."""

from __future__ import annotations

import re

import pytest

from webapp.wallets import barcodes


@pytest.mark.parametrize("format_", barcodes.FORMATS)
def test_each_format_is_a_scalable_svg_without_style_or_script(format_: str) -> None:
    drawn = barcodes.svg(format_, "PASS-ABCDEFGH")
    assert drawn is not None and drawn.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert re.search(r'viewBox="0 0 \d+ \d+"', drawn)
    assert "style" not in drawn and "<script" not in drawn and "<?xml" not in drawn
    assert drawn.endswith("</svg>")


@pytest.mark.parametrize(("format_", "message"), [
    ("qr", ""), ("ean13", "123"), ("code128", "Müller"), ("qr", "x" * 3000),
    ("pdf417", "x" * 5000), ("aztec", "x" * 5000)])
def test_what_cannot_be_drawn_is_none(format_: str, message: str) -> None:
    assert barcodes.svg(format_, message) is None


def test_non_ascii_in_two_dimensional_codes() -> None:
    for format_ in ("qr", "pdf417", "aztec"):
        assert barcodes.svg(format_, "Zoë \u2013 東京") is not None


def test_label_is_escaped() -> None:
    drawn = barcodes.qr("x", label='"><script>')
    assert 'aria-label="&quot;&gt;&lt;script&gt;"' in drawn and "<script" not in drawn
    assert 'aria-hidden="true"' in barcodes.qr("x")
