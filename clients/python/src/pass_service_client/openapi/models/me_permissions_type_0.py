from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.me_permissions_type_0_assets import (
    MePermissionsType0Assets,
    check_me_permissions_type_0_assets,
)
from ..models.me_permissions_type_0_bulk_jobs import (
    MePermissionsType0BulkJobs,
    check_me_permissions_type_0_bulk_jobs,
)
from ..models.me_permissions_type_0_download_links import (
    MePermissionsType0DownloadLinks,
    check_me_permissions_type_0_download_links,
)
from ..models.me_permissions_type_0_events import (
    MePermissionsType0Events,
    check_me_permissions_type_0_events,
)
from ..models.me_permissions_type_0_insights import (
    MePermissionsType0Insights,
    check_me_permissions_type_0_insights,
)
from ..models.me_permissions_type_0_passes import (
    MePermissionsType0Passes,
    check_me_permissions_type_0_passes,
)
from ..models.me_permissions_type_0_redemptions import (
    MePermissionsType0Redemptions,
    check_me_permissions_type_0_redemptions,
)
from ..models.me_permissions_type_0_templates import (
    MePermissionsType0Templates,
    check_me_permissions_type_0_templates,
)
from ..models.me_permissions_type_0_webhooks import (
    MePermissionsType0Webhooks,
    check_me_permissions_type_0_webhooks,
)

T = TypeVar("T", bound="MePermissionsType0")


@_attrs_define
class MePermissionsType0:
    """the key's level (none, read or write; write includes read) per resource; null: full access

    Attributes:
        assets (MePermissionsType0Assets):
        bulk_jobs (MePermissionsType0BulkJobs):
        download_links (MePermissionsType0DownloadLinks):
        events (MePermissionsType0Events):
        insights (MePermissionsType0Insights):
        passes (MePermissionsType0Passes):
        redemptions (MePermissionsType0Redemptions):
        templates (MePermissionsType0Templates):
        webhooks (MePermissionsType0Webhooks):
    """

    assets: MePermissionsType0Assets
    bulk_jobs: MePermissionsType0BulkJobs
    download_links: MePermissionsType0DownloadLinks
    events: MePermissionsType0Events
    insights: MePermissionsType0Insights
    passes: MePermissionsType0Passes
    redemptions: MePermissionsType0Redemptions
    templates: MePermissionsType0Templates
    webhooks: MePermissionsType0Webhooks

    def to_dict(self) -> dict[str, Any]:
        assets: str = self.assets

        bulk_jobs: str = self.bulk_jobs

        download_links: str = self.download_links

        events: str = self.events

        insights: str = self.insights

        passes: str = self.passes

        redemptions: str = self.redemptions

        templates: str = self.templates

        webhooks: str = self.webhooks

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "assets": assets,
                "bulk_jobs": bulk_jobs,
                "download_links": download_links,
                "events": events,
                "insights": insights,
                "passes": passes,
                "redemptions": redemptions,
                "templates": templates,
                "webhooks": webhooks,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        assets = check_me_permissions_type_0_assets(d.pop("assets"))

        bulk_jobs = check_me_permissions_type_0_bulk_jobs(d.pop("bulk_jobs"))

        download_links = check_me_permissions_type_0_download_links(
            d.pop("download_links")
        )

        events = check_me_permissions_type_0_events(d.pop("events"))

        insights = check_me_permissions_type_0_insights(d.pop("insights"))

        passes = check_me_permissions_type_0_passes(d.pop("passes"))

        redemptions = check_me_permissions_type_0_redemptions(d.pop("redemptions"))

        templates = check_me_permissions_type_0_templates(d.pop("templates"))

        webhooks = check_me_permissions_type_0_webhooks(d.pop("webhooks"))

        me_permissions_type_0 = cls(
            assets=assets,
            bulk_jobs=bulk_jobs,
            download_links=download_links,
            events=events,
            insights=insights,
            passes=passes,
            redemptions=redemptions,
            templates=templates,
            webhooks=webhooks,
        )

        return me_permissions_type_0
