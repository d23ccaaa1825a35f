from typing import Literal

DefinitionType = Literal["coupon", "event_ticket", "generic", "gift_card", "loyalty"]

DEFINITION_TYPE_VALUES: set[DefinitionType] = {
    "coupon",
    "event_ticket",
    "generic",
    "gift_card",
    "loyalty",
}


def check_definition_type(value: str) -> DefinitionType:
    if value in DEFINITION_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DEFINITION_TYPE_VALUES!r}"
    )
