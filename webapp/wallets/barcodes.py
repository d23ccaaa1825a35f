"""Barcodes drawn as inline SVG: text in, an `<svg>` element out.

QR codes come from segno. PDF417, Aztec and Code 128 come from zxing-cpp's writer (the
zint encoder), so a page shows the same symbology a wallet shows and a scanner reads either.
The output carries no style attribute or script, so it passes a strict CSP inline.
"""

from __future__ import annotations

import re
from html import escape

import segno

FORMATS: tuple[str, ...] = ("qr", "pdf417", "aztec", "code128")
_ZXING_NAMES = {"pdf417": "PDF417", "aztec": "Aztec", "code128": "Code128"}
_SIZE = re.compile(r'<svg width="(\d+)" height="(\d+)"')
_PATH = re.compile(r'<path d="([MmHhVvZz0-9 .\-]+)"')


def svg(format_: str, message: str, *, label: str = "") -> str | None:
    """The symbol as an `<svg>` element scaled by its viewBox; None if it cannot be drawn.

    A message a symbology cannot carry (Code 128 is ASCII only) or an unknown format gives
    None, and the page shows the text instead.
    """
    if not message:
        return None
    try:
        if format_ == "qr":
            return qr(message, label=label)
        if format_ in _ZXING_NAMES:
            width, height, path = _zxing(format_, message)
            return _element(width, height, f'<path d="{path}" fill="#000"/>', label)
    except (ValueError, RuntimeError, segno.DataOverflowError):
        return None
    return None


def qr(message: str, *, label: str = "") -> str:
    """A QR code of `message` (error correction M) as an `<svg>` element."""
    width, height, path = _qr(message)
    # segno draws each run of dark modules as a 1-unit stroke along the module's middle.
    return _element(width, height, f'<path d="{path}" stroke="#000"/>', label)


def _qr(message: str) -> tuple[int, int, str]:
    code = segno.make_qr(message, error="m", boost_error=False)
    width, height = code.symbol_size(scale=1, border=4)
    lines = code.svg_inline(scale=1, border=4, omitsize=True)
    match = re.search(r' d="([^"]+)"', lines)
    if match is None:  # pragma: no cover - segno always draws a path
        raise ValueError("segno drew no path")
    # segno's stub allows float sizes; at an integer scale they are integers.
    return int(width), int(height), match.group(1)


def _zxing(format_: str, message: str) -> tuple[int, int, str]:
    import zxingcpp

    if format_ == "code128" and not message.isascii():
        raise ValueError("Code 128 carries ASCII only")
    barcode = zxingcpp.create_barcode(message, getattr(zxingcpp.BarcodeFormat,
                                                       _ZXING_NAMES[format_]))
    drawn = barcode.to_svg(scale=1, add_hrt=False, add_quiet_zones=True)
    size, path = _SIZE.search(drawn), _PATH.search(drawn)
    if size is None or path is None:
        raise ValueError("unexpected SVG from zxing-cpp")
    return int(size.group(1)), int(size.group(2)), path.group(1)


def _element(width: int, height: int, shape: str, label: str) -> str:
    aria = f' role="img" aria-label="{escape(label)}"' if label else ' aria-hidden="true"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
            f' width="{width}" height="{height}" shape-rendering="crispEdges"{aria}>'
            f'<rect width="{width}" height="{height}" fill="#fff"/>'
            f'{shape}</svg>')
