"""Passes: issue, list, get, update (with its update record), void.

Passes are kept per organization and environment: every query is scoped by both, so a
key never sees another environment's or organization's passes (they are 404).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy import update as sql_update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from webapp import clock, ids, vault
from webapp.db import pagination
from webapp.db.find import find_or_404
from webapp.db.transaction import changed_rows, insert_all, transaction
from webapp.domain import definition as rules
from webapp.domain import per_pass
from webapp.domain import search as search_rules
from webapp.domain import values as value_rules
from webapp.domain.update_notice import NOTIFICATION_MODES
from webapp.errors import Conflict, InvalidRequest, NotFound, ServiceError
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
    expires_at: str | None = None  # RFC 3339 with an offset; None: the template's
    relevant_date: str | None = None
    external_id: str | None = None  # the integrator's own ID: one pass per template


def issue(ctx: Context, req: IssueRequest) -> Pass:
    """Issue a pass from a template for one holder, in the key's environment.

    :raises NotFound: no such template.
    :raises InvalidRequest: archived template, bad revision, platforms, values, barcode,
        dates; `send_email` without a holder email that mail can go to.
    :raises Unprocessable: a live pass with no live credential for an enabled wallet;
        `send_email` where email is not configured.
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
                google_rows = outbox_record.passes_issued(session, items)
                emails = {item.id: email_sending.record(session, item, item.holder_email or "",
                                                        req.email_locale)
                          for req, _, item in made if req.send_email}
            break
        except IntegrityError:  # a short ID collided (1 in 10^17), or an externalId was taken
            if len(reqs) > 1:  # meanwhile: find which, one request at a time
                return [_issue_all(ctx, [req])[0] for req in reqs]
            req = reqs[0]
            if req.external_id is not None and external_pass_id(
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
    for req, token in zip(reqs, tokens, strict=True):
        try:
            template, definition, item = _new_pass(ctx, req, token, templates)
            if req.send_email:
                email_sending.check_issue(req.holder_email, req.email_locale)
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
    definition = _definition(template.id, revision)
    apple, google = _platforms(definition, req.platforms)
    _check_values(definition, req)
    _check_dates({"expiresAt": req.expires_at, "relevantDate": req.relevant_date})
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
    )
    item.search_text = _search_text(item)
    return template, definition, item


def external_pass_id(ctx: Context, template_id: str, external_id: str) -> str | None:
    """The ID of the template's pass with this externalId in the context's environment."""
    return db.session.scalar(select(Pass.id).where(
        Pass.template_id == template_id, Pass.environment == ctx.environment,
        Pass.organization_id == ctx.organization_id, Pass.external_id == external_id))


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
    query = select(Pass).where(*_filters(ctx, template_id, status, source, search))
    page = pagination.paginate(query, Pass.id, select(Pass.id).where(*scope), limit=limit,
                               cursor=cursor)
    names = _template_names({p.template_id for p in page.data})
    for item in page.data:
        item.template_name = names.get(item.template_id)
    return page


def ids_matching(ctx: Context, *, template_id: str, status: str | None = None,
                 search: str | None = None, limit: int) -> list[str]:
    """The IDs of the passes `list_` shows for these filters, oldest first, at most `limit`
    (the dashboard's changes to many passes)."""
    return list(db.session.scalars(
        select(Pass.id).where(*_filters(ctx, template_id, status, None, search))
        .order_by(Pass.id).limit(limit)))


def _filters(ctx: Context, template_id: str | None, status: str | None, source: str | None,
             search: str | None) -> list[Any]:
    found = [Pass.organization_id == ctx.organization_id, Pass.environment == ctx.environment]
    if template_id is not None:
        found.append(Pass.template_id == template_id)
    if status is not None:
        found.append(Pass.status == status)
    if source is not None:
        found.append(Pass.source == source)
    if search:
        term = search_rules.fold("".join(ch for ch in search if ch.isprintable())).strip()
        if term:
            found += _search(term)
    return found


@dataclass(frozen=True)
class Updated:
    pass_: Pass
    update: PassUpdate


@dataclass(frozen=True)
class UpdateRequest:
    pass_id: str
    field_values: dict[str, Any] | None
    dates: dict[str, str | None] | None = None


@dataclass(frozen=True)
class Change:
    """A checked change of a pass, for `save_changes`: the columns to write and the
    changes to record."""

    item: Pass
    values: dict[str, Any]
    changes: list[dict[str, Any]]
    notification_mode: str
    wallet_changed: bool


