"""Changing passes: per-pass values and dates (`update`, one pass or many), voiding, and the
versioned write that sibling services share (`save_change`, `save_changes`: a pass is read,
then written only if nobody changed it in between).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, bindparam
from sqlalchemy import delete as sql_delete
from sqlalchemy import update as sql_update
from sqlalchemy.orm.attributes import set_committed_value

from webapp import clock
from webapp.db.transaction import changed_rows, insert_all, transaction
from webapp.domain import per_pass
from webapp.domain import values as value_rules
from webapp.domain.update_notice import NOTIFICATION_MODES
from webapp.errors import Conflict, InvalidRequest, NotFound, ServiceError
from webapp.models import Pass, PassTag, PassUpdate
from webapp.services.context import Context
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import issuing, queries, views

_DATE_COLUMNS = {per_pass.date_key(m): column for m, column in
                 (("expiresAt", "expires_at"), ("relevantDate", "relevant_date"))}


@dataclass(frozen=True)
class Updated:
    pass_: Pass
    update: PassUpdate


@dataclass(frozen=True)
class UpdateRequest:
    pass_id: str
    field_values: dict[str, Any] | None
    dates: dict[str, str | None] | None = None
    tags: list[str] | None = None  # as sent: the pass's new tags (None: unchanged)


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
           notification_mode: str = "silent", dates: dict[str, str | None] | None = None,
           tags: list[str] | None = None) -> Updated:
    """Change per-pass values (null clears an optional one), the pass's own dates
    (`dates`: `expiresAt`/`relevantDate` sent; null clears: the template's applies again)
    and its tags (`tags`: the new list, replacing the old), and record the update.

    The pass is read, then written only if nobody changed it in between (its version).

    :raises NotFound: no such pass.
    :raises InvalidRequest: voided, not a per-pass field, required field cleared,
        nothing changed, bad value, date or tags.
    :raises Conflict: a concurrent update won (`concurrent_update`); retry.
    """
    [done] = update_all(ctx, [UpdateRequest(pass_id, field_values, dates, tags)],
                        notification_mode)
    if isinstance(done, ServiceError):
        raise done
    return shown(done)


def update_all(ctx: Context, reqs: list[UpdateRequest], notification_mode: str
               ) -> list[Updated | ServiceError]:
    """`update` for many passes with one notification mode (a bulk job's chunk): each
    request is checked on its own and gets its update or the error `update` would raise;
    the passes are read with one query and written together. The passes come without the
    members `update` derives for the front doors (`shown`)."""
    found = queries.find_all(ctx, [req.pass_id for req in reqs])
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
    definition = queries.definition(item.template_id, item.template_revision)
    after, problem = value_rules.apply_patch(definition, item.field_values, field_values or {})
    if problem is not None:
        raise InvalidRequest(problem.message, code=problem.code, param=problem.param)
    issuing.check_dates(dates)
    tags = issuing.checked_tags(req.tags) if req.tags is not None else None
    changes = value_rules.diff(definition, item.field_values, after)
    date_changes = _date_changes(item, dates)
    tag_changes = _tag_changes(item, tags)
    if not changes and not date_changes and not tag_changes:
        param = "fieldValues" if field_values or (not dates and tags is None) else \
            next(iter(dates)) if dates else "tags"
        raise InvalidRequest("Nothing changed: every value sent equals the current one.",
                             code="nothing_changed", param=param)
    # Tags are the operator's: they change no wallet.
    wallet_changed = value_rules.wallet_visible(definition, changes) or bool(date_changes)
    values: dict[str, Any] = {"field_values": after}
    values.update({_DATE_COLUMNS[c["key"]]: c["to"] for c in date_changes})
    if tag_changes:
        values["tags"] = tags
    return Change(item, values, changes + date_changes + tag_changes, notification_mode,
                  wallet_changed)


def _tag_changes(item: Pass, tags: list[str] | None) -> list[dict[str, Any]]:
    """The change of the pass's tags (key `pass.tags`, the lists as comma-separated text),
    if `tags` differs from them."""
    old = list(item.tags or [])
    if tags is None or tags == old:
        return []
    return [{"key": "pass.tags", "label": "Tags", "from": ", ".join(old) or None,
             "to": ", ".join(tags) or None}]


def editable(ctx: Context, pass_id: str, notification_mode: str) -> Pass:
    """The pass an update is about to change (also for sibling services).

    :raises NotFound: no such pass.
    :raises InvalidRequest: a bad notification mode; the pass is voided.
    """
    _check_mode(notification_mode)
    return _not_voided(queries.find(ctx, pass_id))


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


def save_changes(changes: list[Change], kind: str = "update", message_id: str | None = None
                 ) -> list[Updated]:
    """Write each change's values to its pass as the next version, if nobody changed the
    pass in between, and record the updates (of `kind`; a message's: `message_id`): one
    statement per table and shape.

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
        _write_tags(session, [c.item for c, v in zip(changes, rows, strict=True)
                              if "tags" in v])
        # Read once, for the events and the answer (the ORM would load the template twice).
        names = queries.template_names({change.item.template_id for change in changes})
        for change in changes:
            change.item.template_name = names.get(change.item.template_id)
        records = outbox_record.passes_updated(session, [
            (c.item, c.changes, c.notification_mode, c.wallet_changed) for c in changes],
            kind, message_id)
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


def _write_tags(session: Any, items: list[Pass]) -> None:
    """Replace the `pass_tags` rows of these passes by their (new) tags."""
    if not items:
        return
    session.execute(sql_delete(PassTag).where(PassTag.pass_id.in_([i.id for i in items]))
                    .execution_options(synchronize_session=False))
    insert_all(session, issuing.tag_rows(items))


def shown(done: Updated) -> Updated:
    """The update with the members the front doors show derived on its pass."""
    item = done.pass_
    return Updated(views.attach(item, item.template_name,
                                queries.definition(item.template_id, item.template_revision)),
                   done.update)


def void(ctx: Context, pass_id: str) -> Pass:
    """Void a pass for good (wallets mark it voided; the holder is not notified).

    :raises NotFound: no such pass.
    :raises Conflict: already voided (`pass_already_voided`).
    """
    item = queries.find(ctx, pass_id)
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
    return queries.shown_pass(item)


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
