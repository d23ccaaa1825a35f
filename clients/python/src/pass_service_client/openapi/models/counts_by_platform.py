from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.by_platform import ByPlatform


T = TypeVar("T", bound="CountsByPlatform")


@_attrs_define
class CountsByPlatform:
    """
    Attributes:
        add_intents (int): 'Add to Apple/Google Wallet' links followed
        added (int): Apple device registrations and Google saves
        balance_changes (int): balance transactions of loyalty and gift cards (earns, spends, loads, charges; not
            opening balances)
        by_platform (ByPlatform):
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
    """

    add_intents: int
    added: int
    balance_changes: int
    by_platform: ByPlatform
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

    def to_dict(self) -> dict[str, Any]:
        add_intents = self.add_intents

        added = self.added

        balance_changes = self.balance_changes

        by_platform = self.by_platform.to_dict()

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "addIntents": add_intents,
                "added": added,
                "balanceChanges": balance_changes,
                "byPlatform": by_platform,
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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.by_platform import ByPlatform

        d = dict(src_dict)
        add_intents = d.pop("addIntents")

        added = d.pop("added")

        balance_changes = d.pop("balanceChanges")

        by_platform = ByPlatform.from_dict(d.pop("byPlatform"))

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

        counts_by_platform = cls(
            add_intents=add_intents,
            added=added,
            balance_changes=balance_changes,
            by_platform=by_platform,
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
        )

        return counts_by_platform
