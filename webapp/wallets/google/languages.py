"""A Google Wallet class or object in several languages: one body, its texts translated.

Google shows a `LocalizedString`'s `translatedValues` entry for the reader's language and
its `defaultValue` otherwise. The builders in `objects` write one language; `merge` takes
the body built from the default definition and the bodies built from each translated one
(same shape, other words), and writes every text that differs as a translated value.
Plain-text members that have a localized twin (a text module's `header` and `body`, an
event ticket's `issuerName`) get the twin when a language changes them.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

# Plain-text member -> its LocalizedString twin (Google's TextModuleData, EventTicketClass).
TWINS = {"header": "localizedHeader", "body": "localizedBody",
         "issuerName": "localizedIssuerName"}


def merge(default: dict[str, Any], translated: Mapping[str, dict[str, Any]],
          default_language: str) -> dict[str, Any]:
    """`default` with `defaultValue.language` set to `default_language` and, wherever a body
    of `translated` (language -> body) says something else, its words as `translatedValues`."""
    out = copy.deepcopy(default)
    _walk(out, dict(translated), default_language)
    return out


def _walk(node: Any, others: dict[str, Any], language: str) -> None:
    """Fill `node` in place; `others` holds the node at the same place in each language."""
    if isinstance(node, list):
        for index, item in enumerate(node):
            _walk(item, {lang: _at(other, index) for lang, other in others.items()}, language)
        return
    if not isinstance(node, dict):
        return
    if isinstance(node.get("defaultValue"), dict):
        node["defaultValue"]["language"] = language
        values = [_value(other) for other in others.values()]
        _translate(node, node["defaultValue"].get("value"), dict(zip(others, values, strict=True)))
        return
    for key in list(node):
        twin = TWINS.get(key)
        if twin and isinstance(node[key], str) and twin not in node:
            texts = {lang: other.get(key) if isinstance(other, dict) else None
                     for lang, other in others.items()}
            localized = {"defaultValue": {"language": language, "value": node[key]}}
            if _translate(localized, node[key], texts):
                node[twin] = localized
            continue
        _walk(node[key], {lang: other.get(key) if isinstance(other, dict) else None
                          for lang, other in others.items()}, language)


def _translate(target: dict[str, Any], original: Any, texts: Mapping[str, Any]) -> bool:
    """Add `translatedValues` for the languages whose text differs; whether any did."""
    values = [{"language": lang, "value": text} for lang, text in texts.items()
              if isinstance(text, str) and text and text != original]
    if values:
        target["translatedValues"] = values
    return bool(values)


def _value(localized: Any) -> Any:
    default = localized.get("defaultValue") if isinstance(localized, dict) else None
    return default.get("value") if isinstance(default, dict) else None


def _at(items: Any, index: int) -> Any:
    return items[index] if isinstance(items, list) and index < len(items) else None
