"""Signing identities: organizations' Apple certificates and Google issuers (encrypted at
rest), the installation's demo identities for test passes, and choosing one for a pass."""

from __future__ import annotations

import base64
import json
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from webapp import clock, ids, settings, vault
from webapp.db.transaction import transaction
from webapp.errors import Conflict, InvalidRequest, NotFound, Unprocessable
from webapp.extensions import db
from webapp.models import AppleCertificate, DemoIdentity, GoogleIssuer, Organization
from webapp.wallets.apple import certificates as apple_certs
from webapp.wallets.google import client as google_client
from webapp.wallets.google import service_account

DEMO = "demo"
DEMO_PASS_TYPE_IDENTIFIER = "pass.dev.passservice.demo"  # noqa: S105 (not a secret)
DEMO_TEAM_IDENTIFIER = "DEMO000000"


@dataclass(frozen=True)
class AppleIdentity:
    """What signs an Apple pass: certificate, parsed key, WWDR; and for the demo, its root."""

    id: str
    pass_type_identifier: str
    team_identifier: str
    certificate_pem: str
    wwdr_pem: str
    private_key_pem: bytes
    root_pem: str | None = None


@dataclass(frozen=True)
class GoogleIdentity:
    id: str
    issuer_id: str
    service_account: dict[str, Any]


# ---- organizations' credentials ------------------------------------------------------------

def add_apple(organization_id: str, *, p12: bytes | None = None, password: str | None = None,
              certificate_pem: bytes | None = None, key_pem: bytes | None = None,
              wwdr_pem: bytes | None = None, name: str | None = None) -> AppleCertificate:
    """Add a Pass Type ID certificate from a .p12 or a PEM pair (+ WWDR).

    :raises InvalidRequest: unreadable, wrong password, not a pass certificate, expired,
        WWDR missing (the code says which).
    :raises NotFound: no such organization.
    """
    try:
        if p12 is not None:
            cert = apple_certs.from_p12(p12, password, wwdr_pem, now=clock.now())
        elif certificate_pem is not None and key_pem is not None:
            cert = apple_certs.from_pem(certificate_pem, key_pem, wwdr_pem, password,
                                        now=clock.now())
        else:
            raise InvalidRequest("Send a .p12, or a PEM certificate and its key.",
                                 code="parameter_missing", param="certificate")
    except apple_certs.CertificateError as exc:
        raise InvalidRequest(str(exc), code=exc.code, param="certificate") from None
    row = AppleCertificate(
        id=ids.new_id("cert"), organization_id=organization_id,
        name=(name or cert.pass_type_identifier)[:100],
        pass_type_identifier=cert.pass_type_identifier, team_identifier=cert.team_identifier,
        fingerprint=cert.fingerprint, certificate_pem=cert.certificate_pem(),
        wwdr_pem=cert.wwdr_pem(), private_key_encrypted=vault.encrypt(cert.private_key_pem()),
        not_before=cert.not_before, expires_at=cert.expires_at,
    )
    with transaction() as session:
        _organization(organization_id)
        session.add(row)
    return row


def add_google(organization_id: str, issuer_id: str, service_account_json: bytes | str,
               name: str | None = None) -> GoogleIssuer:
    """Add a Google Wallet issuer with its service-account key.

    :raises InvalidRequest: bad issuer ID or service-account JSON.
    :raises Conflict: the issuer is added already.
    :raises NotFound: no such organization.
    """
    try:
        issuer_id = service_account.check_issuer_id(issuer_id)
        info = service_account.parse(service_account_json)
    except service_account.ServiceAccountError as exc:
        raise InvalidRequest(str(exc), code=exc.code, param="serviceAccount") from None
    row = GoogleIssuer(
        id=ids.new_id("gis"), organization_id=organization_id, issuer_id=issuer_id,
        name=(name or issuer_id)[:100], client_email=info["client_email"],
        service_account_encrypted=vault.encrypt(json.dumps(info).encode()),
    )
    try:
        with transaction() as session:
            _organization(organization_id)
            if session.scalar(select(GoogleIssuer.id).where(
                    GoogleIssuer.organization_id == organization_id,
                    GoogleIssuer.issuer_id == issuer_id)):
                raise Conflict(f"Issuer {issuer_id} is added already.", code="issuer_exists")
            session.add(row)
    except IntegrityError:
        raise Conflict(f"Issuer {issuer_id} is added already.", code="issuer_exists") from None
    return row


def list_for(organization_id: str) -> tuple[list[AppleCertificate], list[GoogleIssuer]]:
    """The organization's certificates and issuers, newest first."""
    certs = db.session.scalars(select(AppleCertificate).where(
        AppleCertificate.organization_id == organization_id).order_by(AppleCertificate.id.desc()))
    issuers = db.session.scalars(select(GoogleIssuer).where(
        GoogleIssuer.organization_id == organization_id).order_by(GoogleIssuer.id.desc()))
    return list(certs), list(issuers)


