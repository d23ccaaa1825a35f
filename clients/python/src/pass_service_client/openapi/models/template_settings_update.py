from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TemplateSettingsUpdate")


@_attrs_define
class TemplateSettingsUpdate:
    """
    Attributes:
        apple_certificate_id (None | str | Unset): cert_...; null clears
        google_issuer_id (None | str | Unset): a Google issuer ID of this organization; null clears
    """

    apple_certificate_id: None | str | Unset = UNSET
    google_issuer_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        apple_certificate_id: None | str | Unset
        if isinstance(self.apple_certificate_id, Unset):
            apple_certificate_id = UNSET
        else:
            apple_certificate_id = self.apple_certificate_id

        google_issuer_id: None | str | Unset
        if isinstance(self.google_issuer_id, Unset):
            google_issuer_id = UNSET
        else:
            google_issuer_id = self.google_issuer_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if apple_certificate_id is not UNSET:
            field_dict["appleCertificateId"] = apple_certificate_id
        if google_issuer_id is not UNSET:
            field_dict["googleIssuerId"] = google_issuer_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_apple_certificate_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        apple_certificate_id = _parse_apple_certificate_id(
            d.pop("appleCertificateId", UNSET)
        )

        def _parse_google_issuer_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        google_issuer_id = _parse_google_issuer_id(d.pop("googleIssuerId", UNSET))

        template_settings_update = cls(
            apple_certificate_id=apple_certificate_id,
            google_issuer_id=google_issuer_id,
        )

        return template_settings_update
