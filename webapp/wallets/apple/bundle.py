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
_DIGEST_MIN = 1024  # files this big (images) keep their digests, by identity
_digest_cache: OrderedDict[int, tuple[bytes, str, int]] = OrderedDict()
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


def pass_files(pass_json: Mapping[str, Any], image_bytes: Mapping[str, bytes]
               ) -> dict[str, bytes]:
    """Every file of the bundle except the manifest and the signature."""
    files = {"pass.json": json.dumps(pass_json, ensure_ascii=False,
                                     separators=(",", ":")).encode()}
    files.update(image_bytes)
    return files


def manifest(files: Mapping[str, bytes]) -> bytes:
    """`manifest.json`: the SHA-1 (hex) of every file, by its path in the bundle."""
    return json.dumps({name: _sha1(data) for name, data in sorted(files.items())},
                      separators=(",", ":")).encode()


def pack(files: Mapping[str, bytes], manifest_bytes: bytes, signature: bytes) -> bytes:
    """The zip: the files, then `manifest.json` and `signature`, at the root. PNGs and the
    signature are stored (deflating them gains nothing), and so are files under
    _DEFLATE_MIN: a deflater's set-up costs more than the bytes it would save (issue 34)."""
    out, central, offset = [], [], 0
    entries = [*sorted(files.items()), ("manifest.json", manifest_bytes),
               ("signature", signature)]
    for name, data in entries:
        raw_name = name.encode()
        crc = _crc32(data)
        if name.endswith(".png") or name == "signature" or len(data) < _DEFLATE_MIN:
            method, body = 0, data
        else:
            packer = zlib.compressobj(6, zlib.DEFLATED, -15)
            method, body = 8, packer.compress(data) + packer.flush()
        fields = (20, 0, method, _DOS_TIME, _DOS_DATE, crc, len(body), len(data),
                  len(raw_name))
        out += [struct.pack("<IHHHHHIIIHH", 0x04034B50, *fields, 0), raw_name, body]
        central += [struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x0314, *fields, 0, 0, 0,
                                0, 0o100644 << 16, offset), raw_name]
        offset += 30 + len(raw_name) + len(body)
    directory = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries),
                      len(directory), offset, 0)
    return b"".join(out) + directory + end


def _sha1(data: bytes) -> str:
    """The file's SHA-1 (hex), for the manifest."""
    if len(data) < _DIGEST_MIN:  # pass.json, small images: hashing is cheaper than a lookup
        return hashlib.sha1(data).hexdigest()  # noqa: S324 (Apple's format)
    return _digests(data)[0]


def _crc32(data: bytes) -> int:
    """The file's CRC-32, for the zip."""
    return zlib.crc32(data) if len(data) < _DIGEST_MIN else _digests(data)[1]


def _digests(data: bytes) -> tuple[str, int]:
    """SHA-1 (hex) and CRC-32 of a file of _DIGEST_MIN bytes or more; kept for the images,
    which recur in every pass."""
    key = id(data)
    with _lock:
        found = _digest_cache.get(key)
        if found is not None and found[0] is data:
            return found[1], found[2]
    sha1 = hashlib.sha1(data).hexdigest()  # noqa: S324 (Apple's format)
    crc = zlib.crc32(data)
    with _lock:
        _digest_cache[key] = (data, sha1, crc)
        while len(_digest_cache) > _CACHE_LIMIT:
            _digest_cache.popitem(last=False)
    return sha1, crc
