"""A template's texts in several languages: the `defaultLanguage` and `translations` members
of a definition, their issues, a definition in one language, and a holder's language.

    "defaultLanguage": "en",
    "translations": {"de": {"organizationName": "...", "description": "...", "logoText": "...",
                            "fields": {"<key>": {"label": "...", "value": "...",
                                                 "changeMessage": "..."}},
                            "event": {"name": "...", "venue": {"name": "...",
                                                               "address": "..."}}}}

A translation has the definition's own member names and gives only the texts it changes;
what it leaves out stays in the default language. The definition's texts are the default
language's. Per-pass values are never translated (each pass brings its own), nor are
shared values of number or date fields (wallets format those in the reader's language).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Iterator
from typing import Any

DEFAULT_LANGUAGE = "en"
MAX_LANGUAGES = 30  # besides the default; the definition's size bounds the texts as well
# language[-Script][-REGION]: `en`, `de`, `fr-CA`, `zh-Hans`, `es-419` (BCP 47's common
# part, written in its canonical case so a tag names one `.lproj` folder).
_TAG = re.compile(r"[a-z]{2,3}(-[A-Z][a-z]{3})?(-(?:[A-Z]{2}|[0-9]{3}))?")
_TAG_HINT = "a language tag like en, de, fr-CA or zh-Hans"
# Member -> (shortest, longest), as the definition bounds the same text.
_TOP = {"organizationName": (1, 64), "description": (1, 200), "logoText": (1, 64)}
_FIELD = {"label": (1, 64), "value": (1, 500), "changeMessage": (1, 200)}
_EVENT = {"name": (1, 200)}
_VENUE = {"name": (1, 200), "address": (1, 500)}
_MEMBERS_HINT = "a translation has organizationName, description, logoText, fields and event"

Found = tuple[tuple[str, ...], str, str]  # (path, code, message)


def default_language(definition: object) -> str:
    """The language of the definition's own texts (`en` unless it says otherwise)."""
    value = definition.get("defaultLanguage") if isinstance(definition, dict) else None
    return value if isinstance(value, str) and value else DEFAULT_LANGUAGE


def languages(definition: object) -> list[str]:
    """The translated languages, in definition order (the default one not among them)."""
    given = definition.get("translations") if isinstance(definition, dict) else None
    if not isinstance(given, dict):
        return []
    default = default_language(definition)
    return [tag for tag, texts in given.items()
            if isinstance(tag, str) and tag != default and isinstance(texts, dict)]


def localize(definition: dict[str, Any], language: str) -> dict[str, Any]:
    """The definition with its texts in `language` (itself for the default or an unknown
    language); `translations` is left out of the copy."""
    given = definition.get("translations")
    texts = given.get(language) if isinstance(given, dict) else None
    if language == default_language(definition) or not isinstance(texts, dict):
        return definition
    out = copy.deepcopy({k: v for k, v in definition.items() if k != "translations"})
    for member in _TOP:
        if isinstance(texts.get(member), str) and out.get(member):
            out[member] = texts[member]
    given_fields = _object(texts.get("fields"))
    for field in _fields(out):
        key = field.get("key")
        own = given_fields.get(key) if isinstance(key, str) else None
        if not isinstance(own, dict):
            continue
        for member in _FIELD:
            if isinstance(own.get(member), str) and translatable(field, member):
                field[member] = own[member]
    event, own_event = out.get("event"), texts.get("event")
    if isinstance(event, dict) and isinstance(own_event, dict):
        _copy_texts(event, own_event, _EVENT)
        if isinstance(event.get("venue"), dict) and isinstance(own_event.get("venue"), dict):
            _copy_texts(event["venue"], own_event["venue"], _VENUE)
    return out


def negotiate(accepted: Iterable[str], definition: object) -> str:
    """The language to show a reader whose languages are `accepted` (best first): the first
    one the definition has, exactly or by its primary tag (`de-AT` reads `de`), else the
    default language."""
    default = default_language(definition)
    available = [default, *languages(definition)]
    by_lower = {tag.lower(): tag for tag in available}
    for wanted in accepted:
        tag = wanted.replace("_", "-").lower()
        if tag in by_lower:
            return by_lower[tag]
        primary = tag.split("-", 1)[0]
        if primary in by_lower:
            return by_lower[primary]
        for other in available:
            if other.lower().split("-", 1)[0] == primary:
                return other
    return default


def issues(definition: dict[str, Any], template_type: str | None) -> list[Found]:
    """The problems of the definition's `defaultLanguage` and `translations` members."""
    found: list[Found] = []
    if "defaultLanguage" in definition:
        value = definition["defaultLanguage"]
        if not isinstance(value, str):
            found.append((("defaultLanguage",), "invalid_type",
                          f"defaultLanguage must be a string, not {_json_type(value)}."))
        elif _TAG.fullmatch(value) is None:
            found.append((("defaultLanguage",), "invalid_value",
                          f"defaultLanguage must be {_TAG_HINT}."))
    if "translations" in definition:
        _Translations(definition, template_type, found).check(definition["translations"])
    return found


