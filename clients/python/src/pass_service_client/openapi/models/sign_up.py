from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SignUp")


@_attrs_define
class SignUp:
    """
    Attributes:
        consent (None | str): the consent sentence the holder ticked, as the sign-up page showed it; null when the page
            asked for none
        consented_at (datetime.datetime | None): when it was ticked
    """

    consent: None | str
    consented_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        consent: None | str
        consent = self.consent

        consented_at: None | str
        if isinstance(self.consented_at, datetime.datetime):
            consented_at = self.consented_at.isoformat()
        else:
            consented_at = self.consented_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "consent": consent,
                "consentedAt": consented_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_consent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        consent = _parse_consent(d.pop("consent"))

        def _parse_consented_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                consented_at_type_0 = datetime.datetime.fromisoformat(data)

                return consented_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        consented_at = _parse_consented_at(d.pop("consentedAt"))

        sign_up = cls(
            consent=consent,
            consented_at=consented_at,
        )

        return sign_up
