from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Signing")


@_attrs_define
class Signing:
    """
    Attributes:
        apple_certificate_id (None | str): cert_..., or demo in test
        apple_pass_type_identifier (None | str):
        google_issuer_id (None | str):
    """

    apple_certificate_id: None | str
    apple_pass_type_identifier: None | str
    google_issuer_id: None | str

    def to_dict(self) -> dict[str, Any]:
        apple_certificate_id: None | str
        apple_certificate_id = self.apple_certificate_id

        apple_pass_type_identifier: None | str
        apple_pass_type_identifier = self.apple_pass_type_identifier

        google_issuer_id: None | str
        google_issuer_id = self.google_issuer_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "appleCertificateId": apple_certificate_id,
                "applePassTypeIdentifier": apple_pass_type_identifier,
                "googleIssuerId": google_issuer_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_apple_certificate_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        apple_certificate_id = _parse_apple_certificate_id(d.pop("appleCertificateId"))

        def _parse_apple_pass_type_identifier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        apple_pass_type_identifier = _parse_apple_pass_type_identifier(
            d.pop("applePassTypeIdentifier")
        )

        def _parse_google_issuer_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        google_issuer_id = _parse_google_issuer_id(d.pop("googleIssuerId"))

        signing = cls(
            apple_certificate_id=apple_certificate_id,
            apple_pass_type_identifier=apple_pass_type_identifier,
            google_issuer_id=google_issuer_id,
        )

        return signing
