"""Uploaded images: sniff and validate them, convert them to PNG, draw placeholder icons.

Everything here takes bytes and returns bytes (or a small value object). Pillow does the
work; nothing in this module knows about Flask, the database or the rest of ``webapp``.

Safety model for untrusted uploads:

* the byte count is checked before Pillow sees the data;
* the format is sniffed from the content, never taken from a declared type or file name;
* the dimensions are read from the header (``Image.open`` is lazy) and checked *before*
  any pixel is decoded, so a tiny file claiming 50000x50000 pixels costs nothing;
* decoding happens with Pillow's decompression-bomb warning turned into an error, without
  touching the process-wide ``Image.MAX_IMAGE_PIXELS``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO

from PIL import (
    GifImagePlugin,
    Image,
    ImageDraw,
    ImageFile,
    ImageFont,
    ImageOps,
    JpegImagePlugin,
    PngImagePlugin,
)

__all__ = [
    "ACCEPTED",
    "ERROR_CODES",
    "MAX_BYTES",
    "MAX_SIDE",
    "MIN_SIDE",
    "ImageError",
    "ImageInfo",
    "generated_icon",
    "inspect",
    "to_png",
]

#: Pillow format name -> the content type we record for it.
ACCEPTED = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}
MIN_SIDE, MAX_SIDE = 16, 4000
MAX_BYTES = 5 * 1024 * 1024

#: Formats Pillow reports under another name but which are one of ours. MPO is what Pillow
#: calls a JPEG carrying a multi-picture extension (common from phone and camera photos).
_FORMAT_ALIASES = {"MPO": "JPEG"}

#: Readers used to learn the declared size of a file that ``Image.open`` refused as a
#: decompression bomb. Constructing the plugin class parses the header only.
_HEADER_READERS: tuple[type[ImageFile.ImageFile], ...] = (
    PngImagePlugin.PngImageFile,
    JpegImagePlugin.JpegImageFile,
    GifImagePlugin.GifImageFile,
)

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_FIT_MODES = ("fit", "cover")

ERROR_CODES = frozenset(
    {
        "empty_file",
        "invalid_image",
        "unsupported_image_type",
        "image_dimensions",
        "file_too_large",
        "decompression_bomb",
    }
)


class ImageError(ValueError):
    """An uploaded file was refused. ``code`` is stable and machine-readable; ``message`` is
    a human-readable explanation that is safe to show to the uploader."""

    code: str
    message: str

    def __init__(self, code: str, message: str):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown image error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self):  # keep it picklable despite the two-argument constructor
        return (type(self), (self.code, self.message))

    def __repr__(self) -> str:
        return f"ImageError({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class ImageInfo:
    content_type: str
    width: int
    height: int
    byte_size: int


def inspect(data: bytes) -> ImageInfo:
    """Sniff an uploaded file: what it really is and its size, never trusting a declared type.

    The file is fully decoded (first frame only, for animations) to prove it is a valid image.

    :raises ImageError: with ``code`` one of ``empty_file``, ``file_too_large`` (more than
        :data:`MAX_BYTES`), ``invalid_image`` (not an image, or corrupt),
        ``unsupported_image_type`` (an image, but not one of :data:`ACCEPTED`),
        ``image_dimensions`` (a side outside :data:`MIN_SIDE`..:data:`MAX_SIDE`) or
        ``decompression_bomb``.
    """
    img, fmt = _decode(data)
    with img:
        width, height = img.size
    return ImageInfo(content_type=ACCEPTED[fmt], width=width, height=height, byte_size=len(data))


def to_png(data: bytes, size: tuple[int, int] | None = None, *, mode: str = "fit") -> bytes:
    """Convert to PNG (RGBA kept), optionally resized.

    The input goes through the same checks as :func:`inspect` (and raises the same
    :class:`ImageError`). Animated images give their first frame. EXIF orientation is applied,
    an embedded ICC profile is converted to sRGB when Pillow's colour management is
    available, and the output carries no metadata at all, so the same input always gives
    byte-identical output. The result is RGBA if the source has any transparency (alpha
    channel, or a transparent palette / colour key), RGB otherwise.

    :param size: ``(width, height)`` in pixels, or ``None`` to keep the source size.
    :param mode: ``"fit"``: keep the aspect ratio and scale to the largest size that fits
        inside ``size`` (downscaling big images, enlarging small ones up to the box but never
        beyond it; one side equals the box, the other is at most the box). ``"cover"``: scale
        to cover ``size`` and centre-crop to exactly ``size``.
    :raises ValueError: for a bad ``size`` or ``mode`` (a programming error, not an upload
        problem).
    """
    if mode not in _FIT_MODES:
        raise ValueError(f"mode must be one of {_FIT_MODES}, not {mode!r}")
    if size is not None:
        size = _check_box(size)

    img, _fmt = _decode(data)
    with img:
        out = _normalise(img)
    if size is not None:
        out = _fit(out, size) if mode == "fit" else _cover(out, size)
    return _png_bytes(out)


def generated_icon(letter: str, background: str, foreground: str, size: int) -> bytes:
    """A square PNG of ``size`` px: the background colour (``#rrggbb``) with ``letter``
    (its first non-blank character, upper-cased; ``?`` if there is none) drawn centred in
    the foreground colour.

    Uses Pillow's built-in font (scalable from Pillow 10.1 when FreeType is available, the
    small bitmap font otherwise), so no font file is needed. Characters the built-in font
    lacks render as whatever Pillow draws for a missing glyph.

    :raises ValueError: for a colour that is not ``#rrggbb`` or a size outside
        1..:data:`MAX_SIDE`.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIDE:
        raise ValueError(f"size must be an integer between 1 and {MAX_SIDE}, not {size!r}")
    bg = _parse_colour(background, "background")
    fg = _parse_colour(foreground, "foreground")
    char = (letter.strip()[:1].upper() or "?")[:1]  # "ß".upper() is "SS": keep one character

    img = Image.new("RGB", (size, size), bg)
    draw = ImageDraw.Draw(img)
    font = _default_font(size * 0.6)
    # Centre the ink, not the line box: for a single capital that is what looks centred.
    left, top, right, bottom = draw.textbbox((0, 0), char, font=font)
    x = (size - (right - left)) / 2 - left
    y = (size - (bottom - top)) / 2 - top
    draw.text((x, y), char, fill=fg, font=font)
    return _png_bytes(img)


