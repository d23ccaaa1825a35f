"""Moving passes to another revision of their template (a bulk `upgrade`, issue 17).

Passes stay on the revision they were issued with; moving them is the operator's explicit
choice. A move is an update like any other: recorded as a pass update and pushed to the
wallets through the same outbox as `changes.update`.
"""

from __future__ import annotations

from webapp.domain import values as value_rules
from webapp.errors import InvalidRequest, ServiceError
from webapp.models import Pass
from webapp.services.context import Context
from webapp.services.passes import changes, queries
from webapp.services.templates import revisions


def move(ctx: Context, pass_id: str, revision: int, notification_mode: str = "silent"
         ) -> changes.Updated:
    """Put the pass on `revision` of its template and record the update (wallets get it).

    :raises NotFound: no such pass.
    :raises InvalidRequest: voided; already on that revision (`nothing_changed`); no such
        revision (`revision_not_found`); its values break the revision's rules.
    :raises Conflict: a concurrent update won (`concurrent_update`); retry.
    """
    [done] = move_all(ctx, [pass_id], revision, notification_mode)
    if isinstance(done, ServiceError):
        raise done
    return changes.shown(done)


def move_all(ctx: Context, pass_ids: list[str], revision: int, notification_mode: str
             ) -> list[changes.Updated | ServiceError]:
    """`move` for many passes (a bulk job's chunk): each gets its update or the error `move`
    would raise; the passes are read with one query and written together."""
    found = queries.find_all(ctx, pass_ids)
    checked: list[changes.Change | ServiceError] = []
    for pass_id in pass_ids:
        try:
            item = changes.editable_of(found, pass_id, notification_mode)
            checked.append(_change(item, revision, notification_mode))
        except ServiceError as exc:
            checked.append(exc)
    return changes.save_checked(checked, lambda: [
        move_all(ctx, [pass_id], revision, notification_mode)[0] for pass_id in pass_ids])


def _change(item: Pass, revision: int, notification_mode: str) -> changes.Change:
    """:raises InvalidRequest: see `move`."""
    if item.template_revision == revision:
        raise InvalidRequest(f"The pass is on revision {revision} already.",
                             code="nothing_changed", param="toRevision")
    definition = revisions.definition_of(item.template_id, revision)
    if definition is None:
        raise InvalidRequest(f"The template has no revision {revision}.",
                             code="revision_not_found", param="toRevision")
    problem = value_rules.check_new(definition, item.field_values)
    if problem is not None:
        raise InvalidRequest(f"The pass's values do not fit revision {revision}: "
                             f"{problem.message}", code=problem.code, param=problem.param)
    change = {"key": "templateRevision", "label": "Design", "from": item.template_revision,
              "to": revision}
    return changes.Change(item, {"template_revision": revision}, [change],
                          notification_mode, wallet_changed=True)
