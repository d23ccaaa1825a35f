from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition import Definition
    from ..models.template_settings_update import TemplateSettingsUpdate


T = TypeVar("T", bound="TemplateUpdate")


@_attrs_define
class TemplateUpdate:
    """
    Attributes:
        expected_revision (int): a JSON integer written without a fraction (2, not 2.0)
        definition (Definition | Unset): Template definition schema v1.
        name (str | Unset):
        settings (TemplateSettingsUpdate | Unset):
    """

    expected_revision: int
    definition: Definition | Unset = UNSET
    name: str | Unset = UNSET
    settings: TemplateSettingsUpdate | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expected_revision = self.expected_revision

        definition: dict[str, Any] | Unset = UNSET
        if not isinstance(self.definition, Unset):
            definition = self.definition.to_dict()

        name = self.name

        settings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.settings, Unset):
            settings = self.settings.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "expectedRevision": expected_revision,
            }
        )
        if definition is not UNSET:
            field_dict["definition"] = definition
        if name is not UNSET:
            field_dict["name"] = name
        if settings is not UNSET:
            field_dict["settings"] = settings

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition import Definition
        from ..models.template_settings_update import TemplateSettingsUpdate

        d = dict(src_dict)
        expected_revision = d.pop("expectedRevision")

        _definition = d.pop("definition", UNSET)
        definition: Definition | Unset
        if isinstance(_definition, Unset):
            definition = UNSET
        else:
            definition = Definition.from_dict(_definition)

        name = d.pop("name", UNSET)

        _settings = d.pop("settings", UNSET)
        settings: TemplateSettingsUpdate | Unset
        if isinstance(_settings, Unset):
            settings = UNSET
        else:
            settings = TemplateSettingsUpdate.from_dict(_settings)

        template_update = cls(
            expected_revision=expected_revision,
            definition=definition,
            name=name,
            settings=settings,
        )

        return template_update
