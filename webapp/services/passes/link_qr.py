"""A pass's permanent link as a QR code, to print (a letter, a poster, a desk sign): the
holder scans it with the phone's camera and lands on the pass's page."""

from __future__ import annotations

import io

import segno

from webapp.services.passes import views
from webapp.wallets import barcodes

LABEL = "QR code of the pass's link"
FILE_SCALE = 10  # px per module in the downloaded SVG; it is a vector, so any size prints


def svg_element(short_id: str) -> str:
    """The QR code of the pass's permanent link, as an inline `<svg>` element."""
    return barcodes.qr(views.distribution_url(short_id), label=LABEL)


def svg_file(short_id: str) -> bytes:
    """The same QR code as a standalone SVG file (white behind it, quiet zone included)."""
    out = io.BytesIO()
    segno.make_qr(views.distribution_url(short_id), error="m", boost_error=False).save(
        out, kind="svg", scale=FILE_SCALE, border=4, light="#fff", title=LABEL)
    return out.getvalue()
