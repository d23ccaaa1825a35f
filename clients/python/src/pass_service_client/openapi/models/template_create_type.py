from typing import Literal

TemplateCreateType = Literal[
    "coupon", "event_ticket", "generic", "gift_card", "loyalty"
]

TEMPLATE_CREATE_TYPE_VALUES: set[TemplateCreateType] = {
    "coupon",
    "event_ticket",
    "generic",
    "gift_card",
    "loyalty",
}


def check_template_create_type(value: str) -> TemplateCreateType:
    if value in TEMPLATE_CREATE_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {TEMPLATE_CREATE_TYPE_VALUES!r}"
    )
