"""The template designer's form: definition -> form state -> definition, edit operations,
and where each definition issue belongs on the form.

The form state (`state.FormState`) is a plain dict of strings, lists and booleans (what the
inputs hold). The page never edits JSON: `to_definition` builds the definition from the
inputs; on save (`for_save`) `keep` carries over what the form has no input for, and
`settle` keeps the original's spelling of equal values (a date in another notation, `42`
typed as text, an omitted default) so that saving an untouched form creates no new
revision.

- `state`: the shape of the form state.
- `reading`: the form state from a stored definition or from the posted inputs.
- `writing`: the definition the form describes; the starter design of a new template.
- `spelling`: `settle`, the original's words for equal values.
- `keeping`: `keep`, the stored members the form cannot show, kept on save.
- `edits`: the buttons that change the form's shape (add, move, remove a row).
- `issues`: the input a definition issue belongs to, and the issue in words.
- `languages`: the translations' inputs, a column per language.
- `contrast`: colour pairs below WCAG AA, as warnings that do not block saving.
"""

from __future__ import annotations

from webapp.dashboard.designer.contrast import warnings as contrast_warnings
from webapp.dashboard.designer.edits import apply
from webapp.dashboard.designer.issues import input_for, place, words
from webapp.dashboard.designer.keeping import keep
from webapp.dashboard.designer.languages import rows as translation_rows
from webapp.dashboard.designer.reading import from_definition, from_form
from webapp.dashboard.designer.state import GROUP_LABELS, FormState
from webapp.dashboard.designer.writing import for_save, starter, to_definition

__all__ = [
    "GROUP_LABELS",
    "FormState",
    "apply",
    "contrast_warnings",
    "for_save",
    "from_definition",
    "from_form",
    "input_for",
    "keep",
    "place",
    "starter",
    "to_definition",
    "translation_rows",
    "words",
]
