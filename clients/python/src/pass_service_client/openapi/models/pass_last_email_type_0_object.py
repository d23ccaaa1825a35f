from typing import Literal

PassLastEmailType0Object = Literal["email"]

PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES: set[PassLastEmailType0Object] = {
    "email",
}


def check_pass_last_email_type_0_object(value: str) -> PassLastEmailType0Object:
    if value in PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {PASS_LAST_EMAIL_TYPE_0_OBJECT_VALUES!r}"
    )
