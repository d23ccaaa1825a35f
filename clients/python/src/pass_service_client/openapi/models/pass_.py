from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pass_environment import PassEnvironment, check_pass_environment
from ..models.pass_object import PassObject, check_pass_object
from ..models.pass_source import PassSource, check_pass_source
from ..models.pass_status import PassStatus, check_pass_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.artifacts import Artifacts
    from ..models.email import Email
    from ..models.pass_editable_fields_item import PassEditableFieldsItem
    from ..models.pass_field_values import PassFieldValues
    from ..models.pass_images import PassImages
    from ..models.pass_platforms import PassPlatforms
    from ..models.pass_preview import PassPreview
    from ..models.signing import Signing


T = TypeVar("T", bound="Pass")


@_attrs_define
class Pass:
    """
    Attributes:
        balance (int | None): loyalty: points; gift_card: money in minor units of the template's giftCard.currency (1250
            is 12.50 EUR); null on the other types
        created_at (datetime.datetime):
        distribution_url (str):
        environment (PassEnvironment):
        erased_at (datetime.datetime | None): when the holder's data was erased (POST /v1/passes/{id}/erase)
        expires_at (datetime.datetime | None): the pass's own expiry as given; null: its template's expiresAt (if any)
            applies
        holder_email (None | str):
        holder_name (None | str):
        id (str):
        images (PassImages): the pass's own images, slot -> asset ID (PUT /v1/passes/{id}/images/{slot}), shown over its
            template's
        last_redeemed_at (datetime.datetime | None):
        lifetime_points (int | None): loyalty: every point earned (the opening balance included; spends never lower it);
            null on the other types
        object_ (PassObject):  Default: 'pass'.
        platforms (PassPlatforms):
        redemption_count (int): how often the pass was redeemed (checked in)
        relevant_date (datetime.datetime | None): the pass's own relevant date as given; null: its template's
        short_id (str):
        signing (Signing):
        source (PassSource): enrollment: from a sign-up page
        status (PassStatus):
        tags (list[str]): the pass's tags, lower case, in the order given; [] without
        template_id (str):
        template_name (None | str):
        template_revision (int):
        tier (None | str): loyalty: the name of the highest tier the lifetime points reach (spending never demotes);
            null without tiers or on the other types
        updated_at (datetime.datetime):
        voided_at (datetime.datetime | None):
        artifacts (Artifacts | Unset):
        editable_barcode (bool | Unset): omitted from list results
        editable_fields (list[PassEditableFieldsItem] | Unset): omitted from list results
        field_values (PassFieldValues | Unset): omitted from list results
        last_email (Email | None | Unset): the newest email of the pass, or null; omitted from list results
        preview (PassPreview | Unset): omitted from list results
        wallet_updated_at (datetime.datetime | Unset): omitted from list results
    """

    balance: int | None
    created_at: datetime.datetime
    distribution_url: str
    environment: PassEnvironment
    erased_at: datetime.datetime | None
    expires_at: datetime.datetime | None
    holder_email: None | str
    holder_name: None | str
    id: str
    images: PassImages
    last_redeemed_at: datetime.datetime | None
    lifetime_points: int | None
    platforms: PassPlatforms
    redemption_count: int
    relevant_date: datetime.datetime | None
    short_id: str
    signing: Signing
    source: PassSource
    status: PassStatus
    tags: list[str]
    template_id: str
    template_name: None | str
    template_revision: int
    tier: None | str
    updated_at: datetime.datetime
    voided_at: datetime.datetime | None
    object_: PassObject = "pass"
    artifacts: Artifacts | Unset = UNSET
    editable_barcode: bool | Unset = UNSET
    editable_fields: list[PassEditableFieldsItem] | Unset = UNSET
    field_values: PassFieldValues | Unset = UNSET
    last_email: Email | None | Unset = UNSET
    preview: PassPreview | Unset = UNSET
    wallet_updated_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.email import Email

        balance: int | None
        balance = self.balance

        created_at = self.created_at.isoformat()

        distribution_url = self.distribution_url

        environment: str = self.environment

        erased_at: None | str
        if isinstance(self.erased_at, datetime.datetime):
            erased_at = self.erased_at.isoformat()
        else:
            erased_at = self.erased_at

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        holder_email: None | str
        holder_email = self.holder_email

        holder_name: None | str
        holder_name = self.holder_name

        id = self.id

        images = self.images.to_dict()

        last_redeemed_at: None | str
        if isinstance(self.last_redeemed_at, datetime.datetime):
            last_redeemed_at = self.last_redeemed_at.isoformat()
        else:
            last_redeemed_at = self.last_redeemed_at

        lifetime_points: int | None
        lifetime_points = self.lifetime_points

        object_: str = self.object_

        platforms = self.platforms.to_dict()

        redemption_count = self.redemption_count

        relevant_date: None | str
        if isinstance(self.relevant_date, datetime.datetime):
            relevant_date = self.relevant_date.isoformat()
        else:
            relevant_date = self.relevant_date

        short_id = self.short_id

        signing = self.signing.to_dict()

        source: str = self.source

        status: str = self.status

        tags = self.tags

        template_id = self.template_id

        template_name: None | str
        template_name = self.template_name

        template_revision = self.template_revision

        tier: None | str
        tier = self.tier

        updated_at = self.updated_at.isoformat()

        voided_at: None | str
        if isinstance(self.voided_at, datetime.datetime):
            voided_at = self.voided_at.isoformat()
        else:
            voided_at = self.voided_at

        artifacts: dict[str, Any] | Unset = UNSET
        if not isinstance(self.artifacts, Unset):
            artifacts = self.artifacts.to_dict()

        editable_barcode = self.editable_barcode

        editable_fields: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.editable_fields, Unset):
            editable_fields = []
            for editable_fields_item_data in self.editable_fields:
                editable_fields_item = editable_fields_item_data.to_dict()
                editable_fields.append(editable_fields_item)

        field_values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.field_values, Unset):
            field_values = self.field_values.to_dict()

        last_email: dict[str, Any] | None | Unset
        if isinstance(self.last_email, Unset):
            last_email = UNSET
        elif isinstance(self.last_email, Email):
            last_email = self.last_email.to_dict()
        else:
            last_email = self.last_email

        preview: dict[str, Any] | Unset = UNSET
        if not isinstance(self.preview, Unset):
            preview = self.preview.to_dict()

        wallet_updated_at: str | Unset = UNSET
        if not isinstance(self.wallet_updated_at, Unset):
            wallet_updated_at = self.wallet_updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "balance": balance,
                "createdAt": created_at,
                "distributionUrl": distribution_url,
                "environment": environment,
                "erasedAt": erased_at,
                "expiresAt": expires_at,
                "holderEmail": holder_email,
                "holderName": holder_name,
                "id": id,
                "images": images,
                "lastRedeemedAt": last_redeemed_at,
                "lifetimePoints": lifetime_points,
                "object": object_,
                "platforms": platforms,
                "redemptionCount": redemption_count,
                "relevantDate": relevant_date,
                "shortId": short_id,
                "signing": signing,
                "source": source,
                "status": status,
                "tags": tags,
                "templateId": template_id,
                "templateName": template_name,
                "templateRevision": template_revision,
                "tier": tier,
                "updatedAt": updated_at,
                "voidedAt": voided_at,
            }
        )
        if artifacts is not UNSET:
            field_dict["artifacts"] = artifacts
        if editable_barcode is not UNSET:
            field_dict["editableBarcode"] = editable_barcode
        if editable_fields is not UNSET:
            field_dict["editableFields"] = editable_fields
        if field_values is not UNSET:
            field_dict["fieldValues"] = field_values
        if last_email is not UNSET:
            field_dict["lastEmail"] = last_email
        if preview is not UNSET:
            field_dict["preview"] = preview
        if wallet_updated_at is not UNSET:
            field_dict["walletUpdatedAt"] = wallet_updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.artifacts import Artifacts
        from ..models.email import Email
        from ..models.pass_editable_fields_item import PassEditableFieldsItem
        from ..models.pass_field_values import PassFieldValues
        from ..models.pass_images import PassImages
        from ..models.pass_platforms import PassPlatforms
        from ..models.pass_preview import PassPreview
        from ..models.signing import Signing

        d = dict(src_dict)

        def _parse_balance(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        balance = _parse_balance(d.pop("balance"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        distribution_url = d.pop("distributionUrl")

        environment = check_pass_environment(d.pop("environment"))

        def _parse_erased_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                erased_at_type_0 = datetime.datetime.fromisoformat(data)

                return erased_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        erased_at = _parse_erased_at(d.pop("erasedAt"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        def _parse_holder_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holder_email = _parse_holder_email(d.pop("holderEmail"))

        def _parse_holder_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holder_name = _parse_holder_name(d.pop("holderName"))

        id = d.pop("id")

        images = PassImages.from_dict(d.pop("images"))

        def _parse_last_redeemed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_redeemed_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_redeemed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_redeemed_at = _parse_last_redeemed_at(d.pop("lastRedeemedAt"))

        def _parse_lifetime_points(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        lifetime_points = _parse_lifetime_points(d.pop("lifetimePoints"))

        object_ = check_pass_object(d.pop("object"))

        platforms = PassPlatforms.from_dict(d.pop("platforms"))

        redemption_count = d.pop("redemptionCount")

        def _parse_relevant_date(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                relevant_date_type_0 = datetime.datetime.fromisoformat(data)

                return relevant_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        relevant_date = _parse_relevant_date(d.pop("relevantDate"))

        short_id = d.pop("shortId")

        signing = Signing.from_dict(d.pop("signing"))

        source = check_pass_source(d.pop("source"))

        status = check_pass_status(d.pop("status"))

        tags = cast(list[str], d.pop("tags"))

        template_id = d.pop("templateId")

        def _parse_template_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_name = _parse_template_name(d.pop("templateName"))

        template_revision = d.pop("templateRevision")

        def _parse_tier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tier = _parse_tier(d.pop("tier"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_voided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                voided_at_type_0 = datetime.datetime.fromisoformat(data)

                return voided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        voided_at = _parse_voided_at(d.pop("voidedAt"))

        _artifacts = d.pop("artifacts", UNSET)
        artifacts: Artifacts | Unset
        if isinstance(_artifacts, Unset):
            artifacts = UNSET
        else:
            artifacts = Artifacts.from_dict(_artifacts)

        editable_barcode = d.pop("editableBarcode", UNSET)

        _editable_fields = d.pop("editableFields", UNSET)
        editable_fields: list[PassEditableFieldsItem] | Unset = UNSET
        if _editable_fields is not UNSET:
            editable_fields = []
            for editable_fields_item_data in _editable_fields:
                editable_fields_item = PassEditableFieldsItem.from_dict(
                    editable_fields_item_data
                )

                editable_fields.append(editable_fields_item)

        _field_values = d.pop("fieldValues", UNSET)
        field_values: PassFieldValues | Unset
        if isinstance(_field_values, Unset):
            field_values = UNSET
        else:
            field_values = PassFieldValues.from_dict(_field_values)

        def _parse_last_email(data: object) -> Email | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_email_type_0 = Email.from_dict(data)

                return last_email_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Email | None | Unset, data)

        last_email = _parse_last_email(d.pop("lastEmail", UNSET))

        _preview = d.pop("preview", UNSET)
        preview: PassPreview | Unset
        if isinstance(_preview, Unset):
            preview = UNSET
        else:
            preview = PassPreview.from_dict(_preview)

        _wallet_updated_at = d.pop("walletUpdatedAt", UNSET)
        wallet_updated_at: datetime.datetime | Unset
        if isinstance(_wallet_updated_at, Unset):
            wallet_updated_at = UNSET
        else:
            wallet_updated_at = datetime.datetime.fromisoformat(_wallet_updated_at)

        pass_ = cls(
            balance=balance,
            created_at=created_at,
            distribution_url=distribution_url,
            environment=environment,
            erased_at=erased_at,
            expires_at=expires_at,
            holder_email=holder_email,
            holder_name=holder_name,
            id=id,
            images=images,
            last_redeemed_at=last_redeemed_at,
            lifetime_points=lifetime_points,
            object_=object_,
            platforms=platforms,
            redemption_count=redemption_count,
            relevant_date=relevant_date,
            short_id=short_id,
            signing=signing,
            source=source,
            status=status,
            tags=tags,
            template_id=template_id,
            template_name=template_name,
            template_revision=template_revision,
            tier=tier,
            updated_at=updated_at,
            voided_at=voided_at,
            artifacts=artifacts,
            editable_barcode=editable_barcode,
            editable_fields=editable_fields,
            field_values=field_values,
            last_email=last_email,
            preview=preview,
            wallet_updated_at=wallet_updated_at,
        )

        return pass_
