"""The designer's translations: a column of inputs per language next to the default texts.

Each translated text has one input, named `tr.<language>.<text>` where `<text>` says which
text it translates: `organizationName`, `description`, `logoText`, `fields.<key>.label`,
`fields.<key>.value`, `fields.<key>.changeMessage`, `event.name`, `event.venue.name`,
`event.venue.address`. The languages are the hidden `languages` inputs, in column order
(a language with no text yet is kept); an empty input means "as in the default language".
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from webapp.dashboard.designer.state import FormState
from webapp.domain import translations as rules

_TOP = (("organizationName", "Organization name"), ("description", "Description"),
        ("logoText", "Logo text"))
_FIELD = (("label", "label"), ("value", "shared value"), ("changeMessage", "change message"))
# (text, words, its path in a translation's `event`, the form's event input)
_EVENT = (("event.name", "Event name", ("name",), "name"),
          ("event.venue.name", "Venue", ("venue", "name"), "venue_name"),
          ("event.venue.address", "Venue address", ("venue", "address"), "venue_address"))


def from_definition(definition: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Language -> {text: its translation} of a stored definition."""
    given = definition.get("translations")
    out: dict[str, dict[str, str]] = {}
    for language, texts in (given.items() if isinstance(given, dict) else ()):
        if not isinstance(texts, dict):
            continue
        flat = {member: texts[member] for member, _ in _TOP
                if isinstance(texts.get(member), str)}
        for key, own in (texts.get("fields") or {}).items():
            for member, _ in _FIELD:
                if isinstance(own, dict) and isinstance(own.get(member), str):
                    flat[f"fields.{key}.{member}"] = own[member]
        event = texts.get("event") if isinstance(texts.get("event"), dict) else {}
        for name, _words, path, _input in _EVENT:
            value = _dig(event, path)
            if isinstance(value, str):
                flat[name] = value
        out[str(language)] = flat
    return out


def from_form(form: MultiDict[str, str]) -> dict[str, dict[str, str]]:
    """Language -> {text: its translation} as posted (the languages in column order)."""
    out: dict[str, dict[str, str]] = {language: {} for language in form.getlist("languages")
                                      if language}
    for name, value in form.items():
        if name.startswith("tr."):
            language, _, text = name[3:].partition(".")
            if language in out and text:
                out[language][text] = value
    return out


def to_definition(state: FormState, template_type: str) -> dict[str, dict[str, Any]]:
    """The `translations` member the form describes: for each language, the texts given
    for what the design has now (a renamed field's translations go with its old key)."""
    return {language: _translation(state, texts, template_type)
            for language, texts in state["translations"].items()}


def _translation(state: FormState, texts: dict[str, str], template_type: str
                 ) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, _words, _default in rows(state, template_type):
        value = texts.get(name, "").strip()
        if not value:
            continue
        parts = name.split(".")
        if parts[0] == "fields":
            out.setdefault("fields", {}).setdefault(parts[1], {})[parts[2]] = value
        elif parts[0] == "event":
            target = out.setdefault("event", {})
            if len(parts) == 3:
                target = target.setdefault("venue", {})
            target[parts[-1]] = value
        else:
            out[name] = value
    return out


def rows(state: FormState, template_type: str) -> list[tuple[str, str, str]]:
    """(text, what it is in words, the default language's text) for each text the design
    has to translate, in the order of the form."""
    top = {"organizationName": state["organizationName"],
           "description": state["description"], "logoText": state["logoText"]}
    out = [(member, words, top[member].strip()) for member, words in _TOP
           if top[member].strip()]
    for group_rows in state["groups"].values():
        for row in group_rows:
            key = row["key"].strip()
            if not key:
                continue
            field = {"label": row["label"].strip(), "binding": row["binding"],
                     "format": row["format"] or "text", "value": row["value"].strip(),
                     "changeMessage": row["changeMessage"].strip()}
            name = field["label"] or key
            for member, words in _FIELD:
                if rules.translatable(field, member):
                    default = field[member] or (f"{field['label']}: %@" if field["label"]
                                                else "%@")
                    out.append((f"fields.{key}.{member}", f"{name}: {words}", default))
    if template_type == "event_ticket":
        event: dict[str, Any] = dict(state["event"])
        for name, words, _path, source in _EVENT:
            default = str(event.get(source) or "").strip()
            if default:
                out.append((name, words, default))
    return out


def add(state: FormState) -> None:
    """Add the language typed into the new-language input (trimmed), if it is not there."""
    language = state["newLanguage"].strip()
    if language and language not in state["translations"] \
            and len(state["translations"]) < rules.MAX_LANGUAGES:
        state["translations"][language] = {}
        state["previewLanguage"] = language
    state["newLanguage"] = ""


def remove(state: FormState, language: str) -> None:
    """Drop a language's column and its texts."""
    state["translations"].pop(language, None)
    if state["previewLanguage"] == language:
        state["previewLanguage"] = ""


def input_for(parts: list[str]) -> str:
    """The input a `/translations/...` issue belongs to: a text's, else the language's."""
    if len(parts) == 1:
        return "languages"
    if len(parts) == 2:
        return f"lang.{parts[1]}"
    return "tr." + ".".join(parts[1:])


def subject(tokens: list[str]) -> tuple[str, str | None] | None:
    """Who has a `/translations/...` issue and which of its parts, for `issues.words`:
    ("The de translation of field seat", "label")."""
    if len(tokens) < 2:
        return None
    owner = f"The {tokens[1]} translation"
    rest = tokens[2:]
    if not rest:
        return owner, None
    if len(rest) == 1:
        return owner, dict(_TOP).get(rest[0], rest[0]).lower()
    if rest[0] == "fields":
        field = f"{owner} of field {rest[1]}"
        return (field, dict(_FIELD).get(rest[2], rest[2])) if len(rest) > 2 else (field, None)
    if rest[0] == "event":
        return f"{owner} of the event", " ".join(rest[1:]).replace("venue name", "venue")
    return None


def _dig(value: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value
