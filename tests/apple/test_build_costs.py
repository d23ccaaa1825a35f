"""What a `.pkpass` build no longer repeats (issue 34): small files are stored rather than
deflated, and a template revision's images are prepared once."""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile

import pytest
from flask import Flask

from tests.apple.conftest import issue, make_template
from tests.conftest import Api
from webapp.wallets.apple import bundle


def test_small_files_are_stored_and_big_ones_deflated() -> None:
    images = {"icon.png": b"\x89PNG" + b"\0" * 5000, "logo.png": b"\x89PNG small"}
    template_images = bundle.image_set(images)
    files = {"pass.json": b'{"a":1}', "big.strings": b'"k" = "v";\n' * 1000}
    manifest = bundle.manifest(template_images, files)
    packed = bundle.pack(template_images, files, manifest, b"\x30\x00")
    archive = zipfile.ZipFile(io.BytesIO(packed))
    methods = {info.filename: info.compress_type for info in archive.infolist()}
    assert methods == {"big.strings": zipfile.ZIP_DEFLATED, "icon.png": zipfile.ZIP_STORED,
                       "logo.png": zipfile.ZIP_STORED, "pass.json": zipfile.ZIP_STORED,
                       "manifest.json": zipfile.ZIP_STORED, "signature": zipfile.ZIP_STORED}
    assert archive.testzip() is None  # every CRC-32, small files and big
    # the end record's counts (zipfile reads the directory without them; unzip trusts them)
    assert struct.unpack("<HH", packed[-22:][8:12]) == (6, 6)
    every = {**images, **files}
    assert {name: archive.read(name) for name in every} == every
    assert json.loads(manifest) == {name: hashlib.sha1(data).hexdigest()
                                    for name, data in every.items()}
    assert list(json.loads(manifest)) == sorted(every)


def test_the_images_entries_lead_every_zip_unchanged() -> None:
    template_images = bundle.image_set({"thumbnail.png": b"\x89PNG t", "icon.png": b"\x89PNG i"})
    built = []
    for value in (b'{"n":1}', b'{"n":22}'):
        files = {"pass.json": value}
        manifest = bundle.manifest(template_images, files)
        built.append(bundle.pack(template_images, files, manifest, b"\x30\x00"))
    for data in built:
        archive = zipfile.ZipFile(io.BytesIO(data))
        assert archive.namelist() == ["icon.png", "thumbnail.png", "pass.json",
                                      "manifest.json", "signature"]
        assert archive.testzip() is None
        assert data.startswith(template_images.entries)
    assert built[0] != built[1]
    assert zipfile.ZipFile(io.BytesIO(built[1])).read("pass.json") == b'{"n":22}'


def test_a_template_revisions_images_are_prepared_once(
        app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two passes of one template revision: their images' digests and zip entries are made
    for the first and kept for the second."""
    prepared: list[list[str]] = []
    real = bundle.image_set

    def image_set(files: dict[str, bytes]) -> bundle.ImageSet:
        prepared.append(sorted(files))
        return real(files)

    monkeypatch.setattr(bundle, "image_set", image_set)
    template = make_template(api)
    client = app.test_client()
    for _ in range(2):
        response = client.get(f"/p/{issue(api, template)['shortId']}/apple.pkpass")
        assert response.status_code == 200
    assert prepared == [["icon.png", "icon@2x.png", "icon@3x.png"]]
