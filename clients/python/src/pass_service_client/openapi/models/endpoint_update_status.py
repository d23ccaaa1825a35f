from typing import Literal

EndpointUpdateStatus = Literal["disabled", "enabled"]

ENDPOINT_UPDATE_STATUS_VALUES: set[EndpointUpdateStatus] = {
    "disabled",
    "enabled",
}


def check_endpoint_update_status(value: str) -> EndpointUpdateStatus:
    if value in ENDPOINT_UPDATE_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ENDPOINT_UPDATE_STATUS_VALUES!r}"
    )
