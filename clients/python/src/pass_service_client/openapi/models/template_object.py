from typing import Literal

TemplateObject = Literal["template"]

TEMPLATE_OBJECT_VALUES: set[TemplateObject] = {
    "template",
}


def check_template_object(value: str) -> TemplateObject:
    if value in TEMPLATE_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {TEMPLATE_OBJECT_VALUES!r}"
    )
