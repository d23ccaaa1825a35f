"""What each wallet does with a pass update, in words: one sentence per wallet, made from the
changes, the definition's change messages, the notification mode and what is known of the
pass in each wallet. The pass page says it before a save (from the values typed) and after
it (from the saved changes), with this one function, so the two cannot disagree.

The wallets' rules it follows (docs/decisions.md "Apple Wallet", "Google Wallet"):
- Apple: in `notify` mode each changed field carries its change message, else
  `<label>: %@`; a cleared field leaves the pass, so it has none; `silent` carries none.
  Only devices registered for updates hear of a change.
- Google: the object is patched in both modes; in `notify` mode, when a holder saved the pass,
  a message (each changed field's change message, else `<label>: <value>`, one line each)
  is added with a notification while the pass has some of its 3 per 24 hours left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webapp.domain import definition_read

# How an update reaches holders: `silent` (the default) or `notify` (a message, where the
# wallet shows one).
NOTIFICATION_MODES: tuple[str, ...] = ("silent", "notify")


@dataclass(frozen=True)
class WalletFacts:
    """What the service knows of one wallet for one pass, just before the update.

    `problem`: why the wallet cannot be told now (in words), else None. `holders`: Apple
    devices registered for updates; Google: 1 when a holder saved the pass, else 0.
    """

    issued: bool
    problem: str | None = None
    holders: int = 0
    notifications_left: int = 3


@dataclass(frozen=True)
class Notice:
    wallet: str  # "apple" | "google"
    text: str


def describe(definition: dict[str, Any], changes: list[dict[str, Any]], mode: str,
             apple: WalletFacts, google: WalletFacts) -> list[Notice]:
    """One sentence per wallet saying what the update does there (`changes` as
    `values.diff` gives them: key, label, from, to)."""
    shown = {f.get("key") for _group, f in definition_read.fields(definition)}
    visible = [c for c in changes if c.get("key") in shown]
    return [Notice("apple", _apple(definition, visible, mode, apple)),
            Notice("google", _google(definition, visible, mode, google))]


def _apple(definition: dict[str, Any], changes: list[dict[str, Any]], mode: str,
           facts: WalletFacts) -> str:
    if not facts.issued:
        return "Apple Wallet: this pass is not issued for Apple Wallet."
    if not changes:
        return "Apple Wallet: nothing changes on iPhones (the changed fields are not on the pass)."
    if facts.problem:
        return f"Apple Wallet: iPhones cannot be told: {facts.problem}"
    if facts.holders == 0:
        return ("Apple Wallet: no iPhone has this pass yet; it shows the new values when it "
                "is added.")
    one = facts.holders == 1
    who = "the iPhone with the pass" if one else f"the {facts.holders} iPhones with the pass"
    gets, shows = ("gets", "shows") if one else ("get", "show")
    if mode != "notify":
        return f"Apple Wallet: {who} {gets} the update silently (no message)."
    shown = [c for c in changes if c.get("to") is not None]
    if not shown:
        return (f"Apple Wallet: {who} {gets} the update silently (a cleared value has no "
                "message).")
    messages = " and ".join(f"“{apple_message(definition, c)}”" for c in shown)
    text = f"Apple Wallet: {who} {shows} {messages}."
    plain = [str(c.get("label") or c.get("key")) for c in shown
             if not _own_message(definition, c.get("key"))]
    if plain:
        text += (f" (No change message on {_and(plain)}: the label and new value are "
                 "shown.)")
    return text


def _google(definition: dict[str, Any], changes: list[dict[str, Any]], mode: str,
            facts: WalletFacts) -> str:
    if not facts.issued:
        return "Google Wallet: this pass is not issued for Google Wallet."
    if not changes:
        return "Google Wallet: nothing changes (the changed fields are not on the pass)."
    if facts.problem:
        return f"Google Wallet: not updated: {facts.problem}"
    if facts.holders == 0:
        return ("Google Wallet: nobody has saved this pass yet (as far as Google has told us); "
                "Google's copy gets the new values.")
    if mode != "notify":
        return "Google Wallet: the saved pass is updated silently (no message)."
    text = google_message(definition, changes).replace("\n", " / ")
    if facts.notifications_left <= 0:
        return (f"Google Wallet: the saved pass shows the message “{text}” without a "
                "notification (Google allows 3 per pass per 24 hours; all are used).")
    return f"Google Wallet: the holder's phone shows a notification “{text}”."


def apple_message(definition: dict[str, Any], change: dict[str, Any]) -> str:
    """What an iPhone says for one changed field: its change message (or `<label>: %@`,
    as `wallets.apple.pass_json.change_message`) with the new value in place of `%@`."""
    own = _own_message(definition, change.get("key"))
    if own is None:
        return f"{change.get('label') or ''}: {change.get('to')}"
    return own.replace("%@", str(change.get("to")))


def google_message(definition: dict[str, Any], changes: list[dict[str, Any]]) -> str:
    """The text of Google's message (as `services.google.push.summary` writes it)."""
    lines = []
    for change in changes:
        to, own = change.get("to"), _own_message(definition, change.get("key"))
        if to is None:
            lines.append(f"{change.get('label')}: -")
        elif own:
            lines.append(own.replace("%@", str(to)))
        else:
            lines.append(f"{change.get('label')}: {to}")
    return "\n".join(lines) or "Your pass was updated."


def _own_message(definition: dict[str, Any], key: object) -> str | None:
    for _group, field in definition_read.fields(definition):
        if field.get("key") == key:
            own = field.get("changeMessage")
            return own if isinstance(own, str) and "%@" in own else None
    return None


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def design_saved(before: int, after: int) -> str:
    """What saving a design did: a new revision for new passes; issued ones keep theirs."""
    if after == before:
        return "Saved. The design did not change, so there is no new revision."
    return (f"Saved as revision {after}. Passes issued from now on use it; passes already "
            f"issued keep revision {before}, so no wallet is updated.")


def design_before_save(current: int) -> str:
    """What saving the design will do, said by the save button."""
    return (f"Saving makes revision {current + 1} for passes issued from now on; passes "
            f"already issued keep their design and no wallet is updated.")