# ---- helpers ------------------------------------------------------------------------------

def _fields(definition: dict[str, Any]) -> Iterator[dict[str, Any]]:
    config = definition.get("config")
    groups = config.get("fields") if isinstance(config, dict) else None
    for items in groups.values() if isinstance(groups, dict) else ():
        for item in items if isinstance(items, list) else ():
            if isinstance(item, dict):
                yield item


def translatable(field: dict[str, Any], member: str) -> bool:
    """Whether a definition's field has this text to translate: a label, a change message,
    and the value of a shared text field."""
    if member == "value":
        return (field.get("binding") == "shared" and field.get("format", "text") == "text"
                and isinstance(field.get("value"), str) and bool(field.get("value")))
    if member == "label":
        return isinstance(field.get("label"), str) and bool(field.get("label"))
    return True  # a field without its own change message has one made from its label


def _object(value: object) -> dict[str, Any]:
    """`value` when it is an object, else an empty one."""
    return value if isinstance(value, dict) else {}


def _copy_texts(target: dict[str, Any], texts: dict[str, Any], members: dict) -> None:
    for member in members:
        if isinstance(texts.get(member), str) and target.get(member):
            target[member] = texts[member]


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int | float, "a number"), (str, "a string"),
                       (list, "an array"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return "an unsupported value"


def _name(path: tuple[str, ...]) -> str:
    return ".".join(part if len(part) <= 40 else part[:40] + "..." for part in path)


def _wordings(definition: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], str]]:
    """(path, text) for each text of the definition a translation can change, including the
    change message a field without its own makes from its label (`<label>: %@`)."""
    for member in _TOP:
        if isinstance(definition.get(member), str) and definition[member]:
            yield (member,), definition[member]
    for field in _fields(definition):
        key = field.get("key")
        if not isinstance(key, str):
            continue
        for member in _FIELD:
            value = field.get(member)
            if member == "changeMessage" and not isinstance(value, str) and \
                    isinstance(field.get("label"), str) and field["label"]:
                value = field["label"].replace("%", "%%") + ": %@"
            if isinstance(value, str) and value and translatable(field, member):
                yield ("config", "fields", key, member), value
    event = _object(definition.get("event"))
    if isinstance(event.get("name"), str) and event["name"]:
        yield ("event", "name"), event["name"]
    venue = _object(event.get("venue"))
    for member in _VENUE:
        if isinstance(venue.get(member), str) and venue[member]:
            yield ("event", "venue", member), venue[member]


