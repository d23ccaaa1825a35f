"""Google Wallet objects of passes: written by a job after a pass is issued (outbox-style).

Issuing records a `pending` GoogleObject row in the pass's own transaction and a job
(`sync_google_pass`) after the commit; the job writes the class (once per template
revision and issuer) and the object. A failure never fails the API call: it shows in
`artifacts.google` as a reason, and transient ones are retried (`next_attempt_at`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from webapp import clock, ids, settings
from webapp.db.transaction import transaction
from webapp.domain import balances, enrollment, translations
from webapp.extensions import db
from webapp.models import BalanceTransaction, GoogleClass, GoogleObject, Pass, Template
from webapp.services.credentials import identities
from webapp.services.enrollment import links
from webapp.services.passes import views
from webapp.services.templates import revisions
from webapp.wallets.google import client as google_client
from webapp.wallets.google import languages, objects, store_objects

# Seconds before the next try after the n-th transient failure; the last one repeats.
RETRY_DELAYS = (10, 60, 300, 1800, 3600)
GIVE_UP_AFTER = timedelta(hours=24)
CALLBACK_PATH = "/wallet/google/callbacks"
# Seconds per Google call while a holder waits on the save link (`wallet_client`).
PERSON_WAITING_TIMEOUT = 4.0


@dataclass(frozen=True)
class Written:
    """A pass's Google resources as our side knows them."""

    row: GoogleObject
    identity: identities.GoogleIdentity | None
    template_type: str
    definition: dict[str, Any]
    just_written: bool  # the object was (re)written now: nobody can have saved it yet


def pending_row(item: Pass) -> GoogleObject:
    """The row a new Google pass starts with (added in the issuing transaction)."""
    return GoogleObject(pass_id=item.id, organization_id=item.organization_id,
                        environment=item.environment, state="pending", attempts=0,
                        created_at=item.created_at, updated_at=item.created_at)


def new_row(item: Pass) -> tuple[GoogleObject, bool]:
    """The row a new Google pass starts with, and whether a job must write its object.

    A pass whose issuer Google cannot know (the generated demo one) starts `failed` with
    `credentials_missing` and no job: the job would only find that out. A save-link click
    still tries again, so configuring a demo issuer later recovers such passes.
    """
    row = pending_row(item)
    identity = identities.google_identity(item.organization_id, item.google_issuer_id)
    if identity is not None and usable(identity):
        return row, True
    row.state, row.reason, row.attempts = "failed", "credentials_missing", 1
    row.error = _missing(identity)
    return row, False


def _missing(identity: identities.GoogleIdentity | None) -> str:
    if identity is None:
        return "The pass's Google issuer is gone."
    return ("Test passes need the operator's Google demo issuer "
            "(DEMO_GOOGLE_SERVICE_ACCOUNT); the generated one is not known to Google.")


def sync(pass_id: str) -> GoogleObject | None:
    """The job: write the pass's class and object unless they are written already."""
    item = db.session.get(Pass, pass_id) if ids.has_prefix(pass_id, "pass") else None
    if item is None or not item.google:
        return None
    return ensure_written(item).row


def ensure_written(item: Pass, *, person_waiting: bool = False) -> Written:
    """The pass's object, written now if it is not yet (one attempt; without retries and
    with a short timeout when `person_waiting`: a holder's tap, see `wallet_client`)."""
    row = db.session.get(GoogleObject, item.id)
    if row is None:  # a pass issued before this module, or a lost row: start one
        with transaction() as session:
            row = session.merge(pending_row(item))
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    template_type = definition.get("type", "generic")
    identity = identities.google_identity(item.organization_id, item.google_issuer_id)
    if row.state == "written":
        return Written(row, identity, template_type, definition, False)
    if identity is None or not usable(identity):
        _finish(row, "failed", "credentials_missing", _missing(identity))
        return Written(row, None, template_type, definition, False)
    try:
        write(item, row, identity, definition, person_waiting=person_waiting)
    except google_client.GoogleWalletError as exc:
        failed(row, exc)
        return Written(row, identity, template_type, definition, False)
    return Written(row, identity, template_type, definition, True)