def update(ctx: Context, pass_id: str, field_values: dict[str, Any] | None,
           notification_mode: str = "silent", dates: dict[str, str | None] | None = None
           ) -> Updated:
    """Change per-pass values (null clears an optional one) and the pass's own dates
    (`dates`: `expiresAt`/`relevantDate` sent; null clears: the template's applies again),
    and record the update.

    The pass is read, then written only if nobody changed it in between (its version).

    :raises NotFound: no such pass.
    :raises InvalidRequest: voided, not a per-pass field, required field cleared,
        nothing changed, bad value or date.
    :raises Conflict: a concurrent update won (`concurrent_update`); retry.
    """
    [done] = update_all(ctx, [UpdateRequest(pass_id, field_values, dates)], notification_mode)
    if isinstance(done, ServiceError):
        raise done
    return shown(done)


def update_all(ctx: Context, reqs: list[UpdateRequest], notification_mode: str
               ) -> list[Updated | ServiceError]:
    """`update` for many passes with one notification mode (a bulk job's chunk): each
    request is checked on its own and gets its update or the error `update` would raise;
    the passes are read with one query and written together. The passes come without the
    members `update` derives for the front doors (`shown`)."""
    found = find_all(ctx, [req.pass_id for req in reqs])
    checked: list[Change | ServiceError] = []
    for req in reqs:
        try:
            item = editable_of(found, req.pass_id, notification_mode)
            checked.append(_update_change(item, req, notification_mode))
        except ServiceError as exc:
            checked.append(exc)
    return save_checked(checked, lambda: [
        update_all(ctx, [req], notification_mode)[0] for req in reqs])


def _update_change(item: Pass, req: UpdateRequest, notification_mode: str) -> Change:
    """:raises InvalidRequest: see `update`."""
    field_values, dates = req.field_values, req.dates or {}
    definition = _definition(item.template_id, item.template_revision)
    after, problem = value_rules.apply_patch(definition, item.field_values, field_values or {})
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    _check_dates(dates)
    changes = value_rules.diff(definition, item.field_values, after)
    date_changes = _date_changes(item, dates)
    if not changes and not date_changes:
        param = "fieldValues" if field_values or not dates else next(iter(dates))
        raise InvalidRequest("Nothing changed: every value sent equals the current one.",
                             code="nothing_changed", param=param)
    wallet_changed = value_rules.wallet_visible(definition, changes) or bool(date_changes)
    values: dict[str, Any] = {"field_values": after}
    values.update({_DATE_COLUMNS[c["key"]]: c["to"] for c in date_changes})
    return Change(item, values, changes + date_changes, notification_mode, wallet_changed)


def editable(ctx: Context, pass_id: str, notification_mode: str) -> Pass:
    """The pass an update is about to change (also for sibling services).

    :raises NotFound: no such pass.
    :raises InvalidRequest: a bad notification mode; the pass is voided.
    """
    _check_mode(notification_mode)
    return _not_voided(find(ctx, pass_id))


def editable_of(found: dict[str, Pass], pass_id: str, notification_mode: str) -> Pass:
    """`editable` for a pass of `found` (`find_all`'s answer; also for sibling services).

    :raises NotFound: not in `found`.
    :raises InvalidRequest: a bad notification mode; the pass is voided.
    """
    _check_mode(notification_mode)
    item = found.get(pass_id)
    if item is None:
        raise NotFound(f"No such pass: {pass_id}", param="id")
    return _not_voided(item)


def _check_mode(notification_mode: str) -> None:
    if notification_mode not in NOTIFICATION_MODES:
        raise InvalidRequest(f"notificationMode must be {' or '.join(NOTIFICATION_MODES)}.",
                             param="notificationMode")


def _not_voided(item: Pass) -> Pass:
    if item.status == "voided":
        raise InvalidRequest("This pass is voided and can no longer be updated.",
                             code="pass_voided")
    return item


def save_change(item: Pass, definition: dict[str, Any], values: dict[str, Any],
                changes: list[dict[str, Any]], notification_mode: str, wallet_changed: bool
                ) -> Updated:
    """Write `values` (columns) to the pass as its next version, if nobody changed it in
    between, and record the update with its `changes` (also for sibling services).

    :raises Conflict: a concurrent update won (`concurrent_update`); retry.
    """
    [done] = save_changes([Change(item, values, changes, notification_mode, wallet_changed)])
    return Updated(views.attach(done.pass_, done.pass_.template_name, definition), done.update)


