"""The `.pkpass` bundle: images at @1x/@2x/@3x for their slots, `manifest.json` (SHA-1 of
every file) and the zip. Signing is `signing.py`'s job; this module only packs bytes.
"""

from __future__ import annotations

import hashlib
import json
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from webapp.wallets import images, shown_images

MIME_TYPE = "application/vnd.apple.pkpass"
SCALES = (1, 2, 3)
# Slot -> (box in points, how the image fills it). Apple scales and crops to these.
IMAGE_BOXES: dict[str, tuple[tuple[int, int], str]] = {
    "icon": ((29, 29), "cover"),
    "logo": ((160, 50), "fit"),
    "thumbnail": ((90, 90), "fit"),
    "strip": ((375, 98), "cover"),
    "background": ((180, 220), "cover"),
}
# Entries are dated 2020-01-01 00:00 (DOS format): the same files zip to the same bytes.
_DOS_DATE, _DOS_TIME = (2020 - 1980) << 9 | 1 << 5 | 1, 0
_DEFLATE_MIN = 4096  # smaller files are stored: pass.json and manifest.json, usually
_CACHE_LIMIT = 512
_cache: OrderedDict[tuple[str, str, int], bytes] = OrderedDict()
_lock = threading.Lock()


def slots_for(style: str, available: set[str]) -> tuple[str, ...]:
    """The image slots a pass of this style carries, given the template's images
    (`shown_images.apple`)."""
    kind = {"eventTicket": "event_ticket", "storeCard": "loyalty", "coupon": "coupon"}.get(
        style, "generic")
    return tuple(shown_images.apple(kind, {slot: slot for slot in available}))


def image_files(style: str, sources: Mapping[str, bytes], *, icon_letter: str,
                background: str, foreground: str) -> dict[str, bytes]:
    """`icon.png`, `icon@2x.png`, ... for the style's slots; a generated icon if none.

    :raises images.ImageError: a source image cannot be read.
    """
    out: dict[str, bytes] = {}
    for slot in slots_for(style, set(sources)):
        for scale in SCALES:
            out[file_name(slot, scale)] = _scaled(slot, sources[slot], scale)
    if "icon.png" not in out:
        for scale in SCALES:
            out[file_name("icon", scale)] = _generated_icon(icon_letter, background,
                                                            foreground, 29 * scale)
    return out


def file_name(slot: str, scale: int) -> str:
    """`icon.png`, `icon@2x.png`, `icon@3x.png`."""
    return f"{slot}.png" if scale == 1 else f"{slot}@{scale}x.png"


def _scaled(slot: str, data: bytes, scale: int) -> bytes:
    digest = hashlib.sha256(data).hexdigest()
    key = (digest, slot, scale)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    (width, height), mode = IMAGE_BOXES[slot]
    png = images.to_png(data, (width * scale, height * scale), mode=mode)
    _remember(key, png)
    return png


def _generated_icon(letter: str, background: str, foreground: str, size: int) -> bytes:
    key = (f"generated:{letter}:{background}:{foreground}", "icon", size)
    with _lock:
        if key in _cache:
            return _cache[key]
    png = images.generated_icon(letter or "?", _hex(background, "#333333"),
                                _hex(foreground, "#ffffff"), size)
    _remember(key, png)
    return png


def _hex(value: str | None, fallback: str) -> str:
    ok = isinstance(value, str) and len(value) == 7 and value.startswith("#")
    return value if ok else fallback  # type: ignore[return-value]


def _remember(key: tuple[str, str, int], png: bytes) -> None:
    with _lock:
        _cache[key] = png
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_LIMIT:
            _cache.popitem(last=False)


@dataclass(frozen=True)
class ImageSet:
    """A bundle's image files with what every pass repeats about them worked out once: their
    SHA-1s for the manifest, and their zip entries. The images lead every zip, so their
    entries' offsets never change (kept per template revision by the caller)."""

    digests: Mapping[str, str]  # name -> SHA-1 (hex), one per image
    entries: bytes  # the local headers and data, from offset 0
    directory: bytes  # their central directory records


def image_set(files: Mapping[str, bytes]) -> ImageSet:
    """The ImageSet of these files (`image_files`' result)."""
    entries: list[bytes] = []
    directory: list[bytes] = []
    offset = 0
    for name, data in sorted(files.items()):
        local, central = _entry(name, data, offset)
        entries.append(local)
        directory.append(central)
        offset += len(local)
    return ImageSet({name: _sha1(data) for name, data in files.items()}, b"".join(entries),
                    b"".join(directory))


def pass_files(pass_json: Mapping[str, Any]) -> dict[str, bytes]:
    """The pass's own files (pass.json; the caller adds its localizations)."""
    return {"pass.json": json.dumps(pass_json, ensure_ascii=False,
                                    separators=(",", ":")).encode()}


def manifest(template_images: ImageSet, files: Mapping[str, bytes]) -> bytes:
    """`manifest.json`: the SHA-1 (hex) of every file, by its path in the bundle."""
    digests = {**template_images.digests, **{name: _sha1(data) for name, data in files.items()}}
    return json.dumps(digests, sort_keys=True, separators=(",", ":")).encode()


def pack(template_images: ImageSet, files: Mapping[str, bytes], manifest_bytes: bytes,
         signature: bytes) -> bytes:
    """The zip: the images, the pass's files, then `manifest.json` and `signature`, at the
    root."""
    out, central = [template_images.entries], [template_images.directory]
    offset = len(template_images.entries)
    entries = [*sorted(files.items()), ("manifest.json", manifest_bytes),
               ("signature", signature)]
    for name, data in entries:
        local, record = _entry(name, data, offset)
        out.append(local)
        central.append(record)
        offset += len(local)
    directory = b"".join(central)
    count = len(template_images.digests) + len(entries)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, len(directory), offset, 0)
    return b"".join(out) + directory + end


def _entry(name: str, data: bytes, offset: int) -> tuple[bytes, bytes]:
    """A file's local header with its data, and its central directory record. PNGs and the
    signature are stored (deflating them gains nothing), and so are files under
    _DEFLATE_MIN: a deflater's set-up costs more than the bytes it would save (issue 34)."""
    raw_name = name.encode()
    if name.endswith(".png") or name == "signature" or len(data) < _DEFLATE_MIN:
        method, body = 0, data
    else:
        packer = zlib.compressobj(6, zlib.DEFLATED, -15)
        method, body = 8, packer.compress(data) + packer.flush()
    fields = (20, 0, method, _DOS_TIME, _DOS_DATE, zlib.crc32(data), len(body), len(data),
              len(raw_name))
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields, 0) + raw_name + body
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, *fields, 0, 0, 0, 0,
                          0o100644 << 16, offset) + raw_name
    return local, central


def _sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()  # noqa: S324 (Apple's format)
