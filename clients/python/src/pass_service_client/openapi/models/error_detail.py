from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.error_detail_type import ErrorDetailType, check_error_detail_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.issue import Issue
    from ..models.redemption import Redemption


T = TypeVar("T", bound="ErrorDetail")


@_attrs_define
class ErrorDetail:
    """
    Attributes:
        message (str):
        balance (int | Unset): a refused spend (409 insufficient_balance): the pass's balance now
        code (str | Unset):
        issue_count (int | Unset): with issues: how many problems there are in all
        issues (list[Issue] | Unset): an invalid template definition: its first 100 problems
        param (str | Unset):
        pass_id (str | Unset): a refused redemption (409 pass_voided, pass_expired, redemption_not_enabled,
            already_redeemed, max_uses_reached) or a refused spend (409 insufficient_balance): the pass
        redemption (None | Redemption | Unset): a refused redemption: the earlier redemption that decided it (the first
            for already_redeemed, the last for max_uses_reached), else null
        type_ (ErrorDetailType | Unset): absent only on 401
    """

    message: str
    balance: int | Unset = UNSET
    code: str | Unset = UNSET
    issue_count: int | Unset = UNSET
    issues: list[Issue] | Unset = UNSET
    param: str | Unset = UNSET
    pass_id: str | Unset = UNSET
    redemption: None | Redemption | Unset = UNSET
    type_: ErrorDetailType | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.redemption import Redemption

        message = self.message

        balance = self.balance

        code = self.code

        issue_count = self.issue_count

        issues: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.issues, Unset):
            issues = []
            for issues_item_data in self.issues:
                issues_item = issues_item_data.to_dict()
                issues.append(issues_item)

        param = self.param

        pass_id = self.pass_id

        redemption: dict[str, Any] | None | Unset
        if isinstance(self.redemption, Unset):
            redemption = UNSET
        elif isinstance(self.redemption, Redemption):
            redemption = self.redemption.to_dict()
        else:
            redemption = self.redemption

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if balance is not UNSET:
            field_dict["balance"] = balance
        if code is not UNSET:
            field_dict["code"] = code
        if issue_count is not UNSET:
            field_dict["issueCount"] = issue_count
        if issues is not UNSET:
            field_dict["issues"] = issues
        if param is not UNSET:
            field_dict["param"] = param
        if pass_id is not UNSET:
            field_dict["passId"] = pass_id
        if redemption is not UNSET:
            field_dict["redemption"] = redemption
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.issue import Issue
        from ..models.redemption import Redemption

        d = dict(src_dict)
        message = d.pop("message")

        balance = d.pop("balance", UNSET)

        code = d.pop("code", UNSET)

        issue_count = d.pop("issueCount", UNSET)

        _issues = d.pop("issues", UNSET)
        issues: list[Issue] | Unset = UNSET
        if _issues is not UNSET:
            issues = []
            for issues_item_data in _issues:
                issues_item = Issue.from_dict(issues_item_data)

                issues.append(issues_item)

        param = d.pop("param", UNSET)

        pass_id = d.pop("passId", UNSET)

        def _parse_redemption(data: object) -> None | Redemption | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                redemption_type_0 = Redemption.from_dict(data)

                return redemption_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Redemption | Unset, data)

        redemption = _parse_redemption(d.pop("redemption", UNSET))

        _type_ = d.pop("type", UNSET)
        type_: ErrorDetailType | Unset
        if isinstance(_type_, Unset):
            type_ = UNSET
        else:
            type_ = check_error_detail_type(_type_)

        error_detail = cls(
            message=message,
            balance=balance,
            code=code,
            issue_count=issue_count,
            issues=issues,
            param=param,
            pass_id=pass_id,
            redemption=redemption,
            type_=type_,
        )

        return error_detail
