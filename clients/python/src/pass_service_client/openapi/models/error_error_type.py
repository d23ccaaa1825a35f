from typing import Literal

ErrorErrorType = Literal[
    "api_error",
    "conflict_error",
    "idempotency_error",
    "invalid_request_error",
    "not_found_error",
    "permission_error",
    "rate_limit_error",
]

ERROR_ERROR_TYPE_VALUES: set[ErrorErrorType] = {
    "api_error",
    "conflict_error",
    "idempotency_error",
    "invalid_request_error",
    "not_found_error",
    "permission_error",
    "rate_limit_error",
}


def check_error_error_type(value: str) -> ErrorErrorType:
    if value in ERROR_ERROR_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ERROR_ERROR_TYPE_VALUES!r}"
    )
