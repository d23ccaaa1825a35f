from typing import Literal

MePermissionsType0BulkJobs = Literal["none", "read", "write"]

ME_PERMISSIONS_TYPE_0_BULK_JOBS_VALUES: set[MePermissionsType0BulkJobs] = {
    "none",
    "read",
    "write",
}


def check_me_permissions_type_0_bulk_jobs(value: str) -> MePermissionsType0BulkJobs:
    if value in ME_PERMISSIONS_TYPE_0_BULK_JOBS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ME_PERMISSIONS_TYPE_0_BULK_JOBS_VALUES!r}"
    )
