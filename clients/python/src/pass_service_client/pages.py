"""Every item of a list operation, page after page (`cursor` = the last page's nextCursor)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from pass_service_client.openapi.models.error import Error
from pass_service_client.openapi.types import UNSET, Unset

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Page(Protocol[T_co]):
    """What every list envelope has."""

    @property
    def data(self) -> Sequence[T_co]: ...

    @property
    def has_more(self) -> bool: ...

    @property
    def next_cursor(self) -> str | None: ...


def paginate(list_call: Callable[..., Page[T] | Error | None], /, **arguments: Any
             ) -> Iterator[T]:
    """Items of `list_call` (a generated list operation's `sync`, called with `arguments` and a
    cursor), fetching the next page only when the items before are used up."""
    cursor: str | Unset = UNSET
    while True:
        page = list_call(**arguments, cursor=cursor)
        if page is None or isinstance(page, Error):
            raise TypeError(f"{list_call!r} answered {page!r}, not a list page")
        yield from page.data
        if not page.has_more or page.next_cursor is None:
            return
        cursor = page.next_cursor
