from typing import Literal

DefinitionRedemptionMode = Literal["multiple", "none", "single"]

DEFINITION_REDEMPTION_MODE_VALUES: set[DefinitionRedemptionMode] = {
    "multiple",
    "none",
    "single",
}


def check_definition_redemption_mode(value: str) -> DefinitionRedemptionMode:
    if value in DEFINITION_REDEMPTION_MODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {DEFINITION_REDEMPTION_MODE_VALUES!r}"
    )
