"""Pass Type ID certificates: read a .p12 or PEM pair, check it, and make demo chains.

An Apple Pass Type ID certificate carries the pass type identifier in its subject's UID
and the team identifier in its OU, has Apple's pass-type marker extension
(1.2.840.113635.100.6.1.16), and is issued by the Apple WWDR intermediate, which every
signature must embed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID, ObjectIdentifier

PASS_TYPE_MARKER = ObjectIdentifier("1.2.840.113635.100.6.1.16")
WWDR_MARKER = ObjectIdentifier("1.2.840.113635.100.6.2.1")
PASS_SIGNING_EKU = ObjectIdentifier("1.2.840.113635.100.4.14")


class CertificateError(ValueError):
    """The uploaded certificate cannot sign passes; `code` says why."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class PassCertificate:
    """A checked signing identity: leaf, key, WWDR intermediate and what they say."""

    certificate: x509.Certificate
    private_key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey
    wwdr: x509.Certificate
    pass_type_identifier: str
    team_identifier: str
    not_before: dt.datetime
    expires_at: dt.datetime

    @property
    def fingerprint(self) -> str:
        return self.certificate.fingerprint(hashes.SHA256()).hex()

    def certificate_pem(self) -> str:
        return self.certificate.public_bytes(serialization.Encoding.PEM).decode()

    def wwdr_pem(self) -> str:
        return self.wwdr.public_bytes(serialization.Encoding.PEM).decode()

    def private_key_pem(self) -> bytes:
        return self.private_key.private_bytes(serialization.Encoding.PEM,
                                              serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption())


def from_p12(data: bytes, password: str | None, wwdr_pem: bytes | None = None,
             now: dt.datetime | None = None) -> PassCertificate:
    """Read and check a .p12 (with the WWDR intermediate inside or given apart).

    :raises CertificateError: unreadable, wrong password, not a pass certificate, expired.
    """
    try:
        key, cert, extra = pkcs12.load_key_and_certificates(
            data, password.encode() if password else None)
    except ValueError as exc:
        wrong = "password" in str(exc).lower() or "mac" in str(exc).lower()
        raise CertificateError(
            "wrong_password" if wrong else "unreadable_certificate",
            "The .p12 password is wrong." if wrong else "The file is not a readable .p12.",
        ) from None
    if cert is None or key is None:
        raise CertificateError("unreadable_certificate",
                               "The .p12 must hold the certificate and its private key.")
    chain = list(extra or [])
    if wwdr_pem:
        chain.extend(_load_pems(wwdr_pem))
    return _check(cert, key, chain, now)


def from_pem(certificate_pem: bytes, key_pem: bytes, wwdr_pem: bytes | None = None,
             key_password: str | None = None, now: dt.datetime | None = None
             ) -> PassCertificate:
    """Read and check a PEM certificate (the bundle may hold the WWDR too) and its key.

    :raises CertificateError: unreadable, not a pass certificate, key mismatch, expired.
    """
    certs = _load_pems(certificate_pem)
    if not certs:
        raise CertificateError("unreadable_certificate", "No PEM certificate found.")
    try:
        key = serialization.load_pem_private_key(
            key_pem, key_password.encode() if key_password else None)
    except (ValueError, TypeError):
        raise CertificateError("unreadable_key",
                               "The private key is not a readable PEM key.") from None
    chain = certs[1:] + (_load_pems(wwdr_pem) if wwdr_pem else [])
    return _check(certs[0], key, chain, now)


def _load_pems(data: bytes) -> list[x509.Certificate]:
    try:
        return x509.load_pem_x509_certificates(data)
    except ValueError:
        raise CertificateError("unreadable_certificate",
                               "A certificate file is not readable PEM.") from None


def _check(cert: x509.Certificate, key: object, chain: list[x509.Certificate],
           now: dt.datetime | None) -> PassCertificate:
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey):
        raise CertificateError("unsupported_key", "The private key must be RSA or EC.")
    cert_key = cert.public_key()
    if (not isinstance(cert_key, rsa.RSAPublicKey | ec.EllipticCurvePublicKey)
            or key.public_key().public_numbers() != cert_key.public_numbers()):
        raise CertificateError("key_mismatch", "The private key does not match the certificate.")
    pass_type = _attribute(cert.subject, NameOID.USER_ID)
    team = _attribute(cert.subject, NameOID.ORGANIZATIONAL_UNIT_NAME)
    if not _is_pass_certificate(cert, pass_type) or not team:
        raise CertificateError(
            "not_a_pass_certificate",
            "This is not an Apple Pass Type ID certificate (no pass type identifier in it).")
    now = now or dt.datetime.now(dt.UTC)
    if cert.not_valid_after_utc <= now:
        raise CertificateError(
            "certificate_expired",
            f"The certificate expired on {cert.not_valid_after_utc:%Y-%m-%d}.")
    wwdr = next((c for c in chain if _issued(cert, c)), None)
    if wwdr is None:
        raise CertificateError(
            "wwdr_missing",
            "The Apple WWDR intermediate certificate that issued this certificate is missing; "
            "add it (Apple Worldwide Developer Relations, G4).")
    return PassCertificate(cert, key, wwdr, pass_type or "", team, cert.not_valid_before_utc,
                           cert.not_valid_after_utc)


