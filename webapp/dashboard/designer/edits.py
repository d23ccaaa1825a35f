"""Edit operations: the buttons that change the form's shape, not the template.

An operation is `verb` or `verb:argument`: `add:header`, `remove:back:0`, `up:secondary:2`,
`down:primary:0`, `addloc`, `removeloc:1`, `clearimg:logo`, `addlang` (the language typed
next to it), `removelang:de`. One that does not apply (an
unknown verb, a row that is not there) leaves the form as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from webapp.dashboard.designer import languages
from webapp.dashboard.designer.state import FieldRow, FormState
from webapp.domain import definition as rules


def apply(state: FormState, op: str) -> FormState:
    """The form state after the operation `op`."""
    state = copy.deepcopy(state)
    verb, _, argument = op.partition(":")
    edit = _EDITS.get(verb)
    if edit is not None:
        edit(state, argument)
    return state


def _add_field(state: FormState, argument: str) -> None:
    rows = state["groups"].get(argument.partition(":")[0])
    if rows is not None:
        rows.append(_new_field(state))


def _remove_field(state: FormState, argument: str) -> None:
    found = _row(state, argument)
    if found is not None:
        rows, index = found
        rows.pop(index)


def _move_field(state: FormState, argument: str, step: int) -> None:
    found = _row(state, argument)
    if found is None:
        return
    rows, index = found
    other = index + step
    if 0 <= other < len(rows):
        rows[index], rows[other] = rows[other], rows[index]


def _row(state: FormState, argument: str) -> tuple[list[FieldRow], int] | None:
    """The rows of the group `argument` names and the index of the row it names, if any."""
    group, _, index_text = argument.partition(":")
    rows = state["groups"].get(group)
    index = int(index_text) if index_text.isdecimal() else -1
    if rows is None or not 0 <= index < len(rows):
        return None
    return rows, index


def _new_field(state: FormState) -> FieldRow:
    taken = {row["key"] for rows in state["groups"].values() for row in rows}
    number = 1
    while f"field{number}" in taken:
        number += 1
    return {"key": f"field{number}", "label": f"Field {number}", "binding": "perPass",
            "value": "", "required": False, "format": "text", "changeMessage": ""}


def _add_location(state: FormState, argument: str) -> None:
    if len(state["locations"]) < rules.MAX_LOCATIONS:
        state["locations"].append({"latitude": "", "longitude": "", "relevantText": ""})


def _remove_location(state: FormState, argument: str) -> None:
    if argument.isdecimal() and int(argument) < len(state["locations"]):
        state["locations"].pop(int(argument))


def _clear_image(state: FormState, argument: str) -> None:
    state["images"].pop(argument, None)


_EDITS: dict[str, Callable[[FormState, str], None]] = {
    "add": _add_field,
    "remove": _remove_field,
    "up": lambda state, argument: _move_field(state, argument, -1),
    "down": lambda state, argument: _move_field(state, argument, 1),
    "addloc": _add_location,
    "removeloc": _remove_location,
    "clearimg": _clear_image,
    "addlang": lambda state, argument: languages.add(state),
    "removelang": languages.remove,
}
