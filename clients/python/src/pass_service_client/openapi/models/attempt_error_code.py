from typing import Literal

AttemptErrorCode = Literal[
    "address_not_allowed",
    "connection_failed",
    "dns_failed",
    "http_status",
    "invalid_url",
    "redirect",
    "timeout",
]

ATTEMPT_ERROR_CODE_VALUES: set[AttemptErrorCode] = {
    "address_not_allowed",
    "connection_failed",
    "dns_failed",
    "http_status",
    "invalid_url",
    "redirect",
    "timeout",
}


def check_attempt_error_code(value: str) -> AttemptErrorCode:
    if value in ATTEMPT_ERROR_CODE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ATTEMPT_ERROR_CODE_VALUES!r}"
    )