# --- decoding -------------------------------------------------------------------------------


@contextmanager
def _bomb_guard() -> Iterator[None]:
    """Turn Pillow's DecompressionBombWarning into an error for the duration of the block."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        yield


def _decode(data: bytes) -> tuple[Image.Image, str]:
    """Validate ``data`` and return the decoded image (first frame) and its format name.

    The caller owns the returned image and must close it.
    """
    if not data:
        raise ImageError("empty_file", "The file is empty.")
    if len(data) > MAX_BYTES:
        raise ImageError(
            "file_too_large",
            f"The file is {len(data)} bytes; the limit is {MAX_BYTES} bytes "
            f"({MAX_BYTES // (1024 * 1024)} MB).",
        )

    # libwebp allocates the whole canvas as soon as a decoder is created (inside
    # Image.open), so refuse an oversized WebP from its header before Pillow gets that far.
    webp_size = _webp_canvas_size(data)
    if webp_size is not None:
        _check_dimensions(webp_size)

    with _bomb_guard():
        try:
            img = Image.open(BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            # Image.open() checks the header against MAX_IMAGE_PIXELS itself. With Pillow's
            # default limit (~89 Mpx, far above MAX_SIDE**2) that means the sides are out of
            # range: say so with the declared size when the header can be read.
            declared = _declared_size(data)
            if declared is not None:
                _check_dimensions(declared)
            raise ImageError(
                "decompression_bomb", "The image declares too many pixels to be decoded safely."
            ) from None
        except Exception as exc:  # Pillow raises many types on hostile input
            raise ImageError("invalid_image", "The file is not a readable image.") from exc

    try:
        fmt = _FORMAT_ALIASES.get(img.format or "", img.format or "")
        if fmt not in ACCEPTED:
            kind = f"{img.format} images are" if img.format else "This image type is"
            raise ImageError(
                "unsupported_image_type",
                f"{kind} not supported; use PNG, JPEG, GIF or WebP.",
            )
        # Header only so far: nothing has been decoded yet.
        _check_dimensions(img.size)
        with _bomb_guard():
            try:
                img.load()  # the current frame only: the first one of an animation
            except (Image.DecompressionBombError, Image.DecompressionBombWarning):
                raise ImageError(
                    "decompression_bomb",
                    "The image declares too many pixels to be decoded safely.",
                ) from None
            except Exception as exc:  # Pillow raises many types on corrupt data
                raise ImageError(
                    "invalid_image", "The image is damaged or incomplete and cannot be read."
                ) from exc
    except BaseException:
        img.close()
        raise
    return img, fmt


def _in_range(size: tuple[int, int]) -> bool:
    return all(MIN_SIDE <= side <= MAX_SIDE for side in size)


def _check_dimensions(size: tuple[int, int]) -> None:
    if not _in_range(size):
        width, height = size
        raise ImageError(
            "image_dimensions",
            f"The image is {width}x{height} px; each side must be between "
            f"{MIN_SIDE} and {MAX_SIDE} px.",
        )


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """The width and height a PNG, JPEG, GIF or WebP header declares, without any bomb check
    and without decoding; ``None`` if it is none of those or its header is unreadable."""
    size = _webp_canvas_size(data)
    if size is not None:
        return size
    for reader in _HEADER_READERS:
        size = _read_header_size(reader, data)
        if size is not None:
            return size
    return None


def _read_header_size(reader: type[ImageFile.ImageFile], data: bytes) -> tuple[int, int] | None:
    try:
        with reader(BytesIO(data)) as im:
            return im.size
    except Exception:  # not this format, or a header even Pillow cannot parse
        return None


def _webp_canvas_size(data: bytes) -> tuple[int, int] | None:
    """The canvas size from a WebP file's first chunk header, or ``None`` if not a WebP."""
    if len(data) < 30 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk = data[12:16]
    if chunk == b"VP8X":  # extended: 24-bit (width - 1), (height - 1)
        return (
            int.from_bytes(data[24:27], "little") + 1,
            int.from_bytes(data[27:30], "little") + 1,
        )
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":  # lossy key frame
        return (
            int.from_bytes(data[26:28], "little") & 0x3FFF,
            int.from_bytes(data[28:30], "little") & 0x3FFF,
        )
    if chunk == b"VP8L" and data[20] == 0x2F:  # lossless: 14-bit (width - 1), (height - 1)
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


