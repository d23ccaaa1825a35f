"""Passes: issue, list, get, update (with its update record), void.

Passes are kept per organization and environment: every query is scoped by both, so a
key never sees another environment's or organization's passes (they are 404).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy import update as sql_update
from sqlalchemy.exc import IntegrityError

from webapp import clock, ids, vault
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import changed_rows, insert_new, transaction
from webapp.domain import definition as rules
from webapp.domain import search as search_rules
from webapp.domain import values as value_rules
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.extensions import db
from webapp.models import Pass, PassUpdate, Template
from webapp.services.context import Context
from webapp.services.credentials import identities
from webapp.services.email import sending as email_sending
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import views
from webapp.services.templates import revisions

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


@dataclass(frozen=True)
class IssueRequest:
    template_id: str
    field_values: dict[str, Any]
    holder_name: str | None = None
    holder_email: str | None = None
    barcode_value: str | None = None
    platforms: dict[str, bool] | None = None
    revision: int | None = None
    certificate_id: str | None = None
    google_issuer_id: str | None = None
    send_email: bool = False  # also queue an email of the pass to holder_email
    email_locale: str = "en"


def issue(ctx: Context, req: IssueRequest) -> Pass:
    """Issue a pass from a template for one holder, in the key's environment.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode;
        `send_email` without a holder email that mail can go to.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet;
        `send_email` where email is not configured.
    """
    token = _new_auth_token()
    for _attempt in range(5):
        try:
            # The template is read in the write transaction: archiving it cannot slip in
            # between the check and the insert.
            with transaction() as session:
                template, definition, item = _new_pass(ctx, req, token)
                if req.send_email:
                    email_sending.check_issue(req.holder_email, req.email_locale)
                insert_new(session, item)
                item.template_name = template.name
                google_row = outbox_record.pass_issued(session, item)
                email = email_sending.record(session, item, item.holder_email or "",
                                             req.email_locale) if req.send_email else None
            break
        except IntegrityError:  # a short ID collided (1 in 10^17): draw another
            continue
    else:  # pragma: no cover
        raise Conflict("Could not allocate a short ID; retry.", code="short_id_exhausted")
    return views.attach(item, template.name, definition, google_row=google_row,
                        last_email=email)


def _new_pass(ctx: Context, req: IssueRequest, token: str
              ) -> tuple[Any, dict[str, Any], Pass]:
    """The checked template, its definition and the new (unsaved) pass.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet.
    """
    template = _template(ctx, req.template_id)
    if template.archived:
        raise InvalidRequest("Archived templates cannot issue passes.",
                             code="template_archived", param="templateId")
    revision = req.revision if req.revision is not None else template.revision
    definition = _definition(template.id, revision)
    apple, google = _platforms(definition, req.platforms)
    _check_values(definition, req)
    signing = identities.choose(
        ctx.organization_id, ctx.environment, apple=apple, google=google,
        certificate_id=req.certificate_id, issuer_id=req.google_issuer_id,
        template_certificate_id=template.apple_certificate_id,
        template_issuer_id=template.google_issuer_id)
    now = clock.now()
    item = Pass(
        id=ids.new_id("pass"), organization_id=ctx.organization_id,
        environment=ctx.environment, template_id=template.id, template_revision=revision,
        short_id=ids.short_id(), status="active", source=ctx.source,
        holder_name=req.holder_name, holder_email=req.holder_email, apple=apple,
        google=google, barcode_value=req.barcode_value, field_values=dict(req.field_values),
        apple_certificate_id=signing.apple_certificate_id,
        apple_pass_type_identifier=signing.apple_pass_type_identifier,
        google_issuer_id=signing.google_issuer_id, auth_token_encrypted=token,
        version=1,
        created_at=now, updated_at=now, wallet_updated_at=now,
    )
    item.search_text = _search_text(item)
    return template, definition, item


def _new_auth_token() -> str:
    """Apple's `authenticationToken` for a new pass (43 characters), encrypted at rest."""
    return vault.encrypt(ids.token(32).encode()).decode()

def get(ctx: Context, pass_id: str) -> Pass:
    """A pass with its values, artifacts and template name.

    :raises NotFound: no such pass in this organization and environment.
    """
    return _shown(find(ctx, pass_id))


def _shown(item: Pass) -> Pass:
    """The pass with its template name, values and artifacts attached."""
    template = db.session.get(Template, item.template_id)
    return views.attach(item, template.name if template else None,
                        _definition(item.template_id, item.template_revision))