def usable(identity: identities.GoogleIdentity) -> bool:
    """Whether Google can know this identity: an organization's issuer, or a configured demo
    one (a generated demo service account only works against a private token endpoint)."""
    return identity.id != identities.DEMO or not identities.demo_limits().google


def write(item: Pass, row: GoogleObject, identity: identities.GoogleIdentity,
          definition: dict[str, Any], *, person_waiting: bool = False) -> dict[str, Any]:
    """Write (insert, or patch if it exists) the class and the object; mark the row written.

    :raises GoogleWalletError: Google refused or did not answer.
    """
    template_type = definition.get("type", "generic")
    class_kind, object_kind = objects.kinds(template_type)
    cls_id = objects.class_id(identity.issuer_id, item.template_id, item.template_revision)
    obj_id = objects.object_id(identity.issuer_id, item.id)
    wallet = wallet_client(identity, person_waiting=person_waiting)
    if db.session.get(GoogleClass, cls_id) is None:
        signup = signup_url(item, definition)
        wallet.upsert(class_kind, in_languages(definition, lambda local: objects.build_class(
            template_type, local, cls_id, asset_url=asset_url, callback_url=callback_url(),
            signup_url=signup)))
        _class_written(item, cls_id, identity.issuer_id, class_kind)
    resource = wallet.upsert(object_kind, object_body(item, definition, cls_id, obj_id))
    with transaction():
        row.issuer_id, row.object_id, row.class_id, row.kind = (
            identity.issuer_id, obj_id, cls_id, object_kind)
        row.state, row.reason, row.error, row.next_attempt_at = "written", None, None, None
        row.updated_at = clock.now()
    return resource


def object_body(item: Pass, definition: dict[str, Any], cls_id: str, obj_id: str
                ) -> dict[str, Any]:
    """The object JSON of a pass as it is now."""
    template_name = db.session.scalar(select(Template.name).where(
        Template.id == item.template_id))
    barcode = views.preview(item, definition).get("barcode") or {}
    data = objects.PassData(
        id=item.id, status=item.status, field_values=dict(item.field_values or {}),
        title=template_name or str(definition.get("description") or "Pass"),
        holder_name=item.holder_name, barcode_message=barcode.get("value"),
        extra={"barcode_alt_text": barcode.get("altText")},
        checked_in_at=item.last_redeemed_at, expires_at=item.expires_at,
        images=dict(item.images or {}), balance=_balance(item, definition),
        card_number=item.barcode_value or item.short_id)
    return in_languages(definition, lambda local: objects.build_object(
        definition.get("type", "generic"), local, data, cls_id, obj_id, asset_url=asset_url))


def _balance(item: Pass, definition: dict[str, Any]) -> store_objects.Balance | None:
    """A loyalty or gift card's balance as Google shows it."""
    if item.balance is None:
        return None
    code = balances.currency(definition)
    tier = balances.tier_for(definition, item.lifetime_points)
    return store_objects.Balance(
        amount=item.balance, label=balances.points_label(definition), currency=code,
        digits=balances.CURRENCIES.get(code or "", 2), tier=tier.name if tier else None,
        account_id=item.external_id or item.short_id,
        updated_at=db.session.scalar(select(func.max(BalanceTransaction.created_at)).where(
            BalanceTransaction.pass_id == item.id)) or item.created_at)


