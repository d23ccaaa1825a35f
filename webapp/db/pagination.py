"""One cursor pagination for every list (decisions.md section 3).

IDs sort by creation time (`webapp.ids`), so newest first is `ORDER BY id DESC` and the
cursor is simply the ID of the last item of the previous page, as the spec shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import InstrumentedAttribute

from webapp.errors import InvalidRequest
from webapp.extensions import db

T = TypeVar("T")

DEFAULT_LIMIT = 25
MAX_LIMIT = 100


@dataclass(frozen=True)
class Page(Generic[T]):
    data: list[T]
    has_more: bool

    @property
    def next_cursor(self) -> str | None:
        """The last item's ID when there is more, else None."""
        return getattr(self.data[-1], "id", None) if self.has_more and self.data else None


def paginate(
    query: Select[Any],
    id_column: InstrumentedAttribute[str],
    scope: Select[Any],
    *,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    order_column: Any = None,
) -> Page[Any]:
    """One page of `query`, newest first.

    `scope` selects the rows the cursor may name (the list's tenant scope, without its
    filters, so an item that left a filter between two pages still works as a cursor).
    `order_column`: another column equal to `id_column` in `query` to sort and page by (a
    joined table's, whose index gives the order), if not `id_column` itself.

    :raises InvalidRequest: the limit is out of range or the cursor names no item in scope.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest(
            f"limit must be an integer from 1 to {MAX_LIMIT}.", code="parameter_invalid",
            param="limit",
        )
    order = order_column if order_column is not None else id_column
    if cursor is not None:
        known = db.session.scalar(select(scope.where(id_column == cursor).exists()))
        if not known:
            raise InvalidRequest(
                "cursor does not name an item of this list.", code="invalid_cursor",
                param="cursor",
            )
        query = query.where(order < cursor)
    rows = list(db.session.scalars(query.order_by(order.desc()).limit(limit + 1)))
    return Page(data=rows[:limit], has_more=len(rows) > limit)
