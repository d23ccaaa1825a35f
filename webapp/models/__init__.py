"""The tables. No commits and no serialization here: services own both."""

from webapp.models.apple import AppleCounter, ApplePassState, AppleRegistration
from webapp.models.asset import Asset
from webapp.models.balance import BalanceTransaction
from webapp.models.bulk_job import BulkJob, BulkJobItem
from webapp.models.credentials import AppleCertificate, DemoIdentity, GoogleIssuer
from webapp.models.enrollment import Enrollment, EnrollmentLink
from webapp.models.google import GoogleCallbackNonce, GoogleClass, GoogleNotification, GoogleObject
from webapp.models.idempotency import IdempotencyRecord
from webapp.models.insights import InsightsDaily, PassActivity
from webapp.models.installation import InstallationValue, Upload
from webapp.models.message import Message
from webapp.models.organization import ApiKey, Invitation, Membership, Organization, User
from webapp.models.pass_ import DownloadLink, Pass, PassTag, PassUpdate
from webapp.models.pass_email import PassEmail
from webapp.models.redemption import Redemption
from webapp.models.template import Template, TemplateRevision
from webapp.models.webhook import Event, WebhookAttempt, WebhookDelivery, WebhookEndpoint

__all__ = [
    "ApiKey",
    "AppleCertificate",
    "AppleCounter",
    "ApplePassState",
    "AppleRegistration",
    "Asset",
    "BalanceTransaction",
    "BulkJob",
    "BulkJobItem",
    "DemoIdentity",
    "DownloadLink",
    "Enrollment",
    "EnrollmentLink",
    "Event",
    "GoogleCallbackNonce",
    "GoogleClass",
    "GoogleIssuer",
    "GoogleNotification",
    "GoogleObject",
    "IdempotencyRecord",
    "InsightsDaily",
    "InstallationValue",
    "Invitation",
    "Membership",
    "Message",
    "Organization",
    "Pass",
    "PassActivity",
    "PassEmail",
    "PassTag",
    "PassUpdate",
    "Redemption",
    "Template",
    "TemplateRevision",
    "Upload",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
]
