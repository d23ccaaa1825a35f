"""Find one row by its ID within a scope, or answer 404: the services' common lookup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, select

from webapp import ids
from webapp.errors import NotFound
from webapp.extensions import db

T = TypeVar("T")


def find_or_404(model: type[T], id_: object, *, prefix: str, what: str, param: str = "id",
                where: Iterable[ColumnElement[bool]] = (), **scope: Any) -> T:
    """The `model` row whose ID is `id_` and whose columns equal `scope`
    (`organization_id=..., environment=...`) and which meets `where`.

    An ID without the `prefix` is not looked up.

    :raises NotFound: `No such {what}: {id_}`, naming `param`.
    """
    row = None
    if ids.has_prefix(id_, prefix):
        row = db.session.scalar(select(model).where(
            getattr(model, "id") == id_,  # noqa: B009 - every model has `id`; T does not say so
            *(getattr(model, column) == value for column, value in scope.items()), *where))
    if row is None:
        raise NotFound(f"No such {what}: {id_}", param=param)
    return row
