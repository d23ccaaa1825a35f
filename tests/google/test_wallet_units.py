"""The save JWT and the callback verifier, without the app."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from google.auth import crypt

from tests.support.fake_google import CallbackSigner
from webapp.wallets.google import callbacks, save_link

ISSUER = "3388000000000000001"
CLS, OBJ = f"{ISSUER}.tmpl_1_r1", f"{ISSUER}.pass_01abcdefghjkmnpqrstvwxyz01"


def _parts(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    def dec(part: str) -> dict[str, Any]:
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    head, body, _sig = token.split(".")
    return dec(head), dec(body)


def test_save_jwt_is_a_signed_reference_under_1800_chars(demo_account: dict) -> None:
    token = save_link.token(demo_account, "genericObject", OBJ, CLS,
                            ["https://passes.example.test"], now=1_800_000_000)
    header, claims = _parts(token)
    assert header == {"alg": "RS256", "typ": "JWT", "kid": demo_account["private_key_id"]}
    assert claims == {"iss": demo_account["client_email"], "aud": "google",
                      "typ": "savetowallet", "iat": 1_800_000_000,
                      "origins": ["https://passes.example.test"],
                      "payload": {"genericObjects": [{"id": OBJ, "classId": CLS}]}}
    assert len(token) <= save_link.MAX_LENGTH
    signed, sig = token.rsplit(".", 1)
    verifier = crypt.RSASigner.from_service_account_info(demo_account)
    assert verifier.sign(signed.encode()) == base64.urlsafe_b64decode(sig + "==")


def test_save_jwt_over_the_limit_is_refused(demo_account: dict) -> None:
    with pytest.raises(save_link.SaveLinkTooLong):
        save_link.token(demo_account, "genericObject", OBJ + "x" * 1500, CLS, [])


def test_origin_of_base_url() -> None:
    assert save_link.origin("https://passes.example.test/sub/") == "https://passes.example.test"
    assert save_link.origin("http://127.0.0.1:5000") == "http://127.0.0.1:5000"


@pytest.fixture(scope="module")
def signer() -> CallbackSigner:
    return CallbackSigner()


def _verify(signer: CallbackSigner, envelope: dict, issuer: str = ISSUER, **kw: Any
            ) -> callbacks.Callback:
    body = json.dumps(envelope).encode()
    return callbacks.verify(callbacks.parse(body), issuer, signer.keys(), **kw)


def test_genuine_callback_verifies(signer: CallbackSigner) -> None:
    message = signer.message(CLS, OBJ, "save", nonce="n-1")
    found = _verify(signer, signer.envelope(ISSUER, message))
    assert (found.class_id, found.object_id, found.event_type, found.nonce) == (
        CLS, OBJ, "save", "n-1")
    assert callbacks.claimed_issuer(signer.envelope(ISSUER, message)) == ISSUER


def _code(signer: CallbackSigner, envelope: dict, **kw: Any) -> str:
    with pytest.raises(callbacks.CallbackError) as caught:
        _verify(signer, envelope, **kw)
    return caught.value.code


def test_tampered_message_fails(signer: CallbackSigner) -> None:
    envelope = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"))
    envelope["signedMessage"] = envelope["signedMessage"].replace("save", "del")
    assert _code(signer, envelope) == "bad_signature"


def test_other_recipient_fails(signer: CallbackSigner) -> None:
    envelope = signer.envelope("999", signer.message(CLS, OBJ, "save"))
    assert _code(signer, envelope) == "bad_signature"


def test_intermediate_not_signed_by_a_root_key_fails(signer: CallbackSigner) -> None:
    other_root = ec.generate_private_key(ec.SECP256R1())
    envelope = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"), root=other_root)
    assert _code(signer, envelope) == "bad_signature"


def test_wrong_sender_fails(signer: CallbackSigner) -> None:
    envelope = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"), sender="GoogleWallet")
    assert _code(signer, envelope) == "bad_signature"


def test_expired_intermediate_key_and_message_fail(signer: CallbackSigner) -> None:
    past = int((time.time() - 10) * 1000)
    key_expired = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"), key_expiry_ms=past)
    assert _code(signer, key_expired) == "expired"
    message_expired = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save", expires_ms=past))
    assert _code(signer, message_expired) == "expired"


def test_expired_root_key_is_not_trusted(signer: CallbackSigner) -> None:
    envelope = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"))
    later = int((time.time() + 2 * 86400) * 1000)
    with pytest.raises(callbacks.CallbackError):
        callbacks.verify(envelope, ISSUER, signer.keys(), now_ms=later)


@pytest.mark.parametrize("body", [
    b"", b"not json", b"[]", b'{"protocolVersion": "ECv2SigningOnly"}',
    json.dumps({"signature": "x", "signedMessage": "{}", "protocolVersion": "ECv1",
                "intermediateSigningKey": {"signedKey": "{}", "signatures": ["x"]}}).encode(),
    json.dumps({"signature": 1, "signedMessage": "{}", "protocolVersion": "ECv2SigningOnly",
                "intermediateSigningKey": {"signedKey": "{}", "signatures": [1]}}).encode(),
])
def test_malformed_bodies(body: bytes) -> None:
    with pytest.raises(callbacks.CallbackError) as caught:
        callbacks.parse(body)
    assert caught.value.code == "malformed"


def test_garbage_signatures_and_keys_never_raise_other_errors(signer: CallbackSigner) -> None:
    envelope = signer.envelope(ISSUER, signer.message(CLS, OBJ, "save"))
    envelope["intermediateSigningKey"]["signatures"] = ["!!!", "AAAA"]
    assert _code(signer, envelope) == "bad_signature"
    keys = {"keys": [{"keyValue": "bm90IGEga2V5", "protocolVersion": "ECv2SigningOnly",
                      "keyExpiration": "99999999999999"}]}
    with pytest.raises(callbacks.CallbackError):
        callbacks.verify(signer.envelope(ISSUER, signer.message(CLS, OBJ, "save")), ISSUER, keys)
