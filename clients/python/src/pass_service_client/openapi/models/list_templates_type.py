from typing import Literal

ListTemplatesType = Literal["coupon", "event_ticket", "generic", "gift_card", "loyalty"]

LIST_TEMPLATES_TYPE_VALUES: set[ListTemplatesType] = {
    "coupon",
    "event_ticket",
    "generic",
    "gift_card",
    "loyalty",
}


def check_list_templates_type(value: str) -> ListTemplatesType:
    if value in LIST_TEMPLATES_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_TEMPLATES_TYPE_VALUES!r}"
    )
