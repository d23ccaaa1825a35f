from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.installations_apple_item import InstallationsAppleItem
    from ..models.installations_google_type_0 import InstallationsGoogleType0


T = TypeVar("T", bound="Installations")


@_attrs_define
class Installations:
    """
    Attributes:
        apple (list[InstallationsAppleItem]): devices registered for the pass's updates: deviceLibraryId, registeredAt,
            updatedAt
        google (InstallationsGoogleType0 | None): the pass's Google object: objectId, wallet (saved, removed or null),
            savedAt, removedAt; null without one
    """

    apple: list[InstallationsAppleItem]
    google: InstallationsGoogleType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.installations_google_type_0 import InstallationsGoogleType0

        apple = []
        for apple_item_data in self.apple:
            apple_item = apple_item_data.to_dict()
            apple.append(apple_item)

        google: dict[str, Any] | None
        if isinstance(self.google, InstallationsGoogleType0):
            google = self.google.to_dict()
        else:
            google = self.google

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apple": apple,
                "google": google,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.installations_apple_item import InstallationsAppleItem
        from ..models.installations_google_type_0 import InstallationsGoogleType0

        d = dict(src_dict)
        apple = []
        _apple = d.pop("apple")
        for apple_item_data in _apple:
            apple_item = InstallationsAppleItem.from_dict(apple_item_data)

            apple.append(apple_item)

        def _parse_google(data: object) -> InstallationsGoogleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                google_type_0 = InstallationsGoogleType0.from_dict(data)

                return google_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InstallationsGoogleType0 | None, data)

        google = _parse_google(d.pop("google"))

        installations = cls(
            apple=apple,
            google=google,
        )

        return installations
