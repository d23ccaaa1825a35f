"""What a restricted API key may do: a level per resource (see the notes on restricted keys).

A key's permissions are a mapping {resource: level}, or None for full access (every key made
before restricted keys, and every key made without a choice). Levels are ordered
none < read < write: write implies read. A resource missing from a stored mapping is `none`,
so a resource added later is closed to restricted keys until someone opens it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# A new resource joins with one line here (and a `permission=` on its routes).
RESOURCES = ("templates", "assets", "passes", "download_links", "webhooks", "events",
             "redemptions", "bulk_jobs", "insights")
LEVELS = ("none", "read", "write")
_RANK = {level: rank for rank, level in enumerate(LEVELS)}

Permissions = dict[str, str]


class InvalidPermissions(ValueError):
    """A permissions mapping, a preset or a `resource=level` text that is not understood."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Need:
    """What a route asks of a key: `level` (read or write) on `resource`."""

    resource: str
    level: str

    def __post_init__(self) -> None:
        if self.resource not in RESOURCES or self.level not in ("read", "write"):
            raise ValueError(f"A route cannot need {self.resource}:{self.level}.")

    def __str__(self) -> str:
        return f"{self.resource}:{self.level}"

    def refusal(self) -> str:
        """The message a key without this permission gets."""
        return (f"This API key cannot {self.level} {_words(self.resource)}: "
                f"it needs the {self} permission.")


def allows(permissions: Mapping[str, str] | None, need: Need) -> bool:
    """Whether a key with these permissions (None: full access) may do what `need` names."""
    if permissions is None:
        return True
    return _RANK.get(permissions.get(need.resource, "none"), 0) >= _RANK[need.level]


def validate(value: object) -> Permissions:
    """A restricted key's permissions with every resource (those left out: none).

    :raises InvalidPermissions: not a mapping, an unknown resource or an unknown level.
    """
    if not isinstance(value, Mapping):
        raise InvalidPermissions("permissions must map resources to levels.")
    for resource, level in value.items():
        if resource not in RESOURCES:
            raise InvalidPermissions(f"Unknown resource {_shown(resource)} in permissions: "
                                     f"use {_either(RESOURCES)}.")
        if level not in LEVELS:
            raise InvalidPermissions(f"Unknown level {_shown(level)} for {resource}: "
                                     f"use {_either(LEVELS)}.")
    return {resource: value.get(resource, "none") for resource in RESOURCES}


def complete(permissions: Mapping[str, str] | None) -> Permissions | None:
    """A stored mapping as keys report it: every resource named (None stays full access)."""
    if permissions is None:
        return None
    return {resource: permissions.get(resource, "none") for resource in RESOURCES}


def parse(text: str) -> Permissions:
    """`passes=write,templates=read` (the CLI's form) as permissions; the rest is none.

    :raises InvalidPermissions: a pair without `=`, a resource named twice, or what
        `validate` refuses.
    """
    chosen: dict[str, str] = {}
    for pair in (part.strip() for part in text.split(",")):
        resource, equals, level = (side.strip() for side in pair.partition("="))
        if not equals or not resource:
            raise InvalidPermissions(f"Write permissions as resource=level pairs separated by "
                                     f"commas, such as passes=write,templates=read; "
                                     f"not {_shown(pair)}.")
        if resource in chosen:
            raise InvalidPermissions(f"{_shown(resource)} is named twice in permissions.")
        chosen[resource] = level
    return validate(chosen)


@dataclass(frozen=True)
class Preset:
    """A named set of permissions offered when a key is made."""

    name: str
    label: str
    description: str
    permissions: Mapping[str, str] | None


def _only(**levels: str) -> Permissions:
    return validate(levels)


PRESETS = (
    Preset("full_access", "Full access",
           "Everything the API can do in the key's environment, now and as it grows.", None),
    Preset("read_only", "Read only",
           "Reads every resource and changes nothing: for reporting and monitoring.",
           _only(**dict.fromkeys(RESOURCES, "read"))),
    Preset("issue_passes", "Issue passes",
           "Issues, updates and voids passes and makes their download links; reads templates "
           "and assets: for a shop front or a CRM.",
           _only(passes="write", download_links="write", templates="read", assets="read")),
)
CUSTOM = "custom"


def preset(name: str) -> Preset:
    """The preset called `name`.

    :raises InvalidPermissions: no such preset.
    """
    for candidate in PRESETS:
        if candidate.name == name:
            return candidate
    raise InvalidPermissions(f"Unknown preset {_shown(name)}: use "
                             f"{_either(tuple(p.name for p in PRESETS))}.")


def preset_of(permissions: Mapping[str, str] | None) -> Preset | None:
    """The preset these permissions are, or None for a custom set."""
    wanted = complete(permissions)
    return next((p for p in PRESETS if complete(p.permissions) == wanted), None)


def describe(permissions: Mapping[str, str] | None) -> str:
    """The access in words: "Full access", "Read only", or "Custom: write passes; read ..."."""
    known = preset_of(permissions)
    if known is not None:
        return known.label
    if set((complete(permissions) or {}).values()) == {"none"}:
        return "No access (GET /v1/me only)"
    return f"Custom: {details(permissions)}"


def details(permissions: Mapping[str, str] | None) -> str:
    """What permissions allow, in words ("write passes; read templates, assets")."""
    levels = complete(permissions)
    if levels is None:
        return "read and write every resource"
    parts = [f"{level} {', '.join(_words(r) for r in RESOURCES if levels[r] == level)}"
             for level in ("write", "read") if level in levels.values()]
    return "; ".join(parts) or "nothing"


def _words(resource: str) -> str:
    return resource.replace("_", " ")


def _either(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1]


def _shown(value: object) -> str:
    """A value from outside, quoted and cut short for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
