"""Apple-like test certificates, made once per test session (RSA keys are slow to make)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

from webapp.wallets.apple import certificates

PASS_TYPE = "pass.com.acme.members"
TEAM = "ACME123456"


@dataclass(frozen=True)
class Pki:
    chain: certificates.DemoChain
    p12: bytes  # leaf + key + WWDR, password "secret"
    p12_without_wwdr: bytes  # password "secret"
    cert_pem: bytes
    key_pem: bytes
    wwdr_pem: bytes
    root_pem: bytes
    plain_p12: bytes  # a TLS certificate that is not a pass certificate, password "secret"


@cache
def make() -> Pki:
    chain = certificates.make_demo_chain(PASS_TYPE, TEAM, "Acme Inc")
    ident = chain.identity
    enc = serialization.BestAvailableEncryption(b"secret")
    p12 = pkcs12.serialize_key_and_certificates(b"acme", ident.private_key, ident.certificate,
                                                [ident.wwdr], enc)
    bare = pkcs12.serialize_key_and_certificates(b"acme", ident.private_key, ident.certificate,
                                                 None, enc)
    key = rsa.generate_private_key(65537, 2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "www.example.com")])
    now = dt.datetime.now(dt.UTC)
    plain = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
             .public_key(key.public_key()).serial_number(1)
             .not_valid_before(now - dt.timedelta(days=1))
             .not_valid_after(now + dt.timedelta(days=30)).sign(key, hashes.SHA256()))
    plain_p12 = pkcs12.serialize_key_and_certificates(b"tls", key, plain, None, enc)
    return Pki(chain, p12, bare, ident.certificate_pem().encode(), ident.private_key_pem(),
               ident.wwdr_pem().encode(),
               chain.root.public_bytes(serialization.Encoding.PEM), plain_p12)
