"""The CMS signature on its own: verified by OpenSSL, its structure, RSA and EC keys."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import tempfile
import warnings

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID

from tests.apple.conftest import demo_chain, demo_root_pem
from webapp.wallets.apple import signing

MANIFEST = b'{\n  "pass.json": "0a1b",\r\n  "icon.png": "2c3d"\n}'  # line ends must survive


def openssl(signature: bytes, content: bytes, root: bytes) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, n) for n in ("s", "m", "r")]
        for path, data in zip(paths, (signature, content, root), strict=True):
            with open(path, "wb") as fh:
                fh.write(data)
        verify = subprocess.run(
            ["openssl", "cms", "-verify", "-inform", "DER", "-in", paths[0], "-content",
             paths[1], "-binary", "-purpose", "any", "-CAfile", paths[2], "-out", os.devnull],
            capture_output=True, text=True)
        dump = subprocess.run(["openssl", "cms", "-cmsout", "-print", "-inform", "DER", "-in",
                               paths[0], "-noout"], capture_output=True, text=True).stdout
    return verify.returncode, dump


def test_rsa_signature_is_detached_sha256_with_signing_time_and_both_certificates() -> None:
    identity = demo_chain().identity
    signer = signing.signer(identity.certificate_pem(), identity.wwdr_pem(),
                            identity.private_key_pem())
    moment = dt.datetime(2026, 11, 23, 10, 15, 30, tzinfo=dt.UTC)
    signature = signer.sign(MANIFEST, now=moment)
    code, dump = openssl(signature, MANIFEST, demo_root_pem())
    assert code == 0
    assert "eContent: <ABSENT>" in dump and "signingTime" in dump
    assert "Nov 23 10:15:30 2026 GMT" in dump
    assert "sha256" in dump and "rsaEncryption" in dump
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # DER as it should be: no BER fallback warning
        embedded = pkcs7.load_der_pkcs7_certificates(signature)
    assert {c.subject for c in embedded} == {identity.certificate.subject,
                                              identity.wwdr.subject}
    assert openssl(signature, MANIFEST + b" ", demo_root_pem())[0] != 0  # one byte more


def test_the_signer_is_kept_per_identity() -> None:
    identity = demo_chain().identity
    args = (identity.certificate_pem(), identity.wwdr_pem(), identity.private_key_pem())
    assert signing.signer(*args) is signing.signer(*args)


def test_ec_keys_sign_too() -> None:
    now = dt.datetime.now(dt.UTC)
    root_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(
        ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "EC Root")])
    root = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(root_key.public_key()).serial_number(1)
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=9))
            .add_extension(x509.BasicConstraints(True, None), critical=True)
            .sign(root_key, hashes.SHA256()))
    leaf = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.USER_ID, "pass.ec")]))
            .issuer_name(name).public_key(leaf_key.public_key()).serial_number(2**70)
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=9)).sign(root_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    key_pem = leaf_key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption())
    signature = signing.signer(leaf.public_bytes(pem), root.public_bytes(pem),
                               key_pem).sign(MANIFEST)
    code, dump = openssl(signature, MANIFEST, root.public_bytes(pem))
    assert code == 0 and "ecdsa-with-SHA256" in dump
