from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_ import Pass
    from ..models.pass_update import PassUpdate


T = TypeVar("T", bound="PassWithUpdate")


@_attrs_define
class PassWithUpdate:
    """
    Attributes:
        pass_ (Pass):
        update (PassUpdate):
    """

    pass_: Pass
    update: PassUpdate

    def to_dict(self) -> dict[str, Any]:
        pass_ = self.pass_.to_dict()

        update = self.update.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pass": pass_,
                "update": update,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.pass_ import Pass
        from ..models.pass_update import PassUpdate

        d = dict(src_dict)
        pass_ = Pass.from_dict(d.pop("pass"))

        update = PassUpdate.from_dict(d.pop("update"))

        pass_with_update = cls(
            pass_=pass_,
            update=update,
        )

        return pass_with_update
