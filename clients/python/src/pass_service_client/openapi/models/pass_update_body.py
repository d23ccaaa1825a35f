from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_update_body_notification_mode import (
    PassUpdateBodyNotificationMode,
    check_pass_update_body_notification_mode,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pass_update_body_field_values import PassUpdateBodyFieldValues


T = TypeVar("T", bound="PassUpdateBody")


@_attrs_define
class PassUpdateBody:
    """
    Attributes:
        expires_at (datetime.datetime | None | Unset): when the pass expires (wallets grey it out: Apple
            `expirationDate`, Google `validTimeInterval.end`), overriding the template's expiresAt; RFC 3339 with an offset;
            null: the template's applies again
        field_values (PassUpdateBodyFieldValues | Unset): strings, numbers, or null to clear
        notification_mode (PassUpdateBodyNotificationMode | Unset):  Default: 'silent'.
        relevant_date (datetime.datetime | None | Unset): when the pass is relevant (Apple shows it on the lock screen:
            `relevantDate` and iOS 18's `relevantDates`; Google has no such date), overriding the template's event start;
            RFC 3339 with an offset; null: the template's applies again
        tags (list[str] | Unset): the pass's tags (at most 20, each 1 to 40 letters, digits, '-', '_', '.' or ':',
            starting with a letter or digit); stored in lower case, a repeated tag kept once; replaces the pass's tags ([]
            removes them all); tags change no wallet
    """

    expires_at: datetime.datetime | None | Unset = UNSET
    field_values: PassUpdateBodyFieldValues | Unset = UNSET
    notification_mode: PassUpdateBodyNotificationMode | Unset = "silent"
    relevant_date: datetime.datetime | None | Unset = UNSET
    tags: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        field_values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_values, Unset):
            field_values = self.field_values.to_dict()

        notification_mode: str | Unset = UNSET
        if not isinstance(self.notification_mode, Unset):
            notification_mode = self.notification_mode

        relevant_date: None | str | Unset
        if isinstance(self.relevant_date, Unset):
            relevant_date = UNSET
        elif isinstance(self.relevant_date, datetime.datetime):
            relevant_date = self.relevant_date.isoformat()
        else:
            relevant_date = self.relevant_date

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if field_values is not UNSET:
            field_dict["fieldValues"] = field_values
        if notification_mode is not UNSET:
            field_dict["notificationMode"] = notification_mode
        if relevant_date is not UNSET:
            field_dict["relevantDate"] = relevant_date
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_update_body_field_values import PassUpdateBodyFieldValues

        d = dict(src_dict)

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expiresAt", UNSET))

        _field_values = d.pop("fieldValues", UNSET)
        field_values: PassUpdateBodyFieldValues | Unset
        if isinstance(_field_values, Unset):
            field_values = UNSET
        else:
            field_values = PassUpdateBodyFieldValues.from_dict(_field_values)

        _notification_mode = d.pop("notificationMode", UNSET)
        notification_mode: PassUpdateBodyNotificationMode | Unset
        if isinstance(_notification_mode, Unset):
            notification_mode = UNSET
        else:
            notification_mode = check_pass_update_body_notification_mode(
                _notification_mode
            )

        def _parse_relevant_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                relevant_date_type_0 = datetime.datetime.fromisoformat(data)

                return relevant_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        relevant_date = _parse_relevant_date(d.pop("relevantDate", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        pass_update_body = cls(
            expires_at=expires_at,
            field_values=field_values,
            notification_mode=notification_mode,
            relevant_date=relevant_date,
            tags=tags,
        )

        return pass_update_body
