"""The tables. No commits and no serialization here: services own both."""

from webapp.models.asset import Asset
from webapp.models.credentials import AppleCertificate, DemoIdentity, GoogleIssuer
from webapp.models.idempotency import IdempotencyRecord
from webapp.models.organization import ApiKey, Membership, Organization, User
from webapp.models.pass_ import DownloadLink, Pass, PassUpdate
from webapp.models.template import Template, TemplateRevision

__all__ = [
    "ApiKey",
    "AppleCertificate",
    "Asset",
    "DemoIdentity",
    "DownloadLink",
    "GoogleIssuer",
    "IdempotencyRecord",
    "Membership",
    "Organization",
    "Pass",
    "PassUpdate",
    "Template",
    "TemplateRevision",
    "User",
]
