from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionColors")


@_attrs_define
class DefinitionColors:
    """
    Attributes:
        background (str):
        foreground (str): Apple only: Google picks the text colour for the background
        label (str | Unset): Apple only
    """

    background: str
    foreground: str
    label: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        background = self.background

        foreground = self.foreground

        label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "background": background,
                "foreground": foreground,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        background = d.pop("background")

        foreground = d.pop("foreground")

        label = d.pop("label", UNSET)

        definition_colors = cls(
            background=background,
            foreground=foreground,
            label=label,
        )

        return definition_colors
