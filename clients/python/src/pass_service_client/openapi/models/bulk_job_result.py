from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.bulk_job_result_status import (
    BulkJobResultStatus,
    check_bulk_job_result_status,
)

if TYPE_CHECKING:
    from ..models.error_detail import ErrorDetail


T = TypeVar("T", bound="BulkJobResult")


@_attrs_define
class BulkJobResult:
    """
    Attributes:
        error (ErrorDetail | None): a failed item's error, as the single endpoint would answer it
        existing (bool): issue: the externalId had this pass already; nothing was issued
        external_id (None | str):
        index (int): the item's place, from 0
        pass_id (None | str): the pass issued, changed or found (existing)
        status (BulkJobResultStatus):
    """

    error: ErrorDetail | None
    existing: bool
    external_id: None | str
    index: int
    pass_id: None | str
    status: BulkJobResultStatus

    def to_dict(self) -> dict[str, Any]:
        from ..models.error_detail import ErrorDetail

        error: dict[str, Any] | None
        if isinstance(self.error, ErrorDetail):
            error = self.error.to_dict()
        else:
            error = self.error

        existing = self.existing

        external_id: None | str
        external_id = self.external_id

        index = self.index

        pass_id: None | str
        pass_id = self.pass_id

        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
                "existing": existing,
                "externalId": external_id,
                "index": index,
                "passId": pass_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_detail import ErrorDetail

        d = dict(src_dict)

        def _parse_error(data: object) -> ErrorDetail | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ErrorDetail.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorDetail | None, data)

        error = _parse_error(d.pop("error"))

        existing = d.pop("existing")

        def _parse_external_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        external_id = _parse_external_id(d.pop("externalId"))

        index = d.pop("index")

        def _parse_pass_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        pass_id = _parse_pass_id(d.pop("passId"))

        status = check_bulk_job_result_status(d.pop("status"))

        bulk_job_result = cls(
            error=error,
            existing=existing,
            external_id=external_id,
            index=index,
            pass_id=pass_id,
            status=status,
        )

        return bulk_job_result
