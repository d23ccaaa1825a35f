"""Taking an erased holder's data out of stored JSON (events, idempotent answers, update
records, bulk inputs): issue 33, "Erasure" in docs/decisions.md.

What is personal: the members that name the holder (`PERSONAL_KEYS`), per-pass values
(`fieldValues`, a change's `from`/`to`), tags (`tags`), and any text that is or contains one
of the pass's values (`secrets`: error messages, previews, the address an email went to).
"""

from __future__ import annotations

from typing import Any

PERSONAL_KEYS = frozenset({"holderName", "holderEmail", "barcodeValue", "externalId", "to",
                           "from", "location"})
VALUE_KEYS = frozenset({"fieldValues"})
LIST_KEYS = frozenset({"tags"})  # a pass's (or a request's) tags: the list is emptied
# A value this short ("1", "No") is only taken out where it stands alone: inside other text
# it would cut unrelated words.
MIN_INNER = 4


def scrub(value: Any, secrets: frozenset[str]) -> Any:
    """`value` (parsed JSON) without the personal members and the `secrets`."""
    if isinstance(value, dict):
        return {key: (None if key in PERSONAL_KEYS and not isinstance(item, (dict, list))
                      else {} if key in VALUE_KEYS and isinstance(item, dict)
                      else [] if key in LIST_KEYS and isinstance(item, list)
                      else scrub(item, secrets))
                for key, item in value.items()}
    if isinstance(value, list):
        return [scrub(item, secrets) for item in value]
    if isinstance(value, str):
        return scrub_text(value, secrets, whole=True)
    return value


def scrub_text(text: str, secrets: frozenset[str], *, whole: bool = False) -> Any:
    """`text` with every long enough secret cut out; with `whole`, None if it is one."""
    if whole and text in secrets:
        return None
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= MIN_INNER and secret in text:
            text = text.replace(secret, "")
    return text


def mentions(text: str, secrets: frozenset[str]) -> bool:
    """Whether `text` holds one of the long enough secrets."""
    return any(len(secret) >= MIN_INNER and secret in text for secret in secrets)


def secrets_of(*values: Any) -> frozenset[str]:
    """The text of personal values (strings and numbers, nested in dicts and lists)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value.strip():
            found.add(value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            found.add(str(value))

    for value in values:
        walk(value)
    return frozenset(found)
