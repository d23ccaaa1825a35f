"""Tests for webapp.wallets.images. Self-contained: every image is generated in memory."""

from __future__ import annotations

import pickle
import random
import struct
import time
import zlib
from io import BytesIO

import pytest
from PIL import Image, ImageFile, features

from webapp.wallets import images
from webapp.wallets.images import (
    ACCEPTED,
    MAX_BYTES,
    MAX_SIDE,
    MIN_SIDE,
    ImageError,
    ImageInfo,
    generated_icon,
    inspect,
    to_png,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
needs_webp = pytest.mark.skipif(not features.check("webp"), reason="Pillow built without WebP")


# --- helpers --------------------------------------------------------------------------------


def encode(img: Image.Image, fmt: str, **params) -> bytes:
    out = BytesIO()
    img.save(out, format=fmt, **params)
    return out.getvalue()


def decode(data: bytes) -> Image.Image:
    img = Image.open(BytesIO(data))
    img.load()
    return img


def png_chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload)
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def handmade_png(width: int, height: int, idat: bytes) -> bytes:
    """An 8-bit greyscale PNG whose header says width x height, with the given IDAT payload."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        PNG_SIGNATURE
        + png_chunk(b"IHDR", ihdr)
        + png_chunk(b"IDAT", idat)
        + png_chunk(b"IEND", b"")
    )


def png_chunk_types(data: bytes) -> list[bytes]:
    assert data.startswith(PNG_SIGNATURE)
    kinds, pos = [], len(PNG_SIGNATURE)
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kinds.append(data[pos + 4 : pos + 8])
        pos += 12 + length
    return kinds


def error_code(data: bytes) -> str:
    with pytest.raises(ImageError) as excinfo:
        inspect(data)
    return excinfo.value.code


@pytest.fixture
def forbid_decoding(monkeypatch):
    """Record any attempt to decode pixel data; the test asserts the list stays empty."""
    calls: list[str] = []
    real_load = ImageFile.ImageFile.load

    def spy(self):
        calls.append(type(self).__name__)
        return real_load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", spy)
    return calls


# --- inspect: accepted formats --------------------------------------------------------------


def test_png_rgba():
    data = encode(Image.new("RGBA", (40, 30), (10, 20, 30, 128)), "PNG")
    assert inspect(data) == ImageInfo("image/png", 40, 30, len(data))


def test_jpeg():
    data = encode(Image.new("RGB", (64, 48), "navy"), "JPEG", quality=90)
    assert inspect(data) == ImageInfo("image/jpeg", 64, 48, len(data))


def test_animated_gif():
    frames = [Image.new("RGB", (50, 20), colour) for colour in ("red", "lime", "blue")]
    data = encode(frames[0], "GIF", save_all=True, append_images=frames[1:], duration=100)
    assert decode(data).n_frames == 3
    assert inspect(data) == ImageInfo("image/gif", 50, 20, len(data))


@needs_webp
@pytest.mark.parametrize(
    "params",
    [{"lossless": True}, {"quality": 80}],
    ids=["lossless", "lossy"],
)
def test_webp(params):
    data = encode(Image.new("RGB", (33, 17), "orange"), "WEBP", **params)
    assert inspect(data) == ImageInfo("image/webp", 33, 17, len(data))


@needs_webp
def test_animated_webp():
    frames = [Image.new("RGBA", (24, 24), colour) for colour in ("red", "green", "blue")]
    data = encode(frames[0], "WEBP", save_all=True, append_images=frames[1:], duration=50)
    assert inspect(data) == ImageInfo("image/webp", 24, 24, len(data))


def test_mpo_counts_as_jpeg():
    first, second = Image.new("RGB", (32, 32), "red"), Image.new("RGB", (32, 32), "blue")
    data = encode(first, "MPO", save_all=True, append_images=[second])
    assert Image.open(BytesIO(data)).format == "MPO"
    assert inspect(data).content_type == "image/jpeg"


def test_content_type_comes_from_the_bytes():
    data = encode(Image.new("RGB", (20, 20)), "GIF")
    assert inspect(data).content_type == ACCEPTED["GIF"] == "image/gif"


# --- inspect: dimensions --------------------------------------------------------------------


@pytest.mark.parametrize(
    "size",
    [(16, 16), (MAX_SIDE, MIN_SIDE), (MIN_SIDE, MAX_SIDE), (100, 60)],
)
def test_dimensions_in_range(size):
    data = encode(Image.new("1", size), "PNG")
    info = inspect(data)
    assert (info.width, info.height) == size


@pytest.mark.parametrize(
    "size",
    [(15, 20), (20, 15), (MAX_SIDE + 1, 16), (16, MAX_SIDE + 1), (1, 1)],
)
def test_dimensions_out_of_range(size):
    data = encode(Image.new("1", size), "PNG")
    with pytest.raises(ImageError) as excinfo:
        inspect(data)
    assert excinfo.value.code == "image_dimensions"
    message = str(excinfo.value)
    assert f"{size[0]}x{size[1]}" in message
    assert str(MIN_SIDE) in message and str(MAX_SIDE) in message


@pytest.mark.parametrize(
    "size",
    [(50_000, 50_000), (20_000, 20_000), (12_000, 10_000), (5_000, 100)],
)
def test_huge_header_is_refused_without_decoding(size, forbid_decoding):
    # A few KB of compressed zeros behind a header claiming billions of pixels.
    data = handmade_png(*size, zlib.compress(b"\0" * 1_000_000, 9))
    assert len(data) < 10_000

    started = time.perf_counter()
    with pytest.raises(ImageError) as excinfo:
        inspect(data)
    elapsed = time.perf_counter() - started

    assert excinfo.value.code == "image_dimensions"
    assert f"{size[0]}x{size[1]}" in str(excinfo.value)
    assert elapsed < 0.5
    assert forbid_decoding == []  # no pixel buffer was ever allocated


def test_huge_jpeg_header_is_refused_without_decoding(forbid_decoding):
    data = bytearray(encode(Image.new("RGB", (32, 32), "red"), "JPEG"))
    sof = data.index(b"\xff\xc0")  # baseline frame header: length, precision, height, width
    data[sof + 5 : sof + 9] = struct.pack(">HH", 50_000, 60_000)
    with pytest.raises(ImageError) as excinfo:
        inspect(bytes(data))
    assert excinfo.value.code == "image_dimensions"
    assert "60000x50000" in str(excinfo.value)
    assert forbid_decoding == []


def test_huge_gif_header_is_refused_without_decoding(forbid_decoding):
    data = bytearray(encode(Image.new("P", (32, 32)), "GIF"))
    data[6:10] = struct.pack("<HH", 60_000, 60_000)  # logical screen size
    assert error_code(bytes(data)) == "image_dimensions"
    assert forbid_decoding == []


@needs_webp
def test_huge_webp_header_is_refused_before_pillow_opens_it(monkeypatch):
    data = bytearray(encode(Image.new("RGB", (32, 32)), "WEBP", lossless=True))
    assert data[12:16] == b"VP8L"
    bits = (16_000 - 1) | ((16_000 - 1) << 14)
    data[21:25] = bits.to_bytes(4, "little")

    def no_open(*args, **kwargs):
        raise AssertionError("Image.open must not be reached")

    monkeypatch.setattr(Image, "open", no_open)
    with pytest.raises(ImageError) as excinfo:
        inspect(bytes(data))
    assert excinfo.value.code == "image_dimensions"
    assert "16000x16000" in str(excinfo.value)


@needs_webp
@pytest.mark.parametrize(
    "params",
    [
        {"lossless": True},
        {"quality": 80},
        {"save_all": True, "append_images": [Image.new("RGB", (70, 45), "blue")]},
    ],
    ids=["VP8L", "VP8", "VP8X"],
)
def test_webp_header_reader_agrees_with_pillow(params):
    data = encode(Image.new("RGB", (70, 45), "red"), "WEBP", **params)
    assert images._webp_canvas_size(data) == decode(data).size == (70, 45)


def test_decompression_bomb_in_an_unsupported_format():
    # Pillow refuses the header itself; as the format is not ours we cannot say more.
    data = bytearray(encode(Image.new("RGB", (16, 16)), "BMP"))
    data[18:26] = struct.pack("<ii", 50_000, 50_000)
    assert error_code(bytes(data)) == "decompression_bomb"


def test_bomb_warning_is_an_error_without_touching_the_global_limit(monkeypatch):
    # Simulate a deployment that lowered Pillow's limit below ours: the warning Pillow then
    # emits for an in-range image must become a refusal, not a log line.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    data = encode(Image.new("L", (40, 40)), "PNG")  # 1600 pixels: warning, not error
    assert error_code(data) == "decompression_bomb"
    assert Image.MAX_IMAGE_PIXELS == 1000


def test_module_leaves_global_pixel_limit_alone():
    before = Image.MAX_IMAGE_PIXELS
    with pytest.raises(ImageError):
        inspect(handmade_png(50_000, 50_000, zlib.compress(b"\0" * 1000)))
    inspect(encode(Image.new("L", (20, 20)), "PNG"))
    assert before == Image.MAX_IMAGE_PIXELS


# --- inspect: refusals ----------------------------------------------------------------------


def test_empty():
    assert error_code(b"") == "empty_file"


def test_too_large_is_refused_before_opening(monkeypatch):
    def no_open(*args, **kwargs):
        raise AssertionError("Image.open must not be reached")

    monkeypatch.setattr(Image, "open", no_open)
    assert error_code(b"\x89" * (MAX_BYTES + 1)) == "file_too_large"


def test_exactly_max_bytes_is_not_too_large():
    # MAX_BYTES of junk is judged on its content, not its size.
    assert error_code(b"\0" * MAX_BYTES) == "invalid_image"


def test_random_bytes():
    data = random.Random(1234).randbytes(4096)
    assert error_code(data) == "invalid_image"


def test_text_file():
    assert error_code(b"name,colour\nAcme,#ff0000\n" * 50) == "invalid_image"


def test_truncated_png():
    rng = random.Random(5)
    noise = Image.frombytes("RGB", (64, 64), rng.randbytes(64 * 64 * 3))
    data = encode(noise, "PNG")
    assert error_code(data[: len(data) // 2]) == "invalid_image"


def test_png_with_broken_idat():
    data = handmade_png(32, 32, b"this is not a zlib stream at all")
    assert error_code(data) == "invalid_image"


def test_png_with_short_idat():
    data = handmade_png(32, 32, zlib.compress(b"\0" * 100))  # needs 32 * 33 bytes
    assert error_code(data) == "invalid_image"


def test_png_signature_only():
    assert error_code(PNG_SIGNATURE) == "invalid_image"


@pytest.mark.parametrize(
    ("fmt", "mode"),
    [("BMP", "RGB"), ("TIFF", "RGB"), ("ICO", "RGBA"), ("PPM", "RGB"), ("TGA", "RGB")],
)
def test_unsupported_formats(fmt, mode):
    data = encode(Image.new(mode, (32, 32), "red"), fmt)
    with pytest.raises(ImageError) as excinfo:
        inspect(data)
    assert excinfo.value.code == "unsupported_image_type"
    assert "PNG, JPEG, GIF or WebP" in str(excinfo.value)


def test_unsupported_format_wins_over_dimensions():
    assert error_code(encode(Image.new("RGB", (8, 8)), "BMP")) == "unsupported_image_type"


# --- ImageError -----------------------------------------------------------------------------


def test_image_error_shape():
    err = ImageError("invalid_image", "broken")
    assert isinstance(err, ValueError)
    assert (err.code, err.message, str(err)) == ("invalid_image", "broken", "broken")
    clone = pickle.loads(pickle.dumps(err))
    assert (clone.code, str(clone)) == ("invalid_image", "broken")


def test_image_error_rejects_unknown_codes():
    with pytest.raises(ValueError, match="unknown image error code"):
        ImageError("nope", "whatever")


# --- to_png ---------------------------------------------------------------------------------


def test_to_png_keeps_size_and_alpha():
    src = Image.new("RGBA", (30, 20), (255, 0, 0, 255))
    src.putpixel((0, 0), (0, 0, 0, 0))
    out = to_png(encode(src, "PNG"))
    assert out.startswith(PNG_SIGNATURE)
    img = decode(out)
    assert (img.mode, img.size) == ("RGBA", (30, 20))
    assert img.getpixel((0, 0))[3] == 0
    assert img.getpixel((5, 5)) == (255, 0, 0, 255)


def test_to_png_opaque_sources_become_rgb():
    img = decode(to_png(encode(Image.new("RGB", (20, 20), "green"), "JPEG")))
    assert img.mode == "RGB"


def test_to_png_transparent_gif_becomes_rgba():
    src = Image.new("P", (20, 20), 1)
    src.putpalette([0, 0, 0, 255, 0, 0] + [0] * 762)
    src.putpixel((0, 0), 0)
    img = decode(to_png(encode(src, "GIF", transparency=0)))
    assert img.mode == "RGBA"
    assert img.getpixel((0, 0))[3] == 0
    assert img.getpixel((10, 10)) == (255, 0, 0, 255)


def test_to_png_animated_gif_gives_first_frame():
    frames = [Image.new("RGB", (20, 20), colour) for colour in ("red", "lime", "blue")]
    data = encode(frames[0], "GIF", save_all=True, append_images=frames[1:])
    img = decode(to_png(data))
    assert img.getpixel((10, 10))[:3] == (255, 0, 0)


@needs_webp
def test_to_png_from_webp():
    data = encode(Image.new("RGBA", (40, 20), (0, 0, 255, 100)), "WEBP", lossless=True)
    img = decode(to_png(data, (20, 20), mode="cover"))
    assert (img.mode, img.size) == ("RGBA", (20, 20))
    assert img.getpixel((10, 10)) == (0, 0, 255, 100)


@pytest.mark.parametrize(
    ("source", "box", "expected"),
    [
        ((200, 100), (50, 50), (50, 25)),  # downscale, width-bound
        ((100, 200), (50, 50), (25, 50)),  # downscale, height-bound
        ((300, 100), (160, 50), (150, 50)),  # Apple logo box
        ((40, 20), (100, 100), (100, 50)),  # small source grows to the box, never beyond
        ((64, 64), (64, 64), (64, 64)),  # already right
        ((4000, 16), (29, 29), (29, 1)),  # extreme ratio keeps at least one pixel
    ],
)
def test_to_png_fit(source, box, expected):
    data = encode(Image.new("RGB", source, "red"), "PNG")
    assert decode(to_png(data, box)).size == expected
    assert decode(to_png(data, box, mode="fit")).size == expected


@pytest.mark.parametrize(
    ("source", "box"),
    [((200, 100), (50, 50)), ((100, 200), (50, 50)), ((30, 20), (375, 123)), ((50, 50), (50, 50))],
)
def test_to_png_cover_is_exact(source, box):
    data = encode(Image.new("RGB", source, "red"), "PNG")
    assert decode(to_png(data, box, mode="cover")).size == box


def test_to_png_cover_crops_the_centre():
    src = Image.new("RGB", (300, 100), "blue")
    src.paste((255, 0, 0), (100, 0, 200, 100))  # red middle third
    img = decode(to_png(encode(src, "PNG"), (60, 60), mode="cover"))
    for xy in [(0, 0), (59, 59), (30, 30)]:
        red, green, blue = img.getpixel(xy)
        assert red > 240 and blue < 15 and green < 15


def test_to_png_is_deterministic():
    rng = random.Random(42)
    src = Image.frombytes("RGBA", (50, 40), rng.randbytes(50 * 40 * 4))
    data = encode(src, "PNG")
    assert to_png(data) == to_png(data)
    assert to_png(data, (20, 20), mode="cover") == to_png(data, (20, 20), mode="cover")
    assert to_png(data, (30, 30)) == to_png(data, (30, 30))


def test_to_png_drops_metadata():
    from PIL import PngImagePlugin

    meta = PngImagePlugin.PngInfo()
    meta.add_text("Comment", "secret")
    meta.add_text("Creation Time", "2024-01-01T00:00:00")
    data = encode(Image.new("RGB", (20, 20), "red"), "PNG", pnginfo=meta, dpi=(300, 300))
    assert b"tEXt" in png_chunk_types(data) or b"pHYs" in png_chunk_types(data)

    kinds = png_chunk_types(to_png(data))
    assert set(kinds) == {b"IHDR", b"IDAT", b"IEND"}


def test_to_png_drops_icc_profile():
    cms = pytest.importorskip("PIL.ImageCms")
    srgb = cms.ImageCmsProfile(cms.createProfile("sRGB")).tobytes()
    data = encode(Image.new("RGB", (20, 20), (200, 100, 50)), "PNG", icc_profile=srgb)
    assert b"iCCP" in png_chunk_types(data)

    out = to_png(data)
    assert set(png_chunk_types(out)) == {b"IHDR", b"IDAT", b"IEND"}
    pixel = decode(out).getpixel((5, 5))
    assert all(abs(a - b) <= 2 for a, b in zip(pixel, (200, 100, 50), strict=True))


def test_to_png_applies_exif_orientation():
    src = Image.new("RGB", (40, 20), "red")
    exif = Image.Exif()
    exif[0x0112] = 6  # "rotate 90 CW to display"
    data = encode(src, "JPEG", exif=exif.tobytes())
    assert inspect(data).width == 40
    assert decode(to_png(data)).size == (20, 40)


def test_to_png_16_bit_greyscale_is_scaled_not_clipped():
    src = Image.new("I;16", (20, 20), 32768)
    assert decode(encode(src, "PNG")).mode == "I;16"
    img = decode(to_png(encode(src, "PNG")))
    assert img.mode == "RGB"
    assert img.getpixel((5, 5)) == (128, 128, 128)


def test_to_png_validates_like_inspect():
    with pytest.raises(ImageError) as excinfo:
        to_png(b"")
    assert excinfo.value.code == "empty_file"
    with pytest.raises(ImageError) as excinfo:
        to_png(handmade_png(50_000, 50_000, zlib.compress(b"\0" * 1000)), (10, 10))
    assert excinfo.value.code == "image_dimensions"
    with pytest.raises(ImageError) as excinfo:
        to_png(encode(Image.new("RGB", (20, 20)), "BMP"))
    assert excinfo.value.code == "unsupported_image_type"


@pytest.mark.parametrize("size", [(0, 10), (10, -1), (10,), "10x10", (10.0, 10), (True, 10)])
def test_to_png_rejects_bad_sizes(size):
    data = encode(Image.new("RGB", (20, 20)), "PNG")
    with pytest.raises(ValueError, match="size"):
        to_png(data, size)


def test_to_png_rejects_bad_mode():
    data = encode(Image.new("RGB", (20, 20)), "PNG")
    with pytest.raises(ValueError, match="mode"):
        to_png(data, (10, 10), mode="stretch")


# --- generated_icon -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 29, 58, 87, 256])
def test_generated_icon_size_and_background(size):
    data = generated_icon("a", "#123456", "#ffffff", size)
    assert data.startswith(PNG_SIGNATURE)
    img = decode(data)
    assert img.size == (size, size)
    assert img.getpixel((0, 0))[:3] == (0x12, 0x34, 0x56)
    assert img.getpixel((size - 1, size - 1))[:3] == (0x12, 0x34, 0x56)


def test_generated_icon_draws_the_letter_centred_in_the_foreground_colour():
    img = decode(generated_icon("w", "#000000", "#ff0000", 100)).convert("RGB")
    reds = [(x, y) for x in range(100) for y in range(100) if img.getpixel((x, y)) == (255, 0, 0)]
    assert len(reds) > 100
    xs, ys = [x for x, _ in reds], [y for _, y in reds]
    centre_x, centre_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    assert abs(centre_x - 49.5) <= 3 and abs(centre_y - 49.5) <= 3


def test_generated_icon_letter_rules():
    def icon(text):
        return generated_icon(text, "#ffffff", "#000000", 64)

    assert icon("a") == icon("A") == icon("Acme") == icon("  acme")
    assert icon("") == icon("?") == icon("   ")
    assert icon("B") != icon("A")
    assert icon("") != generated_icon("?", "#ffffff", "#ffffff", 64)  # something is drawn


def test_generated_icon_is_deterministic_and_valid():
    first = generated_icon("Z", "#0a0b0c", "#fafbfc", 87)
    assert first == generated_icon("Z", "#0a0b0c", "#fafbfc", 87)
    assert inspect(first) == ImageInfo("image/png", 87, 87, len(first))


def test_generated_icon_falls_back_without_scalable_font(monkeypatch):
    from PIL import ImageFont

    real = ImageFont.load_default

    def old_pillow(*args, **kwargs):
        if args or kwargs:
            raise TypeError("load_default() takes 0 positional arguments")
        return real()

    monkeypatch.setattr(ImageFont, "load_default", old_pillow)
    img = decode(generated_icon("k", "#00ff00", "#000000", 40))
    assert img.size == (40, 40)
    assert img.getpixel((0, 0))[:3] == (0, 255, 0)


@pytest.mark.parametrize("colour", ["123456", "#12345", "#1234567", "#gggggg", "red", ""])
def test_generated_icon_rejects_bad_colours(colour):
    with pytest.raises(ValueError, match="#rrggbb"):
        generated_icon("a", colour, "#ffffff", 32)
    with pytest.raises(ValueError, match="#rrggbb"):
        generated_icon("a", "#ffffff", colour, 32)


@pytest.mark.parametrize("size", [0, -5, MAX_SIDE + 1, 32.0, True])
def test_generated_icon_rejects_bad_sizes(size):
    with pytest.raises(ValueError, match="size"):
        generated_icon("a", "#ffffff", "#000000", size)
