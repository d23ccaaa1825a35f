from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DefinitionImages")


@_attrs_define
class DefinitionImages:
    """slot -> ID of an asset uploaded for that slot. Where each shows: icon Apple (Google's logo when there is none); logo
    both; strip Apple event tickets and Google's hero when there is no hero; thumbnail Apple; background Apple event
    tickets (with a logo: the artwork of iOS 18's event ticket style); hero Google. An image no wallet would show is
    refused with a definition issue: a background on a generic template, a background or thumbnail with a strip on an
    event ticket, a strip with a hero on a generic template. No footer: Apple shows one on boarding passes only and
    Google has none

    """

    additional_properties: dict[str, str] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        definition_images = cls()

        definition_images.additional_properties = d
        return definition_images

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> str:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: str) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
