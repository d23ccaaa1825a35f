from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.pass_artifacts_apple import PassArtifactsApple
    from ..models.pass_artifacts_google import PassArtifactsGoogle


T = TypeVar("T", bound="PassArtifacts")


@_attrs_define
class PassArtifacts:
    """omitted from list results

    Attributes:
        apple (PassArtifactsApple):
        google (PassArtifactsGoogle):
    """

    apple: PassArtifactsApple
    google: PassArtifactsGoogle

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
        from ..models.pass_artifacts_apple import PassArtifactsApple
        from ..models.pass_artifacts_google import PassArtifactsGoogle

        d = dict(src_dict)
        apple = PassArtifactsApple.from_dict(d.pop("apple"))

        google = PassArtifactsGoogle.from_dict(d.pop("google"))

        pass_artifacts = cls(
            apple=apple,
            google=google,
        )

        return pass_artifacts
