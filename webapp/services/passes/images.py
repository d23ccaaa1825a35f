"""A pass's own images: set or remove the image of a per-pass slot (a member photo as its
thumbnail, an event ticket's strip), over the template's. Each change is a wallet-visible
update, recorded and pushed like a change of values, silently (no wallet announces a new
picture).
"""

from __future__ import annotations

from typing import Any

from webapp.db.find import find_or_404
from webapp.domain import definition as rules
from webapp.domain import per_pass
from webapp.errors import InvalidRequest, NotFound
from webapp.models import Asset, Pass
from webapp.services.context import Context
from webapp.services.passes import changes
from webapp.services.templates import revisions


def put(ctx: Context, pass_id: str, slot: str, asset_id: str) -> changes.Updated:
    """Show the asset in the pass's `slot` (the asset must be of the organization and
    uploaded for that slot).

    :raises NotFound: no such pass; no such asset in the organization (`assetId`).
    :raises InvalidRequest: voided pass, a slot a pass cannot set, an asset of another
        slot, the slot shows this asset already.
    :raises Conflict: a concurrent update won; retry.
    """
    item, definition = _slot_of(ctx, pass_id, slot)
    asset = find_or_404(Asset, asset_id, prefix="asset", what="asset", param="assetId",
                        organization_id=ctx.organization_id)
    if asset.slot != slot:
        raise InvalidRequest(f"Asset {asset_id} was uploaded for the {asset.slot} slot, not "
                             f"{slot}.", code="asset_slot_mismatch", param="assetId")
    current = dict(item.images or {})
    if current.get(slot) == asset_id:
        raise InvalidRequest(f"The pass's {slot} is this asset already.",
                             code="nothing_changed", param="assetId")
    return _save(item, definition, slot, {**current, slot: asset_id}, current.get(slot))


def delete(ctx: Context, pass_id: str, slot: str) -> changes.Updated:
    """Remove the pass's own image of `slot`: the template's (if any) shows again.

    :raises NotFound: no such pass; the pass has no image of its own in `slot`.
    :raises InvalidRequest: voided pass, a slot a pass cannot set.
    :raises Conflict: a concurrent update won; retry.
    """
    item, definition = _slot_of(ctx, pass_id, slot)
    current = dict(item.images or {})
    if slot not in current:
        raise NotFound(f"This pass has no {slot} image of its own.", param="slot")
    old = current.pop(slot)
    return _save(item, definition, slot, current, old)


def _slot_of(ctx: Context, pass_id: str, slot: str) -> tuple[Pass, dict[str, Any]]:
    """The pass (editable) and its definition, once `slot` is one it can set.

    :raises NotFound: no such pass.
    :raises InvalidRequest: voided pass (`pass_voided`); not an image slot (`unknown_slot`);
        a slot only the template sets (`slot_not_per_pass`).
    """
    item = changes.editable(ctx, pass_id, "silent")
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    template_type = str(definition.get("type") or "generic")
    allowed = per_pass.image_slots(template_type)
    if slot not in allowed:
        choices = " and ".join(allowed)
        if slot not in rules.SLOTS:
            raise InvalidRequest(f"slot must be {choices} for a pass of this template.",
                                 code="unknown_slot", param="slot")
        raise InvalidRequest(f"A pass cannot have its own {slot}: its template's is used. "
                             f"A pass of this template ({template_type}) can set {choices}.",
                             code="slot_not_per_pass", param="slot")
    return item, definition


def _save(item: Pass, definition: dict[str, Any], slot: str, images: dict[str, str],
          old: str | None) -> changes.Updated:
    change = {"key": per_pass.image_key(slot), "label": f"{slot.capitalize()} image",
              "from": old, "to": images.get(slot)}
    return changes.save_change(item, definition, {"images": images or None}, [change],
                               "silent", True)