def _organization(organization_id: str) -> Organization:
    org = db.session.get(Organization, organization_id)
    if org is None:
        raise NotFound(f"No organization {organization_id}.")
    return org


def find_certificate(organization_id: str, certificate_id: str) -> AppleCertificate | None:
    """The organization's certificate with this ID, or None."""
    if not ids.has_prefix(certificate_id, "cert"):
        return None
    return db.session.scalar(select(AppleCertificate).where(
        AppleCertificate.id == certificate_id,
        AppleCertificate.organization_id == organization_id))


def find_issuer(organization_id: str, issuer_id: str) -> GoogleIssuer | None:
    """The organization's Google issuer with this (Google) issuer ID, or None."""
    if not isinstance(issuer_id, str):
        return None
    return db.session.scalar(select(GoogleIssuer).where(
        GoogleIssuer.issuer_id == issuer_id, GoogleIssuer.organization_id == organization_id))


@dataclass(frozen=True)
class Signing:
    """What a pass records about the identities it uses."""

    apple_certificate_id: str | None
    apple_pass_type_identifier: str | None
    google_issuer_id: str | None


def choose(organization_id: str, environment: str, *, apple: bool, google: bool,
           certificate_id: str | None, issuer_id: str | None,
           template_certificate_id: str | None, template_issuer_id: str | None) -> Signing:
    """The identities a new pass signs with: demo in test; in live the request's, else the
    template's settings, else the organization's only usable one.

    :raises InvalidRequest: a named certificate or issuer is not the organization's.
    :raises Unprocessable: live pass, enabled wallet, no usable credential
        (`live_credentials_missing`).
    """
    cert = _named(find_certificate, organization_id, certificate_id, "certificateId",
                  "Apple certificate")
    issuer = _named(find_issuer, organization_id, issuer_id, "googleIssuerId", "Google issuer")
    if environment == "test":
        return Signing(DEMO if apple else None, None, DEMO if google else None)
    if apple:
        cert = cert or _default_certificate(organization_id, template_certificate_id)
        if cert is None or cert.expires_at <= clock.now():
            why = "has expired" if cert is not None else "is set up"
            raise Unprocessable(
                f"No live Apple certificate {why} for this organization: add one, or issue "
                "the pass for Google only.", code="live_credentials_missing",
                param="certificateId")
    if google:
        issuer = issuer or _default_issuer(organization_id, template_issuer_id)
        if issuer is None:
            raise Unprocessable(
                "No live Google issuer is set up for this organization: add one, or issue "
                "the pass for Apple only.", code="live_credentials_missing",
                param="googleIssuerId")
    return Signing(cert.id if apple and cert else None,
                   cert.pass_type_identifier if apple and cert else None,
                   issuer.issuer_id if google and issuer else None)


def _named(find: Any, organization_id: str, value: str | None, param: str, what: str) -> Any:
    if value is None:
        return None
    found = find(organization_id, value)
    if found is None:
        raise InvalidRequest(f"No {what} {value} in this organization.",
                             code="parameter_invalid", param=param)
    return found


def _default_certificate(organization_id: str, preferred: str | None) -> AppleCertificate | None:
    if preferred and (cert := find_certificate(organization_id, preferred)):
        return cert
    usable = [c for c in list_for(organization_id)[0] if c.expires_at > clock.now()]
    return usable[0] if len(usable) == 1 else None


def _default_issuer(organization_id: str, preferred: str | None) -> GoogleIssuer | None:
    if preferred and (issuer := find_issuer(organization_id, preferred)):
        return issuer
    issuers = list_for(organization_id)[1]
    return issuers[0] if len(issuers) == 1 else None


# ---- identities for signing --------------------------------------------------------------------

_cache: dict[tuple[Any, ...], Any] = {}
_cache_lock = threading.Lock()


def apple_identity(organization_id: str, certificate_id: str | None) -> AppleIdentity | None:
    """The identity that signs a pass: the demo one, or the organization's certificate."""
    if certificate_id == DEMO:
        return demo_apple()
    cert = find_certificate(organization_id, certificate_id or "")
    if cert is None:
        return None
    key = ("apple", cert.id, cert.fingerprint)
    with _cache_lock:
        if key not in _cache:
            _cache[key] = AppleIdentity(
                cert.id, cert.pass_type_identifier, cert.team_identifier, cert.certificate_pem,
                cert.wwdr_pem, vault.decrypt(cert.private_key_encrypted))
        return _cache[key]


def google_identity(organization_id: str, issuer_id: str | None) -> GoogleIdentity | None:
    """The issuer a pass uses: the demo one, or the organization's."""
    if issuer_id == DEMO:
        return demo_google()
    issuer = find_issuer(organization_id, issuer_id or "")
    if issuer is None:
        return None
    key = ("google", issuer.id)
    with _cache_lock:
        if key not in _cache:
            info = json.loads(vault.decrypt(issuer.service_account_encrypted))
            _cache[key] = GoogleIdentity(issuer.id, issuer.issuer_id, info)
        return _cache[key]