def _attribute(name: x509.Name, oid: ObjectIdentifier) -> str | None:
    values = name.get_attributes_for_oid(oid)
    return str(values[0].value) if values else None


def _is_pass_certificate(cert: x509.Certificate, pass_type: str | None) -> bool:
    if not pass_type or not pass_type.startswith("pass."):
        return False
    try:
        cert.extensions.get_extension_for_oid(PASS_TYPE_MARKER)
    except x509.ExtensionNotFound:
        return False
    return True


def _issued(cert: x509.Certificate, issuer: x509.Certificate) -> bool:
    if cert.issuer != issuer.subject:
        return False
    public_key = issuer.public_key()
    try:
        if isinstance(public_key, rsa.RSAPublicKey):
            public_key.verify(cert.signature, cert.tbs_certificate_bytes, padding.PKCS1v15(),
                              cert.signature_hash_algorithm)  # type: ignore[arg-type]
        elif isinstance(public_key, ec.EllipticCurvePublicKey):
            public_key.verify(cert.signature, cert.tbs_certificate_bytes,
                              ec.ECDSA(cert.signature_hash_algorithm))  # type: ignore[arg-type]
        else:
            return False
    except Exception:  # any verification failure means "not the issuer"
        return False
    return True


@dataclass(frozen=True)
class DemoChain:
    """An Apple-like chain for the test environment: root, WWDR-like intermediate, leaf."""

    root: x509.Certificate
    identity: PassCertificate


def make_demo_chain(pass_type_identifier: str, team_identifier: str,
                    organization: str = "Pass Service Demo", days: int = 3650) -> DemoChain:
    """Generate a root, an intermediate and a Pass Type ID leaf shaped like Apple's."""
    now = dt.datetime.now(dt.UTC)
    root_key, wwdr_key, leaf_key = (rsa.generate_private_key(65537, 2048) for _ in range(3))
    # Named after the organization, so two chains in one trust store never share a name.
    root_name = _name((NameOID.COMMON_NAME, f"{organization} Root CA"))
    wwdr_name = _name((NameOID.COMMON_NAME, f"{organization} Developer Relations CA"),
                      (NameOID.ORGANIZATIONAL_UNIT_NAME, "G4"))
    leaf_name = _name((NameOID.USER_ID, pass_type_identifier),
                      (NameOID.COMMON_NAME, f"Pass Type ID: {pass_type_identifier}"),
                      (NameOID.ORGANIZATIONAL_UNIT_NAME, team_identifier),
                      (NameOID.ORGANIZATION_NAME, organization), (NameOID.COUNTRY_NAME, "US"))
    ca_usage = x509.KeyUsage(False, False, False, False, False, True, True, False, False)
    root = _certificate(root_name, root_name, root_key.public_key(), root_key, now, days + 365,
                        [(x509.BasicConstraints(True, None), True), (ca_usage, True)])
    wwdr = _certificate(wwdr_name, root_name, wwdr_key.public_key(), root_key, now, days + 180,
                        [(x509.BasicConstraints(True, 0), True), (ca_usage, True),
                         (x509.UnrecognizedExtension(WWDR_MARKER, b"\x05\x00"), False)])
    marker = b"\x0c" + bytes([len(pass_type_identifier)]) + pass_type_identifier.encode()
    leaf = _certificate(leaf_name, wwdr_name, leaf_key.public_key(), wwdr_key, now, days, [
        (x509.BasicConstraints(False, None), True),
        (x509.KeyUsage(True, False, False, False, False, False, False, False, False), True),
        (x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH, PASS_SIGNING_EKU]), False),
        (x509.UnrecognizedExtension(PASS_TYPE_MARKER, marker), False),
    ])
    return DemoChain(root, _check(leaf, leaf_key, [wwdr], now))


def _name(*attributes: tuple[ObjectIdentifier, str]) -> x509.Name:
    return x509.Name([x509.NameAttribute(oid, value) for oid, value in attributes])


def _certificate(subject: x509.Name, issuer: x509.Name, public_key: object, signer: object,
                 now: dt.datetime, days: int, extensions: list) -> x509.Certificate:
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
               .public_key(public_key).serial_number(x509.random_serial_number())  # type: ignore[arg-type]
               .not_valid_before(now - dt.timedelta(days=1))
               .not_valid_after(now + dt.timedelta(days=days)))
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical=critical)
    return builder.sign(signer, hashes.SHA256())  # type: ignore[arg-type]


def to_p12(identity: PassCertificate, password: str | None, name: str = "pass") -> bytes:
    """A .p12 of the identity with its WWDR (for configuration and tests)."""
    encryption = (serialization.BestAvailableEncryption(password.encode()) if password
                  else serialization.NoEncryption())
    return pkcs12.serialize_key_and_certificates(
        name.encode(), identity.private_key, identity.certificate, [identity.wwdr], encryption)


def load_private_key(pem: bytes) -> rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey:
    """Parse a stored key once (callers keep it): RSA validation is skipped, it was checked
    when the certificate was added."""
    key = serialization.load_pem_private_key(pem, None, unsafe_skip_rsa_key_validation=True)
    assert isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey)
    return key
