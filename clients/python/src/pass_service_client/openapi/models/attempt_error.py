from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.attempt_error_code import AttemptErrorCode, check_attempt_error_code

T = TypeVar("T", bound="AttemptError")


@_attrs_define
class AttemptError:
    """
    Attributes:
        code (AttemptErrorCode):
        message (None | str):
    """

    code: AttemptErrorCode
    message: None | str

    def to_dict(self) -> dict[str, Any]:
        code: str = self.code

        message: None | str
        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = check_attempt_error_code(d.pop("code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        attempt_error = cls(
            code=code,
            message=message,
        )

        return attempt_error