@dataclass(frozen=True)
class DemoLimits:
    """Which demo identities were generated by this server, so that the wallets refuse
    what they sign (Apple Wallet trusts Apple's certificates only; Google knows its own
    issuers only)."""

    apple: bool
    google: bool


def demo_limits() -> DemoLimits:
    """Whether the demo Apple certificate and the demo Google issuer are generated."""
    return DemoLimits(
        apple=not settings.get("DEMO_APPLE_P12"),
        google=not settings.get("DEMO_GOOGLE_SERVICE_ACCOUNT")
        and settings.get("GOOGLE_TOKEN_URI") == google_client.GOOGLE_TOKEN_URI)


def demo_apple() -> AppleIdentity:
    """The installation's demo Apple identity: configured (DEMO_APPLE_P12), else generated
    on first use and kept in the database."""
    configured = settings.get("DEMO_APPLE_P12")
    if configured:
        key = ("demo-apple", configured)
        with _cache_lock:
            if key not in _cache:
                cert = apple_certs.from_p12(_read_config_bytes(configured),
                                            settings.get("DEMO_APPLE_P12_PASSWORD"))
                _cache[key] = AppleIdentity(DEMO, cert.pass_type_identifier,
                                            cert.team_identifier, cert.certificate_pem(),
                                            cert.wwdr_pem(), cert.private_key_pem())
            return _cache[key]
    public, secret = _demo_row("apple", _generate_demo_apple)
    return AppleIdentity(DEMO, public["passTypeIdentifier"], public["teamIdentifier"],
                         public["certificate"], public["wwdr"], secret, public["root"])


def demo_google() -> GoogleIdentity:
    """The installation's demo Google issuer: configured, else generated and kept."""
    configured = settings.get("DEMO_GOOGLE_SERVICE_ACCOUNT")
    key = ("demo-google", configured or "", settings.get("DEMO_GOOGLE_ISSUER_ID") or "",
           db.engine.url)  # (see _demo_row)
    with _cache_lock:
        identity = _cache.get(key)
    if identity is not None:  # every test pass with Google asks: parse it once
        return identity
    if configured:
        info = service_account.parse(_read_config_bytes(configured))
        identity = GoogleIdentity(DEMO, settings.get("DEMO_GOOGLE_ISSUER_ID") or "0", info)
    else:
        public, secret = _demo_row("google", _generate_demo_google)
        identity = GoogleIdentity(DEMO, public["issuerId"], json.loads(secret))
    with _cache_lock:
        _cache[key] = identity
    return identity


def ensure_demo_identities() -> None:
    """Create the demo identities now (first start) rather than at the first test pass."""
    demo_apple()
    demo_google()


def _read_config_bytes(value: str) -> bytes:
    path = Path(value)
    try:
        if path.exists():
            return path.read_bytes()
    except OSError:  # a value too long to be a file name (base64 of a .p12): not a path
        pass
    stripped = value.strip()
    if stripped.startswith("{"):
        return stripped.encode()
    return base64.b64decode(stripped)


def _demo_row(kind: str, generate: Any) -> tuple[dict[str, Any], bytes]:
    key = ("demo", kind, db.engine.url)  # the URL itself: rendered as text on every pass cost
    # more than the rest of the lookup
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    row = db.session.get(DemoIdentity, kind)
    if row is None:
        public, secret = generate()
        try:
            with transaction() as session:
                session.add(DemoIdentity(kind=kind, public_data=json.dumps(public),
                                         secret_encrypted=vault.encrypt(secret)))
        except IntegrityError:  # another process generated it first: use theirs
            pass
        row = db.session.get(DemoIdentity, kind)
        if row is None:  # the insert failed on something other than a row already there
            raise RuntimeError(f"the demo {kind} identity could not be stored")
    value = (json.loads(row.public_data), vault.decrypt(row.secret_encrypted))
    with _cache_lock:
        _cache[key] = value
    return value


def _generate_demo_apple() -> tuple[dict[str, Any], bytes]:
    chain = apple_certs.make_demo_chain(DEMO_PASS_TYPE_IDENTIFIER, DEMO_TEAM_IDENTIFIER)
    pem = lambda c: c.public_bytes(apple_certs.serialization.Encoding.PEM).decode()  # noqa: E731
    public = {"passTypeIdentifier": DEMO_PASS_TYPE_IDENTIFIER,
              "teamIdentifier": DEMO_TEAM_IDENTIFIER,
              "certificate": chain.identity.certificate_pem(), "wwdr": chain.identity.wwdr_pem(),
              "root": pem(chain.root)}
    return public, chain.identity.private_key_pem()


def _generate_demo_google() -> tuple[dict[str, Any], bytes]:
    info = service_account.make_demo(settings.get("GOOGLE_TOKEN_URI"))
    issuer = settings.get("DEMO_GOOGLE_ISSUER_ID") or "3388" + "".join(
        secrets.choice("0123456789") for _ in range(15))
    return {"issuerId": issuer, "clientEmail": info["client_email"]}, json.dumps(info).encode()
