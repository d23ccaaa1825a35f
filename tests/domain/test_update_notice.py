"""What a pass update does in each wallet, in words (`domain.update_notice`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from webapp.domain.update_notice import WalletFacts, describe, design_saved
from webapp.services.google import push as google_push
from webapp.wallets.apple import pass_json

DEFINITION: dict[str, Any] = {"config": {"fields": {
    "primary": [{"key": "seat", "label": "Seat", "binding": "perPass",
                 "changeMessage": "Your seat is now %@"}],
    "secondary": [{"key": "level", "label": "Level", "binding": "perPass"},
                  {"key": "off", "label": "50% off", "binding": "perPass"}],
}}}
SEAT = {"key": "seat", "label": "Seat", "from": "11B", "to": "12A"}
LEVEL = {"key": "level", "label": "Level", "from": "Gold", "to": "Platinum"}
CLEARED = {"key": "level", "label": "Level", "from": "Gold", "to": None}
INSTALLED = WalletFacts(issued=True, holders=2)
SAVED = WalletFacts(issued=True, holders=1)


def texts(changes: list[dict[str, Any]], mode: str, apple: WalletFacts = INSTALLED,
          google: WalletFacts = SAVED) -> list[str]:
    return [n.text for n in describe(DEFINITION, changes, mode, apple, google)]


@pytest.mark.parametrize(("changes", "mode", "apple", "google"), [
    ([SEAT], "notify",
     "Apple Wallet: the 2 iPhones with the pass show “Your seat is now 12A”.",
     "Google Wallet: the holder's phone shows a notification “Your seat is now 12A”."),
    ([LEVEL], "notify",
     "Apple Wallet: the 2 iPhones with the pass show “Level: Platinum”. (No change message on "
     "Level: the label and new value are shown.)",
     "Google Wallet: the holder's phone shows a notification “Level: Platinum”."),
    ([SEAT, LEVEL], "notify",
     "Apple Wallet: the 2 iPhones with the pass show “Your seat is now 12A” and “Level: "
     "Platinum”. (No change message on Level: the label and new value are shown.)",
     "Google Wallet: the holder's phone shows a notification “Your seat is now 12A / Level: "
     "Platinum”."),
    ([CLEARED], "notify",
     "Apple Wallet: the 2 iPhones with the pass get the update silently (a cleared value has "
     "no message).",
     "Google Wallet: the holder's phone shows a notification “Level: -”."),
    ([SEAT], "silent",
     "Apple Wallet: the 2 iPhones with the pass get the update silently (no message).",
     "Google Wallet: the saved pass is updated silently (no message)."),
])
def test_installed_everywhere(changes: list[dict[str, Any]], mode: str, apple: str,
                              google: str) -> None:
    assert texts(changes, mode) == [apple, google]


def test_nothing_installed() -> None:
    assert texts([SEAT], "notify", WalletFacts(issued=True), WalletFacts(issued=True)) == [
        "Apple Wallet: no iPhone has this pass yet; it shows the new values when it is added.",
        "Google Wallet: nobody has saved this pass yet (as far as Google has told us); Google's "
        "copy gets the new values."]


def test_one_iphone() -> None:
    assert texts([SEAT], "notify", WalletFacts(issued=True, holders=1))[0] == \
        "Apple Wallet: the iPhone with the pass shows “Your seat is now 12A”."


def test_wallets_not_set_up_or_not_issued() -> None:
    assert texts([SEAT], "notify",
                 WalletFacts(issued=True, holders=1, problem="the certificate has expired."),
                 WalletFacts(issued=False)) == [
        "Apple Wallet: iPhones cannot be told: the certificate has expired.",
        "Google Wallet: this pass is not issued for Google Wallet."]
    assert texts([SEAT], "notify", WalletFacts(issued=False),
                  WalletFacts(issued=True, problem="No issuer.")) == [
        "Apple Wallet: this pass is not issued for Apple Wallet.",
        "Google Wallet: not updated: No issuer."]


def test_google_notifications_used_up() -> None:
    assert texts([SEAT], "notify", google=WalletFacts(issued=True, holders=1,
                                                      notifications_left=0))[1] == (
        "Google Wallet: the saved pass shows the message “Your seat is now 12A” without a "
        "notification (Google allows 3 per pass per 24 hours; all are used).")


def test_a_field_not_on_the_pass_changes_nothing() -> None:
    assert texts([{"key": "gone", "label": "Gone", "from": "a", "to": "b"}], "notify") == [
        "Apple Wallet: nothing changes on iPhones (the changed fields are not on the pass).",
        "Google Wallet: nothing changes (the changed fields are not on the pass)."]


@pytest.mark.parametrize("change", [SEAT, LEVEL, CLEARED,
                                    {"key": "off", "label": "50% off", "from": None, "to": "9"}])
def test_the_words_are_the_wallets_own(change: dict[str, Any]) -> None:
    """Apple's change message (pass_json) and Google's message (push.summary), as shown."""
    google = texts([change], "notify")[1]
    record = SimpleNamespace(changes=[change])
    assert f"“{google_push.summary(record, DEFINITION)}”" in google  # type: ignore[arg-type]
    if change["to"] is not None:
        spec = next(f for group in DEFINITION["config"]["fields"].values() for f in group
                    if f["key"] == change["key"])
        apple = pass_json.change_message(spec).replace("%%", "%").replace("%@", change["to"])
        assert f"“{apple}”" in texts([change], "notify")[0]


def test_design_saved() -> None:
    assert design_saved(3, 3) == "Saved. The design did not change, so there is no new revision."
    assert design_saved(3, 4) == ("Saved as revision 4. Passes issued from now on use it; "
                                  "passes already issued keep revision 3, so no wallet is "
                                  "updated.")
