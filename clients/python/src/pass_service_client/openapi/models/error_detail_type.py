from typing import Literal

ErrorDetailType = Literal[
    "api_error",
    "conflict_error",
    "idempotency_error",
    "invalid_request_error",
    "not_found_error",
    "permission_error",
    "rate_limit_error",
]

ERROR_DETAIL_TYPE_VALUES: set[ErrorDetailType] = {
    "api_error",
    "conflict_error",
    "idempotency_error",
    "invalid_request_error",
    "not_found_error",
    "permission_error",
    "rate_limit_error",
}


def check_error_detail_type(value: str) -> ErrorDetailType:
    if value in ERROR_DETAIL_TYPE_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ERROR_DETAIL_TYPE_VALUES!r}"
    )