def list_(ctx: Context, *, template_id: str | None = None, status: str | None = None,
          source: str | None = None, search: str | None = None,
          limit: int = pagination.DEFAULT_LIMIT, cursor: str | None = None
          ) -> pagination.Page[Pass]:
    """Passes of the key's environment, newest first, filtered.

    :raises InvalidRequest: bad filter, limit or cursor.
    """
    scope = (Pass.organization_id == ctx.organization_id, Pass.environment == ctx.environment)
    query = select(Pass).where(*scope)
    if template_id is not None:
        query = query.where(Pass.template_id == template_id)
    if status is not None:
        query = query.where(Pass.status == status)
    if source is not None:
        query = query.where(Pass.source == source)
    if search:
        term = search_rules.fold("".join(ch for ch in search if ch.isprintable())).strip()
        if term:
            query = query.where(*_search(term))
    page = pagination.paginate(query, Pass.id, select(Pass.id).where(*scope), limit=limit,
                               cursor=cursor)
    names = _template_names({p.template_id for p in page.data})
    for item in page.data:
        item.template_name = names.get(item.template_id)
    return page


@dataclass(frozen=True)
class Updated:
    pass_: Pass
    update: PassUpdate


def update(ctx: Context, pass_id: str, field_values: dict[str, Any] | None,
           notification_mode: str = "silent") -> Updated:
    """Change per-pass values (null clears an optional one) and record the update.

    The pass is read, then written only if nobody changed it in between (its version).

    :raises NotFound: no such pass.
    :raises InvalidRequest: voided, not a per-pass field, required field cleared,
        nothing changed, bad value.
    :raises Conflict: a concurrent update won (`concurrent_update`); retry.
    """
    if notification_mode not in ("silent", "notify"):
        raise InvalidRequest("notificationMode must be silent or notify.",
                             param="notificationMode")
    item = find(ctx, pass_id)
    if item.status == "voided":
        raise InvalidRequest("This pass is voided and can no longer be updated.",
                             code="pass_voided")
    definition = _definition(item.template_id, item.template_revision)
    after, problem = value_rules.apply_patch(definition, item.field_values, field_values or {})
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    changes = value_rules.diff(definition, item.field_values, after)
    if not changes:
        raise InvalidRequest("Nothing changed: every value sent equals the current one.",
                             code="nothing_changed", param="fieldValues")
    wallet_changed = value_rules.wallet_visible(definition, changes)
    now = clock.now()
    values = {"field_values": after, "version": item.version + 1, "updated_at": now}
    if wallet_changed:
        values["wallet_updated_at"] = now
    with transaction() as session:
        won = changed_rows(
            session,
            sql_update(Pass).where(Pass.id == item.id, Pass.version == item.version)
            .values(**values).execution_options(synchronize_session=False))
        if won != 1:
            raise Conflict("The pass changed while this update was being saved; retry the "
                           "request.", code="concurrent_update")
        for name, value in values.items():
            setattr(item, name, value)
        record = outbox_record.pass_updated(session, item, changes, notification_mode,
                                            wallet_changed)
    template = db.session.get(Template, item.template_id)
    return Updated(views.attach(item, template.name if template else None, definition),
                   record)


def void(ctx: Context, pass_id: str) -> Pass:
    """Void a pass for good (wallets mark it voided; the holder is not notified).

    :raises NotFound: no such pass.
    :raises Conflict: already voided (`pass_already_voided`).
    """
    item = find(ctx, pass_id)
    now = clock.now()
    with transaction() as session:
        won = changed_rows(
            session,
            sql_update(Pass).where(Pass.id == item.id, Pass.status == "active")
            .values(status="voided", voided_at=now, updated_at=now, wallet_updated_at=now,
                    version=Pass.version + 1)
            .execution_options(synchronize_session=False))
        if won != 1:
            raise Conflict("This pass is voided already.", code="pass_already_voided")
        session.refresh(item)
        outbox_record.pass_voided(session, item)
    return _shown(item)


def list_updates(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
                 cursor: str | None = None) -> pagination.Page[PassUpdate]:
    """The update history of a pass, newest first.

    :raises NotFound: no such pass.
    """
    item = find(ctx, pass_id)
    scope = select(PassUpdate.id).where(PassUpdate.pass_id == item.id)
    query = select(PassUpdate).where(PassUpdate.pass_id == item.id)
    return pagination.paginate(query, PassUpdate.id, scope, limit=limit, cursor=cursor)


