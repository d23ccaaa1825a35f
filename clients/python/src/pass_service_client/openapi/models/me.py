from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.me_environment import MeEnvironment, check_me_environment

if TYPE_CHECKING:
    from ..models.permissions import Permissions


T = TypeVar("T", bound="Me")


@_attrs_define
class Me:
    """
    Attributes:
        environment (MeEnvironment):
        organization_id (str):
        permissions (None | Permissions): the key's level (none, read or write; write includes read) per resource; null:
            full access
    """

    environment: MeEnvironment
    organization_id: str
    permissions: None | Permissions

    def to_dict(self) -> dict[str, Any]:
        from ..models.permissions import Permissions

        environment: str = self.environment

        organization_id = self.organization_id

        permissions: dict[str, Any] | None
        if isinstance(self.permissions, Permissions):
            permissions = self.permissions.to_dict()
        else:
            permissions = self.permissions

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "environment": environment,
                "organizationId": organization_id,
                "permissions": permissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.permissions import Permissions

        d = dict(src_dict)
        environment = check_me_environment(d.pop("environment"))

        organization_id = d.pop("organizationId")

        def _parse_permissions(data: object) -> None | Permissions:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                permissions_type_0 = Permissions.from_dict(data)

                return permissions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Permissions, data)

        permissions = _parse_permissions(d.pop("permissions"))

        me = cls(
            environment=environment,
            organization_id=organization_id,
            permissions=permissions,
        )

        return me
