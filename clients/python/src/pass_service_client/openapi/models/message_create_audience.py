from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MessageCreateAudience")


@_attrs_define
class MessageCreateAudience:
    """passIds, or at least one of templateId, tag and search

    Attributes:
        pass_ids (list[str] | Unset): these passes of the key's environment; not with the filters
        search (str | Unset): passes whose holder name, email or short ID contains this
        tag (str | Unset): passes with this tag (any case)
        template_id (str | Unset): the template's passes (filters combine as GET /v1/passes's)
    """

    pass_ids: list[str] | Unset = UNSET
    search: str | Unset = UNSET
    tag: str | Unset = UNSET
    template_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        pass_ids: list[str] | Unset = UNSET
        if not isinstance(self.pass_ids, Unset):
            pass_ids = self.pass_ids

        search = self.search

        tag = self.tag

        template_id = self.template_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if pass_ids is not UNSET:
            field_dict["passIds"] = pass_ids
        if search is not UNSET:
            field_dict["search"] = search
        if tag is not UNSET:
            field_dict["tag"] = tag
        if template_id is not UNSET:
            field_dict["templateId"] = template_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pass_ids = cast(list[str], d.pop("passIds", UNSET))

        search = d.pop("search", UNSET)

        tag = d.pop("tag", UNSET)

        template_id = d.pop("templateId", UNSET)

        message_create_audience = cls(
            pass_ids=pass_ids,
            search=search,
            tag=tag,
            template_id=template_id,
        )

        return message_create_audience
