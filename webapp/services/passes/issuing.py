"""Issuing passes: one (`issue`), many in one block (`issue_all`, a bulk job's chunk), and
every check of a request with nothing written (`check_issue`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from webapp import clock, ids, metrics, vault
from webapp.db.transaction import count_after_commit, insert_all, transaction
from webapp.domain import balances, definition_read, per_pass
from webapp.domain import search as search_rules
from webapp.domain import tags as tag_rules
from webapp.domain import values as value_rules
from webapp.errors import Conflict, InvalidRequest, NotFound, ServiceError
from webapp.extensions import db
from webapp.models import Pass, PassTag, Template
from webapp.services.balances import ledger
from webapp.services.context import Context
from webapp.services.credentials import identities
from webapp.services.email import sending as email_sending
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import queries, views

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
    expires_at: str | None = None  # RFC 3339 with an offset; None: the template's
    relevant_date: str | None = None
    external_id: str | None = None  # the integrator's own ID: one pass per template
    balance: int | None = None  # loyalty points or gift card minor units to open with
    tags: list[str] | None = None  # as sent; `domain/tags` checks and normalises them


def issue(ctx: Context, req: IssueRequest) -> Pass:
    """Issue a pass from a template for one holder, in the key's environment.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode,
        dates; `send_email` without a holder email that mail can go to.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet;
        `send_email` where email is not configured, or in test to no member's address.
    :raises RateLimited: `send_email` over the hour's emails to the address.
    :raises Conflict: the template has a pass with this externalId (`external_id_exists`).
    """
    [issued] = _issue_all(ctx, [req])
    if isinstance(issued, ServiceError):
        raise issued
    return views.attach(issued.pass_, issued.pass_.template_name, issued.definition,
                        google_row=issued.google_row, last_email=issued.email)


def issue_all(ctx: Context, reqs: list[IssueRequest]) -> list[Pass | ServiceError]:
    """`issue` for many requests in one block (a bulk job's chunk): each request is checked
    on its own and gets its pass or the error `issue` would raise; the passes that pass
    their checks are written together, one statement per table. The passes come as
    written, without the members `issue` derives for the front doors."""
    return [outcome.pass_ if isinstance(outcome, _Written) else outcome
            for outcome in _issue_all(ctx, reqs)]


@dataclass(frozen=True)
class _Written:
    pass_: Pass
    definition: dict[str, Any]
    google_row: Any  # GoogleObject | None
    email: Any  # PassEmail | None


def _issue_all(ctx: Context, reqs: list[IssueRequest]) -> list[_Written | ServiceError]:
    tokens = [_new_auth_token() for _ in reqs]
    for _attempt in range(5):
        try:
            # The template is read in the write transaction: archiving it cannot slip in
            # between the check and the insert.
            with transaction() as session:
                outcomes, made = _checked(ctx, reqs, tokens)
                items = [item for _, _, item in made]
                insert_all(session, items)
                insert_all(session, tag_rows(items))
                insert_all(session, [movement for item in items
                                     if (movement := ledger.opening(item, ctx.source))])
                if items:
                    count_after_commit(session, partial(
                        metrics.PASSES_ISSUED.labels(ctx.environment).inc, len(items)))
                google_rows = outbox_record.passes_issued(session, items)
                emails = {item.id: email_sending.record(session, item, item.holder_email or "",
                                                        req.email_locale)
                          for req, _, item in made if req.send_email}
            break
        except IntegrityError:  # a short ID collided (1 in 10^17), or an externalId was taken
            if len(reqs) > 1:  # meanwhile: find which, one request at a time
                return [_issue_all(ctx, [req])[0] for req in reqs]
            req = reqs[0]
            if req.external_id is not None and queries.external_pass_id(
                    ctx, req.template_id, req.external_id) is not None:
                return [Conflict("A pass with this externalId exists already.",
                                 code="external_id_exists", param="externalId")]
            continue
    else:  # pragma: no cover
        raise Conflict("Could not allocate a short ID; retry.", code="short_id_exhausted")
    written = {item.id: _Written(item, definition, google_rows.get(item.id),
                                 emails.get(item.id)) for _, definition, item in made}
    return [written[o.id] if isinstance(o, Pass) else o for o in outcomes]


def _checked(ctx: Context, reqs: list[IssueRequest], tokens: list[str]
             ) -> tuple[list[Pass | ServiceError], list[tuple[IssueRequest, Any, Pass]]]:
    """Each request's new (unsaved) pass or its error; and the requests that passed, with
    their definitions and passes. Each template is read once."""
    templates: dict[str, Any] = {}
    outcomes: list[Pass | ServiceError] = []
    made: list[tuple[IssueRequest, Any, Pass]] = []
    sends: Counter[str] = Counter()  # emails to each address earlier in this batch
    for req, token in zip(reqs, tokens, strict=True):
        try:
            template, definition, item = _new_pass(ctx, req, token, templates)
            if req.send_email:
                address = (req.holder_email or "").lower()
                email_sending.check_issue(ctx, req.holder_email, req.email_locale,
                                          sends[address])
                sends[address] += 1
        except ServiceError as exc:
            outcomes.append(exc)
            continue
        item.template_name = template.name
        made.append((req, definition, item))
        outcomes.append(item)
    return outcomes, made


def check_issue(ctx: Context, req: IssueRequest) -> None:
    """Every check `issue` makes of a request, with nothing written: a dry run (the CSV
    import's preview of a row). `send_email` is not checked.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode, dates.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet.
    """
    _new_pass(ctx, req, "")


def check_issue_all(ctx: Context, reqs: list[IssueRequest]) -> list[ServiceError | None]:
    """`check_issue` for many requests (a CSV import's preview of every row): each one's
    error, or None; each template is read once."""
    templates: dict[str, Any] = {}
    out: list[ServiceError | None] = []
    for req in reqs:
        try:
            _new_pass(ctx, req, "", templates)
        except ServiceError as exc:
            out.append(exc)
        else:
            out.append(None)
    return out


def _new_pass(ctx: Context, req: IssueRequest, token: str,
              templates: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any], Pass]:
    """The checked template (read once per `templates`, the templates read so far), its
    definition and the new (unsaved) pass.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet.
    """
    template = templates.get(req.template_id) if templates is not None else None
    if template is None:
        template = _template(ctx, req.template_id)
        if templates is not None:
            templates[req.template_id] = template
    if template.archived:
        raise InvalidRequest("Archived templates cannot issue passes.",
                             code="template_archived", param="templateId")
    revision = req.revision if req.revision is not None else template.revision
    definition = queries.definition(template.id, revision)
    apple, google = _platforms(definition, req.platforms)
    _check_values(definition, req)
    check_dates({"expiresAt": req.expires_at, "relevantDate": req.relevant_date})
    tags = checked_tags(req.tags) if req.tags is not None else []
    balance = _opening_balance(definition, req.balance)
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
        version=1, redemption_count=0, expires_at=req.expires_at, relevant_date=req.relevant_date,
        created_at=now, updated_at=now, wallet_updated_at=now, external_id=req.external_id,
        balance=balance, lifetime_points=balance if definition.get("type") == "loyalty" else None,
        tags=tags,
    )
    item.search_text = _search_text(item)
    return template, definition, item


def checked_tags(given: Any) -> list[str]:
    """The tags to store for `tags` as sent (also for `changes`).

    :raises InvalidRequest: not a list of strings, too many, an empty, too long or
        malformed tag.
    """
    tags, problem = tag_rules.clean(given)
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    return tags


def tag_rows(items: list[Pass]) -> list[PassTag]:
    """The `pass_tags` rows of these passes' tags (also for `changes`)."""
    return [PassTag(pass_id=item.id, tag=tag, organization_id=item.organization_id,
                    environment=item.environment) for item in items for tag in item.tags or []]


def _opening_balance(definition: dict[str, Any], balance: int | None) -> int | None:
    """The balance a new pass opens with (0 by default; None: its type keeps none).

    :raises InvalidRequest: a balance on a type without one, or out of range.
    """
    kind = balances.balance_kind(definition.get("type"))
    if kind is None:
        if balance is not None:
            raise InvalidRequest(
                f"balance is only taken by loyalty and gift_card templates; this template is "
                f"of type {definition.get('type')}.", code="balance_not_accepted",
                param="balance")
        return None
    if balance is None:
        return 0
    if not 0 <= balance <= balances.MAX_BALANCE:
        raise InvalidRequest(f"balance must be between 0 and {balances.MAX_BALANCE:,}.",
                             param="balance")
    return balance


def _new_auth_token() -> str:
    """Apple's `authenticationToken` for a new pass (43 characters), encrypted at rest."""
    return vault.encrypt(ids.token(32).encode()).decode()


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


def check_dates(dates: dict[str, str | None]) -> None:
    """Check a pass's own dates as sent (also for `changes`).

    :raises InvalidRequest: a date that is not RFC 3339 with an offset (null passes).
    """
    for name, value in dates.items():
        if value is not None and (problem := per_pass.date_problem(name, value)):
            raise InvalidRequest(problem, param=name)


def _check_values(definition: dict[str, Any], req: IssueRequest) -> None:
    problem = value_rules.check_new(definition, req.field_values)
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    if definition_read.takes_barcode_value(definition):
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
