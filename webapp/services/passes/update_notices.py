"""What a pass update does in each wallet, in words, before and after the save: both made by
`domain.update_notice.describe` from the same facts about the pass (read before the save),
so the pass page never promises what the confirmation then contradicts."""

from __future__ import annotations

from typing import Any

from webapp.domain import update_notice
from webapp.domain import values as value_rules
from webapp.domain.update_notice import Notice, WalletFacts
from webapp.models import Pass, PassUpdate
from webapp.services.context import Context
from webapp.services.google import push as google_push
from webapp.services.passes import installations

Facts = tuple[WalletFacts, WalletFacts]
_APPLE_PROBLEMS = {"credentials_missing": "the pass's Apple certificate is no longer "
                   "available.",
                   "certificate_expired": "the pass's Apple certificate has expired."}


def facts(ctx: Context, item: Pass) -> Facts:
    """(Apple, Google) as they are now, for a pass `queries.get` returned.

    :raises NotFound: the pass is not the context's.
    """
    wallets = installations.for_pass(ctx, item)
    apple, google = wallets["apple"], wallets["google"]
    apple_reason = (item.artifacts or {}).get("apple", {}).get("reason")
    apple_facts = WalletFacts(issued=apple["issued"], holders=apple.get("devices") or 0,
                              problem=_APPLE_PROBLEMS.get(apple_reason))
    google_facts = WalletFacts(
        issued=google["issued"], holders=1 if google.get("wallet") == "saved" else 0,
        problem=(google.get("objectError") or "Google Wallet cannot take this pass.")
        if google.get("object") == "failed" else None,
        notifications_left=google_push.budget_left(item.id) if google["issued"] else 0)
    return apple_facts, google_facts


def before(item: Pass, known: Facts, patch: dict[str, Any], mode: str) -> list[Notice]:
    """What saving `patch` (the form's values) in `mode` would do; nothing when the values
    are not acceptable or change nothing (the save says why)."""
    definition = item.definition or {}
    after, problem = value_rules.apply_patch(definition, item.field_values or {}, patch)
    if problem is not None:
        return []
    changes = value_rules.diff(definition, item.field_values or {}, after)
    if not changes:
        return []
    return update_notice.describe(definition, changes, mode, *known)


def after(item: Pass, known: Facts, record: PassUpdate) -> list[Notice]:
    """What the saved update does, from the facts read before it was saved."""
    return update_notice.describe(item.definition or {}, record.changes or [],
                                  record.notification_mode, *known)