# --- conversion -----------------------------------------------------------------------------


def _check_box(size: tuple[int, int]) -> tuple[int, int]:
    try:
        width, height = size
    except (TypeError, ValueError):
        raise ValueError(f"size must be a (width, height) pair, not {size!r}") from None
    for side in (width, height):
        if isinstance(side, bool) or not isinstance(side, int) or side < 1:
            raise ValueError(f"size must be two positive integers, not {size!r}")
    return width, height


def _has_transparency(img: Image.Image) -> bool:
    return img.mode in ("RGBA", "RGBa", "LA", "La", "PA") or "transparency" in img.info


def _normalise(img: Image.Image) -> Image.Image:
    """A new RGB or RGBA image: upright, sRGB where possible, with no metadata attached."""
    out = ImageOps.exif_transpose(img)  # always a copy; the source stays untouched
    if out.mode == "I" or out.mode.startswith("I;16"):
        # 16-bit greyscale (PNG): scale to 8 bits instead of clipping everything to white.
        out = out.convert("I").point(lambda v: v / 256).convert("L")
    out = _to_srgb(out)
    out = out.convert("RGBA" if _has_transparency(out) else "RGB")
    out.info.clear()
    return out


def _to_srgb(img: Image.Image) -> Image.Image:
    """Convert from an embedded ICC profile to sRGB; leave the image as is if there is no
    profile, it does not match the pixel mode, or colour management is unavailable."""
    icc = img.info.get("icc_profile")
    if not icc or img.mode not in ("RGB", "RGBA", "CMYK", "L"):
        return img
    try:
        from PIL import ImageCms  # needs Pillow built with littlecms

        source = ImageCms.ImageCmsProfile(BytesIO(icc))
        srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
        converted = ImageCms.profileToProfile(
            img, source, srgb, outputMode="RGBA" if img.mode == "RGBA" else "RGB"
        )
    except Exception:  # ImportError, PyCMSError, OSError...: the profile is only a hint
        return img
    return converted if converted is not None else img


def _fit(img: Image.Image, box: tuple[int, int]) -> Image.Image:
    width, height = img.size
    scale = min(box[0] / width, box[1] / height)
    target = (
        min(box[0], max(1, round(width * scale))),
        min(box[1], max(1, round(height * scale))),
    )
    if target == img.size:
        return img
    return img.resize(target, Image.Resampling.LANCZOS)


def _cover(img: Image.Image, box: tuple[int, int]) -> Image.Image:
    if img.size == box:
        return img
    return ImageOps.fit(img, box, method=Image.Resampling.LANCZOS, centering=(0.5, 0.5))


def _png_bytes(img: Image.Image) -> bytes:
    out = BytesIO()
    # No pnginfo, no icc_profile, no exif: Pillow then writes no text, time or profile chunk.
    img.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


# --- icons ----------------------------------------------------------------------------------


def _parse_colour(value: str, what: str) -> tuple[int, int, int]:
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise ValueError(f"{what} must be a #rrggbb colour, not {value!r}")
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def _default_font(pixels: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=pixels)  # Pillow >= 10.1, FreeType available
    except (TypeError, ImportError, OSError):
        return ImageFont.load_default()
