from typing import Literal

MeEnvironment = Literal["live", "test"]

ME_ENVIRONMENT_VALUES: set[MeEnvironment] = {
    "live",
    "test",
}


def check_me_environment(value: str) -> MeEnvironment:
    if value in ME_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_ENVIRONMENT_VALUES!r}"
    )
