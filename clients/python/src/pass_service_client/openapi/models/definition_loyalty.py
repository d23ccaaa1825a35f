from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tier import Tier


T = TypeVar("T", bound="DefinitionLoyalty")


@_attrs_define
class DefinitionLoyalty:
    """required on loyalty templates (which also need images.logo: Google's programLogo), refused on others

    Attributes:
        program_name (str):
        points_label (str | Unset): what the points are called (default Points); Apple: the balance field's label,
            Google: loyaltyPoints.label
        tiers (list[Tier] | Unset): lowest first: the first at minLifetimePoints 0, each next higher; a pass is in the
            highest tier its lifetimePoints reach (spending never demotes)
    """

    program_name: str
    points_label: str | Unset = UNSET
    tiers: list[Tier] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        program_name = self.program_name

        points_label = self.points_label

        tiers: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tiers, Unset):
            tiers = []
            for tiers_item_data in self.tiers:
                tiers_item = tiers_item_data.to_dict()
                tiers.append(tiers_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "programName": program_name,
            }
        )
        if points_label is not UNSET:
            field_dict["pointsLabel"] = points_label
        if tiers is not UNSET:
            field_dict["tiers"] = tiers

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.tier import Tier

        d = dict(src_dict)
        program_name = d.pop("programName")

        points_label = d.pop("pointsLabel", UNSET)

        _tiers = d.pop("tiers", UNSET)
        tiers: list[Tier] | Unset = UNSET
        if _tiers is not UNSET:
            tiers = []
            for tiers_item_data in _tiers:
                tiers_item = Tier.from_dict(tiers_item_data)

                tiers.append(tiers_item)

        definition_loyalty = cls(
            program_name=program_name,
            points_label=points_label,
            tiers=tiers,
        )

        return definition_loyalty
