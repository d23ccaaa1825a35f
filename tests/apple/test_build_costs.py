"""What a `.pkpass` build no longer repeats (issue 34): small files are stored rather than
deflated, and a pass's token is decrypted once per process, not per build."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from types import SimpleNamespace
from typing import Any

import pytest

from webapp.services.apple import passes
from webapp.wallets.apple import bundle


def test_small_files_are_stored_and_big_ones_deflated() -> None:
    files = {"pass.json": b'{"a":1}', "big.strings": b'"k" = "v";\n' * 1000,
             "icon.png": b"\x89PNG" + b"\0" * 5000}
    manifest = bundle.manifest(files)
    archive = zipfile.ZipFile(io.BytesIO(bundle.pack(files, manifest, b"\x30\x00")))
    methods = {info.filename: info.compress_type for info in archive.infolist()}
    assert methods == {"big.strings": zipfile.ZIP_DEFLATED, "icon.png": zipfile.ZIP_STORED,
                       "pass.json": zipfile.ZIP_STORED, "manifest.json": zipfile.ZIP_STORED,
                       "signature": zipfile.ZIP_STORED}
    assert archive.testzip() is None  # every CRC-32, small files and big
    assert {name: archive.read(name) for name in files} == files
    assert json.loads(manifest) == {name: hashlib.sha1(data).hexdigest()
                                    for name, data in files.items()}
    assert bundle.manifest(files) == manifest  # the big file's digests, kept, are the same


def test_a_token_is_decrypted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bytes] = []

    def decrypt(token: bytes) -> bytes:
        calls.append(token)
        return b"plain-" + token

    monkeypatch.setattr(passes.vault, "decrypt", decrypt)
    passes._decrypted_token.cache_clear()
    item: Any = SimpleNamespace(auth_token_encrypted="sealed")
    other: Any = SimpleNamespace(auth_token_encrypted="other")
    assert passes.authentication_token(item) == passes.authentication_token(item) == \
        "plain-sealed"
    assert passes.authentication_token(other) == "plain-other"
    assert calls == [b"sealed", b"other"]
    passes._decrypted_token.cache_clear()