def get_update(ctx: Context, update_id: str) -> PassUpdate:
    """:raises NotFound: no such pass update in this organization and environment."""
    return find_or_404(PassUpdate, update_id, prefix="pupd", what="pass update",
                       organization_id=ctx.organization_id, environment=ctx.environment)


def find(ctx: Context, pass_id: str) -> Pass:
    """The pass, scoped to the context (also for sibling services).

    :raises NotFound: no such pass.
    """
    return find_or_404(Pass, pass_id, prefix="pass", what="pass",
                       organization_id=ctx.organization_id, environment=ctx.environment)


# FOR SHARE: an archive or a new revision waits for the issue's commit (SQLite's writers
# take turns anyway). Built once: every issue runs it.
_TEMPLATE_FOR_ISSUE = select(
    Template.id, Template.name, Template.archived, Template.revision,
    Template.apple_certificate_id, Template.google_issuer_id).where(
    Template.id == bindparam("id"), Template.organization_id == bindparam("organization_id")
).with_for_update(read=True)


def _template(ctx: Context, template_id: str) -> Any:
    """What issuing needs of the template (a row: id, name, archived, revision, credentials)."""
    template = None
    if ids.has_prefix(template_id, "tmpl"):
        template = db.session.connection().execute(_TEMPLATE_FOR_ISSUE, {
            "id": template_id, "organization_id": ctx.organization_id}).first()
    if template is None:
        raise NotFound(f"No such template: {template_id}", param="templateId")
    return template


def _definition(template_id: str, revision: int) -> dict[str, Any]:
    definition = revisions.definition_of(template_id, revision)
    if definition is None:
        raise InvalidRequest(f"The template has no revision {revision}.",
                             code="revision_not_found", param="revision")
    return definition


def _search(term: str) -> tuple[Any, ...]:
    """Conditions for a substring search of name, email and short ID; `term` is folded
    (`domain/search.fold`) as `search_text` is, so case and accents do not matter.

    On PostgreSQL a LIKE on `search_text` is answered by the trigram index, which reads the
    posting list of every trigram in the pattern. An email's domain (`@example.com`) is in
    most rows, so its trigrams cost a scan of the whole index: for such terms only the
    local part goes to the index, and the full term is checked on the rows found through
    an expression (`search_text || ''`) that the index cannot serve. Not `lower(...)`:
    folded text is not always lower case (casefold makes Cherokee upper case).
    """
    full = f"%{_like_escape(term)}%"
    local, at, _domain = term.partition("@")
    if not at or len(local) < 3:
        return (Pass.search_text.like(full, escape="\\"),)
    return (Pass.search_text.like(f"%{_like_escape(local)}@%", escape="\\"),
            (Pass.search_text + "").like(full, escape="\\"))


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _template_names(template_ids: set[str]) -> dict[str, str]:
    if not template_ids:
        return {}
    rows = db.session.execute(select(Template.id, Template.name)
                              .where(Template.id.in_(template_ids)))
    return {row[0]: row[1] for row in rows}


def _platforms(definition: dict[str, Any], requested: dict[str, bool] | None
               ) -> tuple[bool, bool]:
    supported = definition.get("platforms", {})
    chosen = {}
    for wallet in ("apple", "google"):
        wanted = (requested or {}).get(wallet)
        if wanted and not supported.get(wallet):
            raise InvalidRequest(f"The template does not support {wallet.title()} Wallet.",
                                 code="platform_not_supported", param=f"platforms.{wallet}")
        chosen[wallet] = bool(supported.get(wallet)) if wanted is None else wanted
    if not chosen["apple"] and not chosen["google"]:
        raise InvalidRequest("A pass must be issued for at least one wallet.",
                             code="no_platform", param="platforms")
    return chosen["apple"], chosen["google"]


def _check_values(definition: dict[str, Any], req: IssueRequest) -> None:
    problem = value_rules.check_new(definition, req.field_values)
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    if rules.takes_barcode_value(definition):
        if not req.barcode_value:
            raise InvalidRequest("This template takes a barcode value per pass: send "
                                 "barcodeValue.", code="parameter_missing", param="barcodeValue")
    elif req.barcode_value is not None:
        raise InvalidRequest("This template's barcode is not set per pass: leave out "
                             "barcodeValue.", code="barcode_value_not_accepted",
                             param="barcodeValue")
    if req.holder_email is not None and not _EMAIL.match(req.holder_email):
        raise InvalidRequest("holderEmail is not an email address.", param="holderEmail")


def _search_text(item: Pass) -> str:
    return search_rules.search_text(item.holder_name, item.holder_email, item.short_id)
