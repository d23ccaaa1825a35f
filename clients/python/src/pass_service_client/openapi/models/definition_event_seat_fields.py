from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DefinitionEventSeatFields")


@_attrs_define
class DefinitionEventSeatFields:
    """which fields give the seat: Apple semantics.seats and venueEntranceGate, Google seatInfo; default: the fields keyed
    section, row, seat and gate

        Attributes:
            gate (str | Unset): key of a field
            number (str | Unset): key of a field
            row (str | Unset): key of a field
            section (str | Unset): key of a field
    """

    gate: str | Unset = UNSET
    number: str | Unset = UNSET
    row: str | Unset = UNSET
    section: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        gate = self.gate

        number = self.number

        row = self.row

        section = self.section

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if gate is not UNSET:
            field_dict["gate"] = gate
        if number is not UNSET:
            field_dict["number"] = number
        if row is not UNSET:
            field_dict["row"] = row
        if section is not UNSET:
            field_dict["section"] = section

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        gate = d.pop("gate", UNSET)

        number = d.pop("number", UNSET)

        row = d.pop("row", UNSET)

        section = d.pop("section", UNSET)

        definition_event_seat_fields = cls(
            gate=gate,
            number=number,
            row=row,
            section=section,
        )

        return definition_event_seat_fields