def save_checked(checked: list[Change | ServiceError],
                 one_at_a_time: Callable[[], list[Updated | ServiceError]]
                 ) -> list[Updated | ServiceError]:
    """Save the checked changes together; each error stays in its place. When a pass
    changed meanwhile (or one pass is changed twice), nothing is saved and
    `one_at_a_time` answers instead (also for sibling services)."""
    changes = [c for c in checked if isinstance(c, Change)]
    try:
        saved = iter(save_changes(changes))
    except Conflict as exc:
        return [exc] if len(checked) == 1 else one_at_a_time()
    return [next(saved) if isinstance(c, Change) else c for c in checked]


def save_changes(changes: list[Change]) -> list[Updated]:
    """Write each change's values to its pass as the next version, if nobody changed the
    pass in between, and record the updates: one statement per table and shape.

    :raises Conflict: a pass changed meanwhile (`concurrent_update`); nothing is saved.
    """
    if not changes:
        return []
    now = clock.now()
    rows = []
    for change in changes:
        values = {**change.values, "version": change.item.version + 1, "updated_at": now}
        if change.wallet_changed:
            values["wallet_updated_at"] = now
        rows.append(values)
    with transaction() as session:
        if _write_versions(session, changes, rows) != len(changes):
            raise Conflict("The pass changed while this update was being saved; retry the "
                           "request.", code="concurrent_update")
        # The rows hold these now: a plain setattr would make the next query's autoflush
        # write the pass a second time.
        for change, values in zip(changes, rows, strict=True):
            for name, value in values.items():
                set_committed_value(change.item, name, value)
        # Read once, for the events and the answer (the ORM would load the template twice).
        names = _template_names({change.item.template_id for change in changes})
        for change in changes:
            change.item.template_name = names.get(change.item.template_id)
        records = outbox_record.passes_updated(session, [
            (c.item, c.changes, c.notification_mode, c.wallet_changed) for c in changes])
    return [Updated(c.item, record) for c, record in zip(changes, records, strict=True)]


def _write_versions(session: Any, changes: list[Change], rows: list[dict[str, Any]]) -> int:
    """UPDATE each pass whose version is still the one read; how many were."""
    table = cast(Table, Pass.__table__)
    shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for change, values in zip(changes, rows, strict=True):
        shapes.setdefault(tuple(values), []).append({
            "w_id": change.item.id, "w_version": change.item.version,
            **{f"b_{name}": value for name, value in values.items()}})
    won = 0
    for names, params in shapes.items():
        statement = sql_update(table).where(
            table.c.id == bindparam("w_id"), table.c.version == bindparam("w_version")
        ).values({name: bindparam(f"b_{name}") for name in names})
        won += session.connection().execute(statement, params).rowcount
    return won


def shown(done: Updated) -> Updated:
    """The update with the members the front doors show derived on its pass."""
    item = done.pass_
    return Updated(views.attach(item, item.template_name,
                                _definition(item.template_id, item.template_revision)),
                   done.update)


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


def find_all(ctx: Context, pass_ids: list[str]) -> dict[str, Pass]:
    """The passes of these IDs in the context's scope, by ID, read afresh (also for sibling
    services); IDs of no such pass are left out."""
    wanted = {pass_id for pass_id in pass_ids if ids.has_prefix(pass_id, "pass")}
    if not wanted:
        return {}
    rows = db.session.scalars(select(Pass).where(
        Pass.id.in_(wanted), Pass.organization_id == ctx.organization_id,
        Pass.environment == ctx.environment).execution_options(populate_existing=True))
    return {row.id: row for row in rows}


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


_DATE_COLUMNS = {per_pass.date_key(m): column for m, column in
                 (("expiresAt", "expires_at"), ("relevantDate", "relevant_date"))}


def _check_dates(dates: dict[str, str | None]) -> None:
    """:raises InvalidRequest: a date that is not RFC 3339 with an offset (null passes)."""
    for name, value in dates.items():
        if value is not None and (problem := per_pass.date_problem(name, value)):
            raise InvalidRequest(problem, param=name)


def _date_changes(item: Pass, dates: dict[str, str | None]) -> list[dict[str, Any]]:
    """The changes of the pass's own dates that `dates` makes (key `pass.<member>`)."""
    changes = []
    for name in per_pass.DATE_MEMBERS:
        if name not in dates:
            continue
        key = per_pass.date_key(name)
        old = getattr(item, _DATE_COLUMNS[key])
        if dates[name] != old:
            changes.append({"key": key, "label": per_pass.DATE_LABELS[name], "from": old,
                            "to": dates[name]})
    return changes


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
