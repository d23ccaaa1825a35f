from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.definition_type import DefinitionType, check_definition_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.definition_barcode import DefinitionBarcode
    from ..models.definition_colors import DefinitionColors
    from ..models.definition_config import DefinitionConfig
    from ..models.definition_enrollment import DefinitionEnrollment
    from ..models.definition_event import DefinitionEvent
    from ..models.definition_gift_card import DefinitionGiftCard
    from ..models.definition_images import DefinitionImages
    from ..models.definition_locations_item import DefinitionLocationsItem
    from ..models.definition_loyalty import DefinitionLoyalty
    from ..models.definition_offer import DefinitionOffer
    from ..models.definition_platforms import DefinitionPlatforms
    from ..models.definition_redemption import DefinitionRedemption
    from ..models.definition_translations import DefinitionTranslations


T = TypeVar("T", bound="Definition")


@_attrs_define
class Definition:
    """Template definition schema v1.

    Attributes:
        colors (DefinitionColors):
        config (DefinitionConfig):
        description (str): Apple: the pass's description (VoiceOver); Google: an event's name when it has none
        organization_name (str):
        platforms (DefinitionPlatforms): at least one true
        schema_version (Literal[1]):
        type_ (DefinitionType):
        barcode (DefinitionBarcode | Unset):
        default_language (str | Unset): the language of the texts above (default en)
        enrollment (DefinitionEnrollment | Unset): a public sign-up page (/join/<slug>): a person fills in the form and
            gets a pass (source enrollment); refused with a perPass barcode
        event (DefinitionEvent | Unset): required on event_ticket templates, refused on others
        expires_at (str | Unset):
        gift_card (DefinitionGiftCard | Unset): required on gift_card templates, refused on others
        images (DefinitionImages | Unset): slot -> ID of an asset uploaded for that slot. Where each shows: icon Apple
            (Google's logo when there is none); logo both; strip Apple event tickets and Google's hero when there is no
            hero; thumbnail Apple; background Apple event tickets (with a logo: the artwork of iOS 18's event ticket style);
            hero Google. An image no wallet would show is refused with a definition issue: a background on a generic
            template, a background or thumbnail with a strip on an event ticket, a strip with a hero on a generic template.
            No footer: Apple shows one on boarding passes only and Google has none
        locations (list[DefinitionLocationsItem] | Unset): Apple: locations (the pass on the lock screen nearby);
            Google: the class's merchantLocations (a notification nearby)
        logo_text (str | Unset): Apple only, next to the logo (Google shows organizationName there)
        loyalty (DefinitionLoyalty | Unset): required on loyalty templates (which also need images.logo: Google's
            programLogo), refused on others
        offer (DefinitionOffer | Unset): required on coupon templates, refused on others; a coupon's redemption defaults
            to {"mode": "single"}
        redemption (DefinitionRedemption | Unset): check-in (POST /v1/passes/{id}/redemptions, POST /v1/scans)
        translations (DefinitionTranslations | Unset): language tag -> the texts in that language (not the default
            language)
    """

    colors: DefinitionColors
    config: DefinitionConfig
    description: str
    organization_name: str
    platforms: DefinitionPlatforms
    schema_version: Literal[1]
    type_: DefinitionType
    barcode: DefinitionBarcode | Unset = UNSET
    default_language: str | Unset = UNSET
    enrollment: DefinitionEnrollment | Unset = UNSET
    event: DefinitionEvent | Unset = UNSET
    expires_at: str | Unset = UNSET
    gift_card: DefinitionGiftCard | Unset = UNSET
    images: DefinitionImages | Unset = UNSET
    locations: list[DefinitionLocationsItem] | Unset = UNSET
    logo_text: str | Unset = UNSET
    loyalty: DefinitionLoyalty | Unset = UNSET
    offer: DefinitionOffer | Unset = UNSET
    redemption: DefinitionRedemption | Unset = UNSET
    translations: DefinitionTranslations | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        colors = self.colors.to_dict()

        config = self.config.to_dict()

        description = self.description

        organization_name = self.organization_name

        platforms = self.platforms.to_dict()

        schema_version = self.schema_version

        type_: str = self.type_

        barcode: dict[str, Any] | Unset = UNSET
        if not isinstance(self.barcode, Unset):
            barcode = self.barcode.to_dict()

        default_language = self.default_language

        enrollment: dict[str, Any] | Unset = UNSET
        if not isinstance(self.enrollment, Unset):
            enrollment = self.enrollment.to_dict()

        event: dict[str, Any] | Unset = UNSET
        if not isinstance(self.event, Unset):
            event = self.event.to_dict()

        expires_at = self.expires_at

        gift_card: dict[str, Any] | Unset = UNSET
        if not isinstance(self.gift_card, Unset):
            gift_card = self.gift_card.to_dict()

        images: dict[str, Any] | Unset = UNSET
        if not isinstance(self.images, Unset):
            images = self.images.to_dict()

        locations: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.locations, Unset):
            locations = []
            for locations_item_data in self.locations:
                locations_item = locations_item_data.to_dict()
                locations.append(locations_item)

        logo_text = self.logo_text

        loyalty: dict[str, Any] | Unset = UNSET
        if not isinstance(self.loyalty, Unset):
            loyalty = self.loyalty.to_dict()

        offer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.offer, Unset):
            offer = self.offer.to_dict()

        redemption: dict[str, Any] | Unset = UNSET
        if not isinstance(self.redemption, Unset):
            redemption = self.redemption.to_dict()

        translations: dict[str, Any] | Unset = UNSET
        if not isinstance(self.translations, Unset):
            translations = self.translations.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "colors": colors,
                "config": config,
                "description": description,
                "organizationName": organization_name,
                "platforms": platforms,
                "schemaVersion": schema_version,
                "type": type_,
            }
        )
        if barcode is not UNSET:
            field_dict["barcode"] = barcode
        if default_language is not UNSET:
            field_dict["defaultLanguage"] = default_language
        if enrollment is not UNSET:
            field_dict["enrollment"] = enrollment
        if event is not UNSET:
            field_dict["event"] = event
        if expires_at is not UNSET:
            field_dict["expiresAt"] = expires_at
        if gift_card is not UNSET:
            field_dict["giftCard"] = gift_card
        if images is not UNSET:
            field_dict["images"] = images
        if locations is not UNSET:
            field_dict["locations"] = locations
        if logo_text is not UNSET:
            field_dict["logoText"] = logo_text
        if loyalty is not UNSET:
            field_dict["loyalty"] = loyalty
        if offer is not UNSET:
            field_dict["offer"] = offer
        if redemption is not UNSET:
            field_dict["redemption"] = redemption
        if translations is not UNSET:
            field_dict["translations"] = translations

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.definition_barcode import DefinitionBarcode
        from ..models.definition_colors import DefinitionColors
        from ..models.definition_config import DefinitionConfig
        from ..models.definition_enrollment import DefinitionEnrollment
        from ..models.definition_event import DefinitionEvent
        from ..models.definition_gift_card import DefinitionGiftCard
        from ..models.definition_images import DefinitionImages
        from ..models.definition_locations_item import DefinitionLocationsItem
        from ..models.definition_loyalty import DefinitionLoyalty
        from ..models.definition_offer import DefinitionOffer
        from ..models.definition_platforms import DefinitionPlatforms
        from ..models.definition_redemption import DefinitionRedemption
        from ..models.definition_translations import DefinitionTranslations

        d = dict(src_dict)
        colors = DefinitionColors.from_dict(d.pop("colors"))

        config = DefinitionConfig.from_dict(d.pop("config"))

        description = d.pop("description")

        organization_name = d.pop("organizationName")

        platforms = DefinitionPlatforms.from_dict(d.pop("platforms"))

        schema_version = cast(Literal[1], d.pop("schemaVersion"))
        if schema_version != 1:
            raise ValueError(
                f"schemaVersion must match const 1, got '{schema_version}'"
            )

        type_ = check_definition_type(d.pop("type"))

        _barcode = d.pop("barcode", UNSET)
        barcode: DefinitionBarcode | Unset
        if isinstance(_barcode, Unset):
            barcode = UNSET
        else:
            barcode = DefinitionBarcode.from_dict(_barcode)

        default_language = d.pop("defaultLanguage", UNSET)

        _enrollment = d.pop("enrollment", UNSET)
        enrollment: DefinitionEnrollment | Unset
        if isinstance(_enrollment, Unset):
            enrollment = UNSET
        else:
            enrollment = DefinitionEnrollment.from_dict(_enrollment)

        _event = d.pop("event", UNSET)
        event: DefinitionEvent | Unset
        if isinstance(_event, Unset):
            event = UNSET
        else:
            event = DefinitionEvent.from_dict(_event)

        expires_at = d.pop("expiresAt", UNSET)

        _gift_card = d.pop("giftCard", UNSET)
        gift_card: DefinitionGiftCard | Unset
        if isinstance(_gift_card, Unset):
            gift_card = UNSET
        else:
            gift_card = DefinitionGiftCard.from_dict(_gift_card)

        _images = d.pop("images", UNSET)
        images: DefinitionImages | Unset
        if isinstance(_images, Unset):
            images = UNSET
        else:
            images = DefinitionImages.from_dict(_images)

        _locations = d.pop("locations", UNSET)
        locations: list[DefinitionLocationsItem] | Unset = UNSET
        if _locations is not UNSET:
            locations = []
            for locations_item_data in _locations:
                locations_item = DefinitionLocationsItem.from_dict(locations_item_data)

                locations.append(locations_item)

        logo_text = d.pop("logoText", UNSET)

        _loyalty = d.pop("loyalty", UNSET)
        loyalty: DefinitionLoyalty | Unset
        if isinstance(_loyalty, Unset):
            loyalty = UNSET
        else:
            loyalty = DefinitionLoyalty.from_dict(_loyalty)

        _offer = d.pop("offer", UNSET)
        offer: DefinitionOffer | Unset
        if isinstance(_offer, Unset):
            offer = UNSET
        else:
            offer = DefinitionOffer.from_dict(_offer)

        _redemption = d.pop("redemption", UNSET)
        redemption: DefinitionRedemption | Unset
        if isinstance(_redemption, Unset):
            redemption = UNSET
        else:
            redemption = DefinitionRedemption.from_dict(_redemption)

        _translations = d.pop("translations", UNSET)
        translations: DefinitionTranslations | Unset
        if isinstance(_translations, Unset):
            translations = UNSET
        else:
            translations = DefinitionTranslations.from_dict(_translations)

        definition = cls(
            colors=colors,
            config=config,
            description=description,
            organization_name=organization_name,
            platforms=platforms,
            schema_version=schema_version,
            type_=type_,
            barcode=barcode,
            default_language=default_language,
            enrollment=enrollment,
            event=event,
            expires_at=expires_at,
            gift_card=gift_card,
            images=images,
            locations=locations,
            logo_text=logo_text,
            loyalty=loyalty,
            offer=offer,
            redemption=redemption,
            translations=translations,
        )

        return definition
