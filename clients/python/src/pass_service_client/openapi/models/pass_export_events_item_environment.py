from typing import Literal

PassExportEventsItemEnvironment = Literal["live", "test"]

PASS_EXPORT_EVENTS_ITEM_ENVIRONMENT_VALUES: set[PassExportEventsItemEnvironment] = {
    "live",
    "test",
}


def check_pass_export_events_item_environment(
    value: str,
) -> PassExportEventsItemEnvironment:
    if value in PASS_EXPORT_EVENTS_ITEM_ENVIRONMENT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_EXPORT_EVENTS_ITEM_ENVIRONMENT_VALUES!r}"
    )
