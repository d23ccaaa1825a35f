from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition_enrollment_fields_item import (
        DefinitionEnrollmentFieldsItem,
    )


T = TypeVar("T", bound="DefinitionEnrollment")


@_attrs_define
class DefinitionEnrollment:
    """a public sign-up page (/join/<slug>): a person fills in the form and gets a pass (source enrollment); refused with a
    perPass barcode

        Attributes:
            enabled (bool): whether the template's sign-up page (the template's enrollmentUrl) takes sign-ups
            fields (list[DefinitionEnrollmentFieldsItem]): the form's inputs, in order, named by their keys; must hold
                holderEmail (required: one person, one pass) and every required perPass field (required)
            consent (str | Unset): a sentence the visitor must tick to sign up
    """

    enabled: bool
    fields: list[DefinitionEnrollmentFieldsItem]
    consent: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        consent = self.consent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
                "fields": fields,
            }
        )
        if consent is not UNSET:
            field_dict["consent"] = consent

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition_enrollment_fields_item import (
            DefinitionEnrollmentFieldsItem,
        )

        d = dict(src_dict)
        enabled = d.pop("enabled")

        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = DefinitionEnrollmentFieldsItem.from_dict(fields_item_data)

            fields.append(fields_item)

        consent = d.pop("consent", UNSET)

        definition_enrollment = cls(
            enabled=enabled,
            fields=fields,
            consent=consent,
        )

        return definition_enrollment
