from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.permissions_assets import PermissionsAssets, check_permissions_assets
from ..models.permissions_bulk_jobs import (
    PermissionsBulkJobs,
    check_permissions_bulk_jobs,
)
from ..models.permissions_download_links import (
    PermissionsDownloadLinks,
    check_permissions_download_links,
)
from ..models.permissions_events import PermissionsEvents, check_permissions_events
from ..models.permissions_insights import (
    PermissionsInsights,
    check_permissions_insights,
)
from ..models.permissions_passes import PermissionsPasses, check_permissions_passes
from ..models.permissions_redemptions import (
    PermissionsRedemptions,
    check_permissions_redemptions,
)
from ..models.permissions_templates import (
    PermissionsTemplates,
    check_permissions_templates,
)
from ..models.permissions_webhooks import (
    PermissionsWebhooks,
    check_permissions_webhooks,
)

T = TypeVar("T", bound="Permissions")


@_attrs_define
class Permissions:
    """
    Attributes:
        assets (PermissionsAssets):
        bulk_jobs (PermissionsBulkJobs):
        download_links (PermissionsDownloadLinks):
        events (PermissionsEvents):
        insights (PermissionsInsights):
        passes (PermissionsPasses):
        redemptions (PermissionsRedemptions):
        templates (PermissionsTemplates):
        webhooks (PermissionsWebhooks):
    """

    assets: PermissionsAssets
    bulk_jobs: PermissionsBulkJobs
    download_links: PermissionsDownloadLinks
    events: PermissionsEvents
    insights: PermissionsInsights
    passes: PermissionsPasses
    redemptions: PermissionsRedemptions
    templates: PermissionsTemplates
    webhooks: PermissionsWebhooks

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
        assets = check_permissions_assets(d.pop("assets"))

        bulk_jobs = check_permissions_bulk_jobs(d.pop("bulk_jobs"))

        download_links = check_permissions_download_links(d.pop("download_links"))

        events = check_permissions_events(d.pop("events"))

        insights = check_permissions_insights(d.pop("insights"))

        passes = check_permissions_passes(d.pop("passes"))

        redemptions = check_permissions_redemptions(d.pop("redemptions"))

        templates = check_permissions_templates(d.pop("templates"))

        webhooks = check_permissions_webhooks(d.pop("webhooks"))

        permissions = cls(
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

        return permissions
