from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Issue")


@_attrs_define
class Issue:
    """
    Attributes:
        code (str):
        message (str):
        path (str): JSON Pointer into the definition
    """

    code: str
    message: str
    path: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        path = self.path

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "path": path,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        path = d.pop("path")

        issue = cls(
            code=code,
            message=message,
            path=path,
        )

        return issue
