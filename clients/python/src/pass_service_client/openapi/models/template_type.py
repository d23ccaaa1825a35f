from typing import Literal

TemplateType = Literal["coupon", "event_ticket", "generic", "gift_card", "loyalty"]

TEMPLATE_TYPE_VALUES: set[TemplateType] = {
    "coupon",
    "event_ticket",
    "generic",
    "gift_card",
    "loyalty",
}


def check_template_type(value: str) -> TemplateType:
    if value in TEMPLATE_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {TEMPLATE_TYPE_VALUES!r}"
    )
