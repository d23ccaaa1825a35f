from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.pass_send_locale import PassSendLocale, check_pass_send_locale
from ..types import UNSET, Unset

T = TypeVar("T", bound="PassSend")


@_attrs_define
class PassSend:
    """
    Attributes:
        locale (PassSendLocale | Unset): the email's language; default the first of Accept-Language that the service
            speaks, else en
        to (str | Unset): the address to send to; default the pass's holderEmail
    """

    locale: PassSendLocale | Unset = UNSET
    to: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        locale: str | Unset = UNSET
        if not isinstance(self.locale, Unset):
            locale = self.locale

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if locale is not UNSET:
            field_dict["locale"] = locale
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _locale = d.pop("locale", UNSET)
        locale: PassSendLocale | Unset
        if isinstance(_locale, Unset):
            locale = UNSET
        else:
            locale = check_pass_send_locale(_locale)

        to = d.pop("to", UNSET)

        pass_send = cls(
            locale=locale,
            to=to,
        )

        return pass_send
