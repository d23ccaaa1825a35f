"""Signing identities: organizations' Apple certificates and Google issuers, and the
installation's demo identities for the test environment. Private keys are encrypted."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class AppleCertificate(Model):
    __tablename__ = "apple_certificates"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    pass_type_identifier: Mapped[str] = mapped_column(String(255))
    team_identifier: Mapped[str] = mapped_column(String(32))
    fingerprint: Mapped[str] = mapped_column(String(64))
    certificate_pem: Mapped[str] = mapped_column(Text)
    wwdr_pem: Mapped[str] = mapped_column(Text)
    private_key_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    not_before: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class GoogleIssuer(Model):
    __tablename__ = "google_issuers"
    __table_args__ = (UniqueConstraint("organization_id", "issuer_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    organization_id: Mapped[str] = mapped_column(
        ForeignKey("organizations.id", ondelete="CASCADE"), index=True)
    issuer_id: Mapped[str] = mapped_column(String(40))  # Google's issuer ID (digits)
    name: Mapped[str] = mapped_column(String(100))
    client_email: Mapped[str] = mapped_column(String(255))
    service_account_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class DemoIdentity(Model):
    """The installation's demo Apple chain or Google service account (one row per kind)."""

    __tablename__ = "demo_identities"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # apple | google
    public_data: Mapped[str] = mapped_column(Text)  # JSON: certificates, issuer ID, email
    secret_encrypted: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
