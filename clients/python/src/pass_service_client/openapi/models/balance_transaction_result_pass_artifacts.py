from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.balance_transaction_result_pass_artifacts_apple import (
        BalanceTransactionResultPassArtifactsApple,
    )
    from ..models.balance_transaction_result_pass_artifacts_google import (
        BalanceTransactionResultPassArtifactsGoogle,
    )


T = TypeVar("T", bound="BalanceTransactionResultPassArtifacts")


@_attrs_define
class BalanceTransactionResultPassArtifacts:
    """omitted from list results

    Attributes:
        apple (BalanceTransactionResultPassArtifactsApple):
        google (BalanceTransactionResultPassArtifactsGoogle):
    """

    apple: BalanceTransactionResultPassArtifactsApple
    google: BalanceTransactionResultPassArtifactsGoogle

    def to_dict(self) -> dict[str, Any]:
        apple = self.apple.to_dict()

        google = self.google.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "apple": apple,
                "google": google,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.balance_transaction_result_pass_artifacts_apple import (
            BalanceTransactionResultPassArtifactsApple,
        )
        from ..models.balance_transaction_result_pass_artifacts_google import (
            BalanceTransactionResultPassArtifactsGoogle,
        )

        d = dict(src_dict)
        apple = BalanceTransactionResultPassArtifactsApple.from_dict(d.pop("apple"))

        google = BalanceTransactionResultPassArtifactsGoogle.from_dict(d.pop("google"))

        balance_transaction_result_pass_artifacts = cls(
            apple=apple,
            google=google,
        )

        return balance_transaction_result_pass_artifacts
