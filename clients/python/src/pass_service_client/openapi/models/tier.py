from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Tier")


@_attrs_define
class Tier:
    """
    Attributes:
        min_lifetime_points (int):
        name (str):
        background_color (str | Unset): over colors.background
        foreground_color (str | Unset): over colors.foreground
        label_color (str | Unset): over colors.label
    """

    min_lifetime_points: int
    name: str
    background_color: str | Unset = UNSET
    foreground_color: str | Unset = UNSET
    label_color: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        min_lifetime_points = self.min_lifetime_points

        name = self.name

        background_color = self.background_color

        foreground_color = self.foreground_color

        label_color = self.label_color

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "minLifetimePoints": min_lifetime_points,
                "name": name,
            }
        )
        if background_color is not UNSET:
            field_dict["backgroundColor"] = background_color
        if foreground_color is not UNSET:
            field_dict["foregroundColor"] = foreground_color
        if label_color is not UNSET:
            field_dict["labelColor"] = label_color

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        min_lifetime_points = d.pop("minLifetimePoints")

        name = d.pop("name")

        background_color = d.pop("backgroundColor", UNSET)

        foreground_color = d.pop("foregroundColor", UNSET)

        label_color = d.pop("labelColor", UNSET)

        tier = cls(
            min_lifetime_points=min_lifetime_points,
            name=name,
            background_color=background_color,
            foreground_color=foreground_color,
            label_color=label_color,
        )

        return tier
