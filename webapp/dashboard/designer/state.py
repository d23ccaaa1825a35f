"""The designer's form state: what its inputs hold, section by section."""

from __future__ import annotations

from typing import TypedDict

GROUP_LABELS = {"header": "Header", "primary": "Primary", "secondary": "Secondary",
                "auxiliary": "Auxiliary", "back": "Back of the pass"}


class ColorInputs(TypedDict):
    background: str
    foreground: str
    label: str
    label_on: bool  # whether labels have a colour of their own


class BarcodeInputs(TypedDict):
    on: bool
    format: str
    mode: str  # "fixed" (a text, placeholders allowed) or "perPass"
    value: str
    altText: str


class RedemptionInputs(TypedDict):
    mode: str  # none | single | multiple
    void: bool  # single: void the pass when it is checked in
    maxUses: str  # multiple: the most check-ins of a pass ("" for no limit)


class FieldRow(TypedDict):
    key: str
    label: str
    binding: str
    value: str
    required: bool
    format: str
    changeMessage: str


class EventInputs(TypedDict):
    name: str
    venue_name: str
    venue_address: str
    startsAt: str  # datetime-local values, all in the form's one offset (`FormState.tz`)
    endsAt: str
    doorsOpenAt: str
    category: str  # "" for none (Apple then says generic)
    venue_latitude: str
    venue_longitude: str
    seatFields: dict[str, str]  # seat part -> field key ("" for none)


class LocationRow(TypedDict):
    latitude: str
    longitude: str
    relevantText: str


class CardInputs(TypedDict):
    """The members of the store types (issue 32): loyalty's programName and pointsLabel, a
    gift card's currency, a coupon's offer."""

    programName: str
    pointsLabel: str
    currency: str
    title: str
    provider: str
    details: str
    finePrint: str


class FormState(TypedDict):
    name: str
    revision: int  # the revision the form started from
    description: str
    organizationName: str
    logoText: str
    colors: ColorInputs
    platforms: dict[str, bool]
    images: dict[str, str]  # slot -> asset ID
    barcode: BarcodeInputs
    groups: dict[str, list[FieldRow]]  # every group in GROUPS order, maybe empty
    event: EventInputs
    expiresAt: str
    tz: str  # "Z" or "+hh:mm": the offset of every date and time on the form
    locations: list[LocationRow]
    redemption: RedemptionInputs
    card: CardInputs
    defaultLanguage: str  # "" when the definition leaves it out (English)
    translations: dict[str, dict[str, str]]  # language -> text -> translation (`languages`)
    newLanguage: str  # typed into "Add language"
    previewLanguage: str  # the language the preview shows ("": the default one)
