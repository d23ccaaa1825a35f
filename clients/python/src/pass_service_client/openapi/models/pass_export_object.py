from typing import Literal

PassExportObject = Literal["pass_export"]

PASS_EXPORT_OBJECT_VALUES: set[PassExportObject] = {
    "pass_export",
}


def check_pass_export_object(value: str) -> PassExportObject:
    if value in PASS_EXPORT_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_OBJECT_VALUES!r}"
    )
