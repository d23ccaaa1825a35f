"""Secrets at rest (`webapp.vault`): AES-256-GCM under `ENCRYPTION_KEYS`, and the Fernet tokens
sealed before it still open."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from cryptography.fernet import Fernet
from flask import Flask

from webapp import vault

OLD = "b2xkLWtleS1vbGQta2V5LW9sZC1rZXktb2xkLWtleTE="
NEW = "bmV3LWtleS1uZXcta2V5LW5ldy1rZXktbmV3LWtleTE="


@pytest.fixture
def keys() -> Iterator[list[str]]:
    """`ENCRYPTION_KEYS` of a bare app, changed by the test in place."""
    app = Flask(__name__)
    app.config["ENCRYPTION_KEYS"] = [NEW, OLD]
    with app.app_context():
        yield app.config["ENCRYPTION_KEYS"]


def test_a_sealed_value_opens_and_does_not_show_the_value(keys: list[str]) -> None:
    sealed = vault.encrypt(b"the holder's secret")
    assert vault.decrypt(sealed) == b"the holder's secret"
    raw = base64.urlsafe_b64decode(sealed)
    assert b"secret" not in raw
    assert raw[0] == 0x01 and len(raw) == 1 + 4 + 12 + len(b"the holder's secret") + 16
    assert vault.decrypt(sealed.decode()) == b"the holder's secret"  # text columns
    assert vault.decrypt(vault.encrypt(b"")) == b""


def test_sealing_twice_gives_two_values(keys: list[str]) -> None:
    first, second = vault.encrypt(b"same"), vault.encrypt(b"same")
    assert first != second  # a new nonce each time
    assert vault.decrypt(first) == vault.decrypt(second) == b"same"


def test_every_configured_key_opens_and_the_first_seals(keys: list[str]) -> None:
    keys[:] = [OLD]
    by_old = vault.encrypt(b"sealed by the old key")
    keys[:] = [NEW, OLD]  # rotated: the new key first, the old one kept after it
    by_new = vault.encrypt(b"sealed by the new key")
    assert vault.decrypt(by_old) == b"sealed by the old key"
    assert vault.decrypt(by_new) == b"sealed by the new key"
    keys[:] = [NEW]
    with pytest.raises(vault.InvalidToken):
        vault.decrypt(by_old)
    keys[:] = [OLD]
    with pytest.raises(vault.InvalidToken):
        vault.decrypt(by_new)


def test_fernet_tokens_sealed_before_still_open(keys: list[str]) -> None:
    by_old = Fernet(OLD).encrypt(b"sealed in 2025")
    assert vault.decrypt(by_old) == b"sealed in 2025"
    assert vault.decrypt(by_old.decode()) == b"sealed in 2025"
    keys[:] = [NEW]
    with pytest.raises(vault.InvalidToken):
        vault.decrypt(by_old)


@pytest.mark.parametrize("change", [
    "flip a ciphertext bit", "flip the key ID", "flip the format byte", "cut the tag",
    "cut to the header", "empty", "not base64", "unknown format"])
def test_a_changed_or_foreign_value_does_not_open(keys: list[str], change: str) -> None:
    raw = bytearray(base64.urlsafe_b64decode(vault.encrypt(b"a secret value")))
    if change == "flip a ciphertext bit":
        raw[20] ^= 1
    elif change == "flip the key ID":
        raw[2] ^= 1
    elif change == "flip the format byte":
        raw[0] = 0x02
    elif change == "cut the tag":
        del raw[-16:]
    elif change == "cut to the header":
        del raw[5:]
    elif change == "empty":
        raw.clear()
    elif change == "unknown format":
        raw = bytearray(b"\x7f" + bytes(40))
    token = b"%%%not base64%%%" if change == "not base64" else base64.urlsafe_b64encode(raw)
    with pytest.raises(vault.InvalidToken):
        vault.decrypt(token)


@pytest.mark.parametrize("configured", [["c2hvcnQ="], []])
def test_a_key_that_is_not_a_fernet_key_or_none_is_refused(keys: list[str],
                                                           configured: list[str]) -> None:
    keys[:] = configured
    with pytest.raises(ValueError):
        vault.encrypt(b"x")


def test_the_header_is_authenticated(keys: list[str]) -> None:
    """A value sealed under the right key with another header (format byte and key ID)
    does not open: the header is the cipher's associated data."""
    key_id, cipher = vault._keys(tuple(keys)).sealing
    nonce = bytes(12)
    forged = base64.urlsafe_b64encode(
        b"\x01" + key_id + nonce + cipher.encrypt(nonce, b"a secret value", b"\x01" + bytes(4)))
    with pytest.raises(vault.InvalidToken):
        vault.decrypt(forged)
    honest = base64.urlsafe_b64encode(
        b"\x01" + key_id + nonce + cipher.encrypt(nonce, b"a secret value", b"\x01" + key_id))
    assert vault.decrypt(honest) == b"a secret value"