def in_languages(definition: dict[str, Any],
                 build: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """The body `build` makes of the definition, with the texts of each of the template's
    languages as `translatedValues` (`wallets.google.languages`)."""
    bodies = {language: build(translations.localize(definition, language))
              for language in translations.languages(definition)}
    return languages.merge(build(definition), bodies, translations.default_language(definition))


def failed(row: GoogleObject, exc: google_client.GoogleWalletError) -> None:
    """Record why writing failed: retried later if Google may answer then, else final."""
    reason = reason_for(exc)
    if exc.transient and clock.now() - row.created_at < GIVE_UP_AFTER:
        delay = RETRY_DELAYS[min(row.attempts, len(RETRY_DELAYS) - 1)]
        with transaction():
            row.state, row.reason, row.error = "pending", reason, exc.message[:500]
            row.attempts += 1
            row.next_attempt_at = clock.now() + timedelta(seconds=delay)
            row.updated_at = clock.now()
        return
    _finish(row, "failed", reason, exc.message)


def reason_for(exc: google_client.GoogleWalletError) -> str:
    """The `artifacts.google.reason` (and delivery error code) for a Google error."""
    if exc.status == 403:
        return "issuer_not_authorized"
    if exc.status == 401:
        return "credentials_invalid"
    if exc.transient:
        return "wallet_unavailable"
    return "wallet_rejected"


def _finish(row: GoogleObject, state: str, reason: str | None, error: str | None) -> None:
    with transaction():
        row.state, row.reason, row.error = state, reason, (error or "")[:500] or None
        row.attempts += 1
        row.next_attempt_at = None
        row.updated_at = clock.now()


def _class_written(item: Pass, cls_id: str, issuer_id: str, kind: str) -> None:
    try:
        with transaction() as session:
            session.add(GoogleClass(id=cls_id, organization_id=item.organization_id,
                                    template_id=item.template_id,
                                    revision=item.template_revision, issuer_id=issuer_id,
                                    kind=kind, written_at=clock.now()))
    except IntegrityError:  # another job wrote it at the same time
        pass


def due(limit: int = 100) -> list[str]:
    """Pass IDs whose object write should be tried again now (for the periodic sweep)."""
    return list(db.session.scalars(
        select(GoogleObject.pass_id).where(GoogleObject.state == "pending",
                                           GoogleObject.next_attempt_at <= clock.now())
        .order_by(GoogleObject.next_attempt_at).limit(limit)))


def row_of(pass_id: str) -> GoogleObject | None:
    """The Google object row of a pass, if any."""
    return db.session.get(GoogleObject, pass_id)


def wallet_client(identity: identities.GoogleIdentity, *, person_waiting: bool = False
                  ) -> google_client.WalletClient:
    """The REST client of an issuer (cached with its token).

    Jobs use the configured timeout and retries. A person waiting on a request gets one try
    of at most `PERSON_WAITING_TIMEOUT` seconds per call: the at most four calls of a first
    write then stay well inside the server's 30 s timeout, and a failure is retried by the
    sweep while the page asks the holder to try again.
    """
    timeout = float(settings.get("GOOGLE_WALLET_TIMEOUT", 15))
    retries = int(settings.get("GOOGLE_WALLET_RETRIES", 3))
    if person_waiting:
        timeout, retries = min(timeout, PERSON_WAITING_TIMEOUT), 0
    return google_client.client_for(identity.service_account, google_client.Settings(
        api_url=settings.get("GOOGLE_WALLET_API_URL"),
        token_uri=settings.get("GOOGLE_TOKEN_URI"), timeout=timeout, retries=retries,
        backoff=int(settings.get("GOOGLE_WALLET_BACKOFF_MS", 500)) / 1000))


def asset_url(asset_id: str) -> str:
    """The public URL Google fetches an image from."""
    return f"{settings.get('BASE_URL')}/assets/{asset_id}"


def signup_url(item: Pass, definition: dict[str, Any]) -> str | None:
    """The template's open sign-up page in the pass's environment (Google fetches HTTPS
    only), for a loyalty class's `discoverableProgram`."""
    if not enrollment.enabled(definition) or not settings.get("BASE_URL").startswith("https://"):
        return None
    slug = links.current(item.template_id, item.environment)
    return links.url(slug) if slug else None


def callback_url() -> str | None:
    """Where Google posts save/delete callbacks (Google calls HTTPS URLs only)."""
    base = settings.get("BASE_URL")
    return f"{base}{CALLBACK_PATH}" if base.startswith("https://") else None
