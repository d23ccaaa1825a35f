"""Reading a template definition: its fields, per-pass fields, images, barcode and redemption
rule. Lenient: a member of the wrong shape reads as absent (`definition.validate` says why)."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.domain.definition import GROUPS, REDEMPTION_MODES, SLOTS

# The line a checked-in pass shows (Apple: on the back; Google: a text module); no template
# field key has a dot.
CHECKED_IN_KEY, CHECKED_IN_LABEL = "redemption.checkedIn", "Checked in"


def dig(value: object, *keys: str) -> object:
    """The member at `keys` (a path of object members); None where a level is no object."""
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def fields(definition: dict) -> list[tuple[str, dict]]:
    """(group, field) for every field: groups in GROUPS order, then array order."""
    groups = dig(definition, "config", "fields")
    out: list[tuple[str, dict]] = []
    if isinstance(groups, dict):
        for group in GROUPS:
            items = groups.get(group)
            if isinstance(items, list):
                out.extend((group, item) for item in items if isinstance(item, dict))
    return out


def per_pass_fields(definition: dict) -> dict[str, dict]:
    """Key -> field for the perPass fields, in definition order."""
    out: dict[str, dict] = {}
    for _group, item in fields(definition):
        key = item.get("key")
        if item.get("binding") == "perPass" and isinstance(key, str):
            out.setdefault(key, item)
    return out


def required_fields(definition: dict) -> list[str]:
    """Keys of the perPass fields marked required, in definition order."""
    return [key for key, item in per_pass_fields(definition).items()
            if item.get("required") is True]


def image_refs(definition: dict) -> dict[str, str]:
    """Slot -> asset ID for the images the definition names, in definition order."""
    images = dig(definition, "images")
    if not isinstance(images, dict):
        return {}
    return {slot: ref for slot, ref in images.items() if slot in SLOTS and isinstance(ref, str)}


def takes_barcode_value(definition: dict) -> bool:
    """Whether the definition has a barcode whose value each pass supplies."""
    barcode = dig(definition, "barcode")
    return isinstance(barcode, dict) and barcode.get("perPass") is True


@dataclass(frozen=True)
class RedemptionRule:
    """How passes of a definition are checked in: `mode` none | single | multiple,
    `max_uses` (multiple only; None: no limit), `void_on_redemption` (single only)."""

    mode: str = "none"
    max_uses: int | None = None
    void_on_redemption: bool = False

    @property
    def limit(self) -> int | None:
        """How many redemptions a pass may have in all (None: no limit)."""
        return 1 if self.mode == "single" else self.max_uses


def redemption_rule(definition: dict) -> RedemptionRule:
    """The definition's `redemption` member as a rule (absent: mode none, but single on a
    coupon: redeeming a coupon is its check-in)."""
    spec = dig(definition, "redemption")
    if spec is None and dig(definition, "type") == "coupon":
        return RedemptionRule(mode="single")
    if not isinstance(spec, dict) or spec.get("mode") not in REDEMPTION_MODES:
        return RedemptionRule()
    max_uses = spec.get("maxUses")
    counted = isinstance(max_uses, int) and not isinstance(max_uses, bool)
    return RedemptionRule(
        mode=spec["mode"],
        max_uses=max_uses if spec["mode"] == "multiple" and counted else None,
        void_on_redemption=spec["mode"] == "single" and spec.get("voidOnRedemption") is True)
