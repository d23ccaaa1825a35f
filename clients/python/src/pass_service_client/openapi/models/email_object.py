from typing import Literal

EmailObject = Literal["email"]

EMAIL_OBJECT_VALUES: set[EmailObject] = {
    "email",
}


def check_email_object(value: str) -> EmailObject:
    if value in EMAIL_OBJECT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {EMAIL_OBJECT_VALUES!r}"
    )
