from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.field import Field


T = TypeVar("T", bound="DefinitionConfigFields")


@_attrs_define
class DefinitionConfigFields:
    """
    Attributes:
        auxiliary (list[Field] | Unset):
        back (list[Field] | Unset):
        header (list[Field] | Unset):
        primary (list[Field] | Unset):
        secondary (list[Field] | Unset):
    """

    auxiliary: list[Field] | Unset = UNSET
    back: list[Field] | Unset = UNSET
    header: list[Field] | Unset = UNSET
    primary: list[Field] | Unset = UNSET
    secondary: list[Field] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        auxiliary: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.auxiliary, Unset):
            auxiliary = []
            for auxiliary_item_data in self.auxiliary:
                auxiliary_item = auxiliary_item_data.to_dict()
                auxiliary.append(auxiliary_item)

        back: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.back, Unset):
            back = []
            for back_item_data in self.back:
                back_item = back_item_data.to_dict()
                back.append(back_item)

        header: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.header, Unset):
            header = []
            for header_item_data in self.header:
                header_item = header_item_data.to_dict()
                header.append(header_item)

        primary: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.primary, Unset):
            primary = []
            for primary_item_data in self.primary:
                primary_item = primary_item_data.to_dict()
                primary.append(primary_item)

        secondary: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.secondary, Unset):
            secondary = []
            for secondary_item_data in self.secondary:
                secondary_item = secondary_item_data.to_dict()
                secondary.append(secondary_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if auxiliary is not UNSET:
            field_dict["auxiliary"] = auxiliary
        if back is not UNSET:
            field_dict["back"] = back
        if header is not UNSET:
            field_dict["header"] = header
        if primary is not UNSET:
            field_dict["primary"] = primary
        if secondary is not UNSET:
            field_dict["secondary"] = secondary

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.field import Field

        d = dict(src_dict)
        _auxiliary = d.pop("auxiliary", UNSET)
        auxiliary: list[Field] | Unset = UNSET
        if _auxiliary is not UNSET:
            auxiliary = []
            for auxiliary_item_data in _auxiliary:
                auxiliary_item = Field.from_dict(auxiliary_item_data)

                auxiliary.append(auxiliary_item)

        _back = d.pop("back", UNSET)
        back: list[Field] | Unset = UNSET
        if _back is not UNSET:
            back = []
            for back_item_data in _back:
                back_item = Field.from_dict(back_item_data)

                back.append(back_item)

        _header = d.pop("header", UNSET)
        header: list[Field] | Unset = UNSET
        if _header is not UNSET:
            header = []
            for header_item_data in _header:
                header_item = Field.from_dict(header_item_data)

                header.append(header_item)

        _primary = d.pop("primary", UNSET)
        primary: list[Field] | Unset = UNSET
        if _primary is not UNSET:
            primary = []
            for primary_item_data in _primary:
                primary_item = Field.from_dict(primary_item_data)

                primary.append(primary_item)

        _secondary = d.pop("secondary", UNSET)
        secondary: list[Field] | Unset = UNSET
        if _secondary is not UNSET:
            secondary = []
            for secondary_item_data in _secondary:
                secondary_item = Field.from_dict(secondary_item_data)

                secondary.append(secondary_item)

        definition_config_fields = cls(
            auxiliary=auxiliary,
            back=back,
            header=header,
            primary=primary,
            secondary=secondary,
        )

        return definition_config_fields
