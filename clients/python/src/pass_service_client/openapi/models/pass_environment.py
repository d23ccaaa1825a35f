from typing import Literal

PassEnvironment = Literal["live", "test"]

PASS_ENVIRONMENT_VALUES: set[PassEnvironment] = {
    "live",
    "test",
}


def check_pass_environment(value: str) -> PassEnvironment:
    if value in PASS_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_ENVIRONMENT_VALUES!r}"
    )