class _Translations:
    """The checks of `translations`, adding to `found`."""

    def __init__(self, definition: dict[str, Any], template_type: str | None,
                 found: list[Found]) -> None:
        self.definition = definition
        self.template_type = template_type
        self.found = found
        self.fields = {f["key"]: f for f in _fields(definition) if isinstance(f.get("key"), str)}

    def add(self, path: tuple[str, ...], code: str, message: str) -> None:
        self.found.append((path, code, message))

    def check(self, value: object) -> None:
        path = ("translations",)
        if not isinstance(value, dict):
            self.add(path, "invalid_type",
                     f"translations must be an object, not {_json_type(value)}.")
            return
        if len(value) > MAX_LANGUAGES:  # the languages past the limit are not looked at
            self.add(path, "too_many",
                     f"translations can hold at most {MAX_LANGUAGES} languages.")
        default = default_language(self.definition)
        for tag, texts in list(value.items())[:MAX_LANGUAGES]:
            member = (*path, tag if isinstance(tag, str) else f"<{type(tag).__name__} key>")
            if not isinstance(tag, str) or _TAG.fullmatch(tag) is None:
                self.add(member, "invalid_key", f"{_name(member)} must be keyed by {_TAG_HINT}.")
            elif tag == default:
                self.add(member, "conflicting_member",
                         f"{_name(member)} is the default language: its texts are the "
                         "definition's own.")
            else:
                self.language(texts, member)

    def language(self, value: object, path: tuple[str, ...]) -> None:
        texts = self.expect_object(value, path)
        if texts is None:
            return
        for key in texts:
            if key not in (*_TOP, "fields", "event"):
                where = (*path, str(key))
                self.add(where, "unknown_member", f"{_name(where)} is not allowed: "
                                                  f"{_MEMBERS_HINT}.")
        for member, bounds in _TOP.items():
            if member in texts and self.text(texts, member, path, bounds) is not None \
                    and not self.definition.get(member):
                self.absent((*path, member), f"the definition has no {member}")
        if "fields" in texts:
            self.fields_(texts["fields"], (*path, "fields"))
        if "event" in texts:
            self.event(texts["event"], (*path, "event"))
        self.one_wording(texts, path)

    def fields_(self, value: object, path: tuple[str, ...]) -> None:
        given = self.expect_object(value, path)
        for key, texts in (given or {}).items():
            member = (*path, str(key))
            field = self.fields.get(key)
            if field is None:
                self.add(member, "unknown_member",
                         f"{_name(member)} is not allowed: the definition has no field {key}.")
                continue
            own = self.expect_object(texts, member)
            for name in own or {}:
                if name not in _FIELD:
                    self.add((*member, str(name)), "unknown_member",
                             f"{_name((*member, str(name)))} is not allowed: a field's "
                             "translation has label, value and changeMessage.")
            for name, bounds in _FIELD.items():
                if own is None or name not in own:
                    continue
                text = self.text(own, name, member, bounds)
                if text is None:
                    continue
                if not translatable(field, name):
                    self.absent((*member, name), self.why_not(field, name))
                elif name == "changeMessage" and "%@" not in text:
                    self.add((*member, name), "invalid_change_message",
                             f"{_name((*member, name))} must contain %@ where the new "
                             "value goes.")

    def why_not(self, field: dict[str, Any], member: str) -> str:
        if member == "label":
            return "the field has no label"
        if field.get("binding") != "shared":
            return "each pass brings its own value, which stays as given"
        return "wallets write numbers and dates in the reader's language themselves"

    def event(self, value: object, path: tuple[str, ...]) -> None:
        event = self.definition.get("event")
        if self.template_type == "generic" or not isinstance(event, dict):
            self.absent(path, "the definition has no event")
            return
        texts = self.expect_object(value, path)
        if texts is None:
            return
        self.known(texts, path, (*_EVENT, "venue"), "an event's translation has name and venue")
        if "name" in texts:
            self.text(texts, "name", path, _EVENT["name"])
        if "venue" not in texts:
            return
        venue_path = (*path, "venue")
        venue = self.expect_object(texts["venue"], venue_path)
        if venue is None:
            return
        self.known(venue, venue_path, tuple(_VENUE), "a venue's translation has name and address")
        own_venue = _object(event.get("venue"))
        for member, bounds in _VENUE.items():
            if member in venue and self.text(venue, member, venue_path, bounds) is not None \
                    and not own_venue.get(member):
                self.absent((*venue_path, member), f"the venue has no {member}")

    def one_wording(self, texts: dict[str, Any], path: tuple[str, ...]) -> None:
        """Apple Wallet finds a translation by the default wording of a text, wherever that
        wording appears: texts with one wording must read alike in each language, translated
        the same way or not at all, or the wallets would disagree."""
        language = path[-1]
        shown = dict(_wordings(localize(self.definition, language)))
        seen: dict[str, tuple[tuple[str, ...], str]] = {}
        for member, original in _wordings(self.definition):
            text = shown.get(member, original)
            where = self.translated_path(texts, path, member)
            first = seen.setdefault(original, (where or member, text))
            if first[1] == text:
                continue
            if where is None:  # report where a translation is: that is what to change
                where, text, first = first[0], first[1], (member, text)
            self.add(where, "conflicting_member",
                     f"{_name(where)} reads \"{original[:40]}\" as \"{text[:40]}\", but "
                     f"{_name(first[0])} has the same wording and reads \"{first[1][:40]}\" "
                     f"in {language}; Apple Wallet translates a wording wherever it appears, "
                     "so give both the same translation or neither.")

    @staticmethod
    def translated_path(texts: dict[str, Any], path: tuple[str, ...],
                        member: tuple[str, ...]) -> tuple[str, ...] | None:
        """Where this language translates the definition's text at `member`, if it does."""
        if member[:2] == ("config", "fields"):  # ("config", "fields", key, name)
            own = _object(_object(texts.get("fields")).get(member[2]))
            return (*path, "fields", member[2], member[3]) if member[3] in own else None
        node: object = texts
        for part in member:
            node = _object(node).get(part)
        return (*path, *member) if isinstance(node, str) else None

    def text(self, obj: dict[str, Any], member: str, path: tuple[str, ...],
             bounds: tuple[int, int]) -> str | None:
        """The member as a string within bounds, else None (with its issue)."""
        where = (*path, member)
        value = obj[member]
        if not isinstance(value, str):
            self.add(where, "invalid_type",
                     f"{_name(where)} must be a string, not {_json_type(value)}.")
            return None
        low, high = bounds
        if len(value) < low:
            self.add(where, "too_short", f"{_name(where)} must not be empty.")
            return None
        if len(value) > high:
            self.add(where, "too_long", f"{_name(where)} must be at most {high} characters.")
            return None
        return value

    def expect_object(self, value: object, path: tuple[str, ...]) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.add(path, "invalid_type", f"{_name(path)} must be an object, not "
                                       f"{_json_type(value)}.")
        return None

    def known(self, obj: dict[str, Any], path: tuple[str, ...], members: tuple[str, ...],
              hint: str) -> None:
        for key in obj:
            if key not in members:
                member = (*path, str(key))
                self.add(member, "unknown_member", f"{_name(member)} is not allowed: {hint}.")

    def absent(self, path: tuple[str, ...], why: str) -> None:
        self.add(path, "not_allowed", f"{_name(path)} has nothing to translate: {why}.")
