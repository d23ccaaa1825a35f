from typing import Literal

FieldFormat = Literal["date", "dateTime", "number", "text"]

FIELD_FORMAT_VALUES: set[FieldFormat] = {
    "date",
    "dateTime",
    "number",
    "text",
}


def check_field_format(value: str) -> FieldFormat:
    if value in FIELD_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {FIELD_FORMAT_VALUES!r}"
    )
