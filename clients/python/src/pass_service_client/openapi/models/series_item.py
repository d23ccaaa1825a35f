from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.series_item_platform import SeriesItemPlatform, check_series_item_platform
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.by_platform import ByPlatform


T = TypeVar("T", bound="SeriesItem")


@_attrs_define
class SeriesItem:
    """
    Attributes:
        add_intents (int): 'Add to Apple/Google Wallet' links followed
        added (int): Apple device registrations and Google saves
        balance_changes (int): balance transactions of loyalty and gift cards (earns, spends, loads, charges; not
            opening balances)
        installed (int): added - removed over all time up to the end of `to` (of a day item: up to the end of that day)
        issued (int): passes issued (a pass issued for both wallets counts once)
        page_views (int): holder page views of active passes
        removed (int): Apple unregistrations and Google deletions
        signup_page_views (int): GETs of open sign-up pages (`/join/<slug>`); kept for the template, so 0 in
            `byPlatform`
        signups (int): passes issued from sign-up pages (source `enrollment`)
        signups_added (int): of the passes issued from sign-up pages, wallet installs (counted as `added` is)
        updates_delivered (int): of those, accepted (Apple: APNs accepted, `sent` or `delivered`; Google: `updated`)
        updates_failed (int): of those, failed
        updates_sent (int): updates whose delivery to a wallet was attempted and finished, counted on the day of the
            update
        by_platform (ByPlatform | Unset):
        date (datetime.date | Unset): groupBy=day
        platform (SeriesItemPlatform | Unset): groupBy=platform (no byPlatform)
        template_id (str | Unset): groupBy=template
        template_name (None | str | Unset): groupBy=template
    """

    add_intents: int
    added: int
    balance_changes: int
    installed: int
    issued: int
    page_views: int
    removed: int
    signup_page_views: int
    signups: int
    signups_added: int
    updates_delivered: int
    updates_failed: int
    updates_sent: int
    by_platform: ByPlatform | Unset = UNSET
    date: datetime.date | Unset = UNSET
    platform: SeriesItemPlatform | Unset = UNSET
    template_id: str | Unset = UNSET
    template_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        add_intents = self.add_intents

        added = self.added

        balance_changes = self.balance_changes

        installed = self.installed

        issued = self.issued

        page_views = self.page_views

        removed = self.removed

        signup_page_views = self.signup_page_views

        signups = self.signups

        signups_added = self.signups_added

        updates_delivered = self.updates_delivered

        updates_failed = self.updates_failed

        updates_sent = self.updates_sent

        by_platform: dict[str, Any] | Unset = UNSET
        if not isinstance(self.by_platform, Unset):
            by_platform = self.by_platform.to_dict()

        date: str | Unset = UNSET
        if not isinstance(self.date, Unset):
            date = self.date.isoformat()

        platform: str | Unset = UNSET
        if not isinstance(self.platform, Unset):
            platform = self.platform

        template_id = self.template_id

        template_name: None | str | Unset
        if isinstance(self.template_name, Unset):
            template_name = UNSET
        else:
            template_name = self.template_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "addIntents": add_intents,
                "added": added,
                "balanceChanges": balance_changes,
                "installed": installed,
                "issued": issued,
                "pageViews": page_views,
                "removed": removed,
                "signupPageViews": signup_page_views,
                "signups": signups,
                "signupsAdded": signups_added,
                "updatesDelivered": updates_delivered,
                "updatesFailed": updates_failed,
                "updatesSent": updates_sent,
            }
        )
        if by_platform is not UNSET:
            field_dict["byPlatform"] = by_platform
        if date is not UNSET:
            field_dict["date"] = date
        if platform is not UNSET:
            field_dict["platform"] = platform
        if template_id is not UNSET:
            field_dict["templateId"] = template_id
        if template_name is not UNSET:
            field_dict["templateName"] = template_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.by_platform import ByPlatform

        d = dict(src_dict)
        add_intents = d.pop("addIntents")

        added = d.pop("added")

        balance_changes = d.pop("balanceChanges")

        installed = d.pop("installed")

        issued = d.pop("issued")

        page_views = d.pop("pageViews")

        removed = d.pop("removed")

        signup_page_views = d.pop("signupPageViews")

        signups = d.pop("signups")

        signups_added = d.pop("signupsAdded")

        updates_delivered = d.pop("updatesDelivered")

        updates_failed = d.pop("updatesFailed")

        updates_sent = d.pop("updatesSent")

        _by_platform = d.pop("byPlatform", UNSET)
        by_platform: ByPlatform | Unset
        if isinstance(_by_platform, Unset):
            by_platform = UNSET
        else:
            by_platform = ByPlatform.from_dict(_by_platform)

        _date = d.pop("date", UNSET)
        date: datetime.date | Unset
        if isinstance(_date, Unset):
            date = UNSET
        else:
            date = datetime.date.fromisoformat(_date)

        _platform = d.pop("platform", UNSET)
        platform: SeriesItemPlatform | Unset
        if isinstance(_platform, Unset):
            platform = UNSET
        else:
            platform = check_series_item_platform(_platform)

        template_id = d.pop("templateId", UNSET)

        def _parse_template_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template_name = _parse_template_name(d.pop("templateName", UNSET))

        series_item = cls(
            add_intents=add_intents,
            added=added,
            balance_changes=balance_changes,
            installed=installed,
            issued=issued,
            page_views=page_views,
            removed=removed,
            signup_page_views=signup_page_views,
            signups=signups,
            signups_added=signups_added,
            updates_delivered=updates_delivered,
            updates_failed=updates_failed,
            updates_sent=updates_sent,
            by_platform=by_platform,
            date=date,
            platform=platform,
            template_id=template_id,
            template_name=template_name,
        )

        return series_item
