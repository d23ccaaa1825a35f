from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.attempt_error import AttemptError


T = TypeVar("T", bound="Attempt")


@_attrs_define
class Attempt:
    """
    Attributes:
        attempted_at (datetime.datetime):
        duration_ms (int):
        error (AttemptError | None):
        response_status (int | None):
    """

    attempted_at: datetime.datetime
    duration_ms: int
    error: AttemptError | None
    response_status: int | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.attempt_error import AttemptError

        attempted_at = self.attempted_at.isoformat()

        duration_ms = self.duration_ms

        error: dict[str, Any] | None
        if isinstance(self.error, AttemptError):
            error = self.error.to_dict()
        else:
            error = self.error

        response_status: int | None
        response_status = self.response_status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attemptedAt": attempted_at,
                "durationMs": duration_ms,
                "error": error,
                "responseStatus": response_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attempt_error import AttemptError

        d = dict(src_dict)
        attempted_at = datetime.datetime.fromisoformat(d.pop("attemptedAt"))

        duration_ms = d.pop("durationMs")

        def _parse_error(data: object) -> AttemptError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = AttemptError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AttemptError | None, data)

        error = _parse_error(d.pop("error"))

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("responseStatus"))

        attempt = cls(
            attempted_at=attempted_at,
            duration_ms=duration_ms,
            error=error,
            response_status=response_status,
        )

        return attempt
