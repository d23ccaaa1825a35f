from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_export_object import PassExportObject, check_pass_export_object

if TYPE_CHECKING:
    from ..models.balance_transaction import BalanceTransaction
    from ..models.email import Email
    from ..models.event import Event
    from ..models.installations import Installations
    from ..models.pass_ import Pass
    from ..models.pass_export_activity_item import PassExportActivityItem
    from ..models.pass_update import PassUpdate
    from ..models.redemption import Redemption
    from ..models.sign_up import SignUp


T = TypeVar("T", bound="PassExport")


@_attrs_define
class PassExport:
    """
    Attributes:
        activity (list[PassExportActivityItem]): page views, add intents, wallet adds and removals: kind, platform, at
        balance_transactions (list[BalanceTransaction]): a loyalty or gift card's balance movements
        emails (list[Email]):
        enrollment (None | SignUp): the sign-up that issued the pass (`source: enrollment`); null for other passes
        events (list[Event]): the events about the pass still kept (30 days)
        installations (Installations):
        object_ (PassExportObject):  Default: 'pass_export'.
        pass_ (Pass):
        redemptions (list[Redemption]):
        updates (list[PassUpdate]):
    """

    activity: list[PassExportActivityItem]
    balance_transactions: list[BalanceTransaction]
    emails: list[Email]
    enrollment: None | SignUp
    events: list[Event]
    installations: Installations
    pass_: Pass
    redemptions: list[Redemption]
    updates: list[PassUpdate]
    object_: PassExportObject = "pass_export"

    def to_dict(self) -> dict[str, Any]:
        from ..models.sign_up import SignUp

        activity = []
        for activity_item_data in self.activity:
            activity_item = activity_item_data.to_dict()
            activity.append(activity_item)

        balance_transactions = []
        for balance_transactions_item_data in self.balance_transactions:
            balance_transactions_item = balance_transactions_item_data.to_dict()
            balance_transactions.append(balance_transactions_item)

        emails = []
        for emails_item_data in self.emails:
            emails_item = emails_item_data.to_dict()
            emails.append(emails_item)

        enrollment: dict[str, Any] | None
        if isinstance(self.enrollment, SignUp):
            enrollment = self.enrollment.to_dict()
        else:
            enrollment = self.enrollment

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        installations = self.installations.to_dict()

        object_: str = self.object_

        pass_ = self.pass_.to_dict()

        redemptions = []
        for redemptions_item_data in self.redemptions:
            redemptions_item = redemptions_item_data.to_dict()
            redemptions.append(redemptions_item)

        updates = []
        for updates_item_data in self.updates:
            updates_item = updates_item_data.to_dict()
            updates.append(updates_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "activity": activity,
                "balanceTransactions": balance_transactions,
                "emails": emails,
                "enrollment": enrollment,
                "events": events,
                "installations": installations,
                "object": object_,
                "pass": pass_,
                "redemptions": redemptions,
                "updates": updates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.balance_transaction import BalanceTransaction
        from ..models.email import Email
        from ..models.event import Event
        from ..models.installations import Installations
        from ..models.pass_ import Pass
        from ..models.pass_export_activity_item import PassExportActivityItem
        from ..models.pass_update import PassUpdate
        from ..models.redemption import Redemption
        from ..models.sign_up import SignUp

        d = dict(src_dict)
        activity = []
        _activity = d.pop("activity")
        for activity_item_data in _activity:
            activity_item = PassExportActivityItem.from_dict(activity_item_data)

            activity.append(activity_item)

        balance_transactions = []
        _balance_transactions = d.pop("balanceTransactions")
        for balance_transactions_item_data in _balance_transactions:
            balance_transactions_item = BalanceTransaction.from_dict(
                balance_transactions_item_data
            )

            balance_transactions.append(balance_transactions_item)

        emails = []
        _emails = d.pop("emails")
        for emails_item_data in _emails:
            emails_item = Email.from_dict(emails_item_data)

            emails.append(emails_item)

        def _parse_enrollment(data: object) -> None | SignUp:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                enrollment_type_0 = SignUp.from_dict(data)

                return enrollment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SignUp, data)

        enrollment = _parse_enrollment(d.pop("enrollment"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = Event.from_dict(events_item_data)

            events.append(events_item)

        installations = Installations.from_dict(d.pop("installations"))

        object_ = check_pass_export_object(d.pop("object"))

        pass_ = Pass.from_dict(d.pop("pass"))

        redemptions = []
        _redemptions = d.pop("redemptions")
        for redemptions_item_data in _redemptions:
            redemptions_item = Redemption.from_dict(redemptions_item_data)

            redemptions.append(redemptions_item)

        updates = []
        _updates = d.pop("updates")
        for updates_item_data in _updates:
            updates_item = PassUpdate.from_dict(updates_item_data)

            updates.append(updates_item)

        pass_export = cls(
            activity=activity,
            balance_transactions=balance_transactions,
            emails=emails,
            enrollment=enrollment,
            events=events,
            installations=installations,
            object_=object_,
            pass_=pass_,
            redemptions=redemptions,
            updates=updates,
        )

        return pass_export
