"""The tables. No commits and no serialization here: services own both."""

from webapp.models.asset import Asset
from webapp.models.idempotency import IdempotencyRecord
from webapp.models.organization import ApiKey, Membership, Organization, User
from webapp.models.template import Template, TemplateRevision

__all__ = [
    "ApiKey",
    "Asset",
    "IdempotencyRecord",
    "Membership",
    "Organization",
    "Template",
    "TemplateRevision",
    "User",
]
