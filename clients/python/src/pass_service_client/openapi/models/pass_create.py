from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pass_create_field_values import PassCreateFieldValues
    from ..models.platforms import Platforms


T = TypeVar("T", bound="PassCreate")


@_attrs_define
class PassCreate:
    """
    Attributes:
        template_id (str):
        balance (int | Unset): the opening balance: points on a loyalty template, minor units of its currency on a
            gift_card template (default 0); refused on the other types (balance_not_accepted)
        barcode_value (str | Unset):
        certificate_id (str | Unset):
        expires_at (datetime.datetime | Unset): when the pass expires (wallets grey it out: Apple `expirationDate`,
            Google `validTimeInterval.end`), overriding the template's expiresAt; RFC 3339 with an offset
        field_values (PassCreateFieldValues | Unset): values: strings or numbers
        google_issuer_id (str | Unset):
        holder_email (str | Unset):
        holder_name (str | Unset):
        platforms (Platforms | Unset):
        relevant_date (datetime.datetime | Unset): when the pass is relevant (Apple shows it on the lock screen:
            `relevantDate` and iOS 18's `relevantDates`; Google has no such date), overriding the template's event start;
            RFC 3339 with an offset
        revision (int | Unset): a JSON integer written without a fraction (2, not 2.0)
        send (bool | Unset): true: also email the pass to holderEmail (as POST /v1/passes/{id}/send does; the answer's
            lastEmail shows it), in the language of Accept-Language Default: False.
        tags (list[str] | Unset): the pass's tags (at most 20, each 1 to 40 letters, digits, '-', '_', '.' or ':',
            starting with a letter or digit); stored in lower case, a repeated tag kept once; default none
    """

    template_id: str
    balance: int | Unset = UNSET
    barcode_value: str | Unset = UNSET
    certificate_id: str | Unset = UNSET
    expires_at: datetime.datetime | Unset = UNSET
    field_values: PassCreateFieldValues | Unset = UNSET
    google_issuer_id: str | Unset = UNSET
    holder_email: str | Unset = UNSET
    holder_name: str | Unset = UNSET
    platforms: Platforms | Unset = UNSET
    relevant_date: datetime.datetime | Unset = UNSET
    revision: int | Unset = UNSET
    send: bool | Unset = False
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        template_id = self.template_id

        balance = self.balance

        barcode_value = self.barcode_value

        certificate_id = self.certificate_id

        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()

        field_values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_values, Unset):
            field_values = self.field_values.to_dict()

        google_issuer_id = self.google_issuer_id

        holder_email = self.holder_email

        holder_name = self.holder_name

        platforms: dict[str, Any] | Unset = UNSET
        if not isinstance(self.platforms, Unset):
            platforms = self.platforms.to_dict()

        relevant_date: str | Unset = UNSET
        if not isinstance(self.relevant_date, Unset):
            relevant_date = self.relevant_date.isoformat()

        revision = self.revision

        send = self.send

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "templateId": template_id,
            }
        )
        if balance is not UNSET:
            field_dict["balance"] = balance
        if barcode_value is not UNSET:
            field_dict["barcodeValue"] = barcode_value
        if certificate_id is not UNSET:
            field_dict["certificateId"] = certificate_id
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if field_values is not UNSET:
            field_dict["fieldValues"] = field_values
        if google_issuer_id is not UNSET:
            field_dict["googleIssuerId"] = google_issuer_id
        if holder_email is not UNSET:
            field_dict["holderEmail"] = holder_email
        if holder_name is not UNSET:
            field_dict["holderName"] = holder_name
        if platforms is not UNSET:
            field_dict["platforms"] = platforms
        if relevant_date is not UNSET:
            field_dict["relevantDate"] = relevant_date
        if revision is not UNSET:
            field_dict["revision"] = revision
        if send is not UNSET:
            field_dict["send"] = send
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_create_field_values import PassCreateFieldValues
        from ..models.platforms import Platforms

        d = dict(src_dict)
        template_id = d.pop("templateId")

        balance = d.pop("balance", UNSET)

        barcode_value = d.pop("barcodeValue", UNSET)

        certificate_id = d.pop("certificateId", UNSET)

        _expires_at = d.pop("expiresAt", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)

        _field_values = d.pop("fieldValues", UNSET)
        field_values: PassCreateFieldValues | Unset
        if isinstance(_field_values, Unset):
            field_values = UNSET
        else:
            field_values = PassCreateFieldValues.from_dict(_field_values)

        google_issuer_id = d.pop("googleIssuerId", UNSET)

        holder_email = d.pop("holderEmail", UNSET)

        holder_name = d.pop("holderName", UNSET)

        _platforms = d.pop("platforms", UNSET)
        platforms: Platforms | Unset
        if isinstance(_platforms, Unset):
            platforms = UNSET
        else:
            platforms = Platforms.from_dict(_platforms)

        _relevant_date = d.pop("relevantDate", UNSET)
        relevant_date: datetime.datetime | Unset
        if isinstance(_relevant_date, Unset):
            relevant_date = UNSET
        else:
            relevant_date = datetime.datetime.fromisoformat(_relevant_date)

        revision = d.pop("revision", UNSET)

        send = d.pop("send", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        pass_create = cls(
            template_id=template_id,
            balance=balance,
            barcode_value=barcode_value,
            certificate_id=certificate_id,
            expires_at=expires_at,
            field_values=field_values,
            google_issuer_id=google_issuer_id,
            holder_email=holder_email,
            holder_name=holder_name,
            platforms=platforms,
            relevant_date=relevant_date,
            revision=revision,
            send=send,
            tags=tags,
        )

        return pass_create
