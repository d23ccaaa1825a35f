from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.template_object import TemplateObject, check_template_object
from ..models.template_type import TemplateType, check_template_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition import Definition
    from ..models.template_settings import TemplateSettings


T = TypeVar("T", bound="Template")


@_attrs_define
class Template:
    """
    Attributes:
        archived (bool):
        created_at (datetime.datetime):
        enrollment_url (None | str): the sign-up page of the key's environment (<BASE_URL>/join/<slug>, a random slug of
            16 characters); null while definition.enrollment.enabled is not true. POST /v1/templates/{id}/enrollment-link
            replaces it
        id (str):
        name (str):
        object_ (TemplateObject):  Default: 'template'.
        required_fields (list[str]):
        revision (int):
        settings (TemplateSettings):
        type_ (TemplateType):
        updated_at (datetime.datetime):
        definition (Definition | Unset): Template definition schema v1.
    """

    archived: bool
    created_at: datetime.datetime
    enrollment_url: None | str
    id: str
    name: str
    required_fields: list[str]
    revision: int
    settings: TemplateSettings
    type_: TemplateType
    updated_at: datetime.datetime
    object_: TemplateObject = "template"
    definition: Definition | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        archived = self.archived

        created_at = self.created_at.isoformat()

        enrollment_url: None | str
        enrollment_url = self.enrollment_url

        id = self.id

        name = self.name

        object_: str = self.object_

        required_fields = self.required_fields

        revision = self.revision

        settings = self.settings.to_dict()

        type_: str = self.type_

        updated_at = self.updated_at.isoformat()

        definition: dict[str, Any] | Unset = UNSET
        if not isinstance(self.definition, Unset):
            definition = self.definition.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "archived": archived,
                "createdAt": created_at,
                "enrollmentUrl": enrollment_url,
                "id": id,
                "name": name,
                "object": object_,
                "requiredFields": required_fields,
                "revision": revision,
                "settings": settings,
                "type": type_,
                "updatedAt": updated_at,
            }
        )
        if definition is not UNSET:
            field_dict["definition"] = definition

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition import Definition
        from ..models.template_settings import TemplateSettings

        d = dict(src_dict)
        archived = d.pop("archived")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_enrollment_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        enrollment_url = _parse_enrollment_url(d.pop("enrollmentUrl"))

        id = d.pop("id")

        name = d.pop("name")

        object_ = check_template_object(d.pop("object"))

        required_fields = cast(list[str], d.pop("requiredFields"))

        revision = d.pop("revision")

        settings = TemplateSettings.from_dict(d.pop("settings"))

        type_ = check_template_type(d.pop("type"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        _definition = d.pop("definition", UNSET)
        definition: Definition | Unset
        if isinstance(_definition, Unset):
            definition = UNSET
        else:
            definition = Definition.from_dict(_definition)

        template = cls(
            archived=archived,
            created_at=created_at,
            enrollment_url=enrollment_url,
            id=id,
            name=name,
            object_=object_,
            required_fields=required_fields,
            revision=revision,
            settings=settings,
            type_=type_,
            updated_at=updated_at,
            definition=definition,
        )

        return template
