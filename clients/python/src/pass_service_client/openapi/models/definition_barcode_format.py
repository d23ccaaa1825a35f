from typing import Literal

DefinitionBarcodeFormat = Literal["aztec", "code128", "pdf417", "qr"]

DEFINITION_BARCODE_FORMAT_VALUES: set[DefinitionBarcodeFormat] = {
    "aztec",
    "code128",
    "pdf417",
    "qr",
}


def check_definition_barcode_format(value: str) -> DefinitionBarcodeFormat:
    if value in DEFINITION_BARCODE_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DEFINITION_BARCODE_FORMAT_VALUES!r}"
    )
