from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.translation_event import TranslationEvent
    from ..models.translation_fields import TranslationFields


T = TypeVar("T", bound="Translation")


@_attrs_define
class Translation:
    """A template's texts in one language; what is left out stays in the default language. Per-pass values are never
    translated.

        Attributes:
            description (str | Unset):
            event (TranslationEvent | Unset):
            fields (TranslationFields | Unset): field key -> its texts
            logo_text (str | Unset):
            organization_name (str | Unset):
    """

    description: str | Unset = UNSET
    event: TranslationEvent | Unset = UNSET
    fields: TranslationFields | Unset = UNSET
    logo_text: str | Unset = UNSET
    organization_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        event: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event, Unset):
            event = self.event.to_dict()

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        logo_text = self.logo_text

        organization_name = self.organization_name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if event is not UNSET:
            field_dict["event"] = event
        if fields is not UNSET:
            field_dict["fields"] = fields
        if logo_text is not UNSET:
            field_dict["logoText"] = logo_text
        if organization_name is not UNSET:
            field_dict["organizationName"] = organization_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.translation_event import TranslationEvent
        from ..models.translation_fields import TranslationFields

        d = dict(src_dict)
        description = d.pop("description", UNSET)

        _event = d.pop("event", UNSET)
        event: TranslationEvent | Unset
        if isinstance(_event, Unset):
            event = UNSET
        else:
            event = TranslationEvent.from_dict(_event)

        _fields = d.pop("fields", UNSET)
        fields: TranslationFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = TranslationFields.from_dict(_fields)

        logo_text = d.pop("logoText", UNSET)

        organization_name = d.pop("organizationName", UNSET)

        translation = cls(
            description=description,
            event=event,
            fields=fields,
            logo_text=logo_text,
            organization_name=organization_name,
        )

        return translation
