"""`GET /v1/insights`: counts of an environment's passes over days, read from the daily
rollup (`insights_daily`), so the answer costs the same for ten passes or a million."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from sqlalchemy import func, select

from webapp import clock
from webapp.db.find import find_or_404
from webapp.errors import InvalidRequest
from webapp.extensions import db
from webapp.models import InsightsDaily, Template
from webapp.models.insights import ALL_PLATFORMS
from webapp.services.context import Context
from webapp.services.insights.record import WALLETS

DEFAULT_DAYS = 30
MAX_DAYS = 366
GROUPS = ("day", "template", "platform")
# Stored metric -> its name on the wire; `installed` is computed (added - removed so far).
NAMES = {"issued": "issued", "page_view": "pageViews", "add_intent": "addIntents",
         "added": "added", "removed": "removed", "update_sent": "updatesSent",
         "update_delivered": "updatesDelivered", "update_failed": "updatesFailed",
         "balance_change": "balanceChanges", "signup_view": "signupPageViews",
         "signup": "signups", "signup_added": "signupsAdded"}
COUNTS = ("issued", "pageViews", "addIntents", "added", "removed", "installed",
          "updatesSent", "updatesDelivered", "updatesFailed", "balanceChanges",
          "signupPageViews", "signups", "signupsAdded")
# Counts of the pass itself (kept once for the pass and once per wallet it is issued for).
_NEUTRAL = ("issued", "pageViews", "balanceChanges", "signupPageViews", "signups")

# key (a day, a template ID, or None) -> platform -> wire name -> count
Counts = dict[Any, dict[str, dict[str, int]]]


def summary(ctx: Context, *, start: date | None = None, end: date | None = None,
            template_id: str | None = None, platform: str | None = None,
            group_by: str = "day") -> dict[str, Any]:
    """The insights object for the context's environment (see the OpenAPI document).

    :raises InvalidRequest: `from` after `to`, more than 366 days, unknown platform or
        groupBy.
    :raises NotFound: `template_id` is not a template of the organization.
    """
    start, end = _range(start, end)
    if platform is not None and platform not in WALLETS:
        raise InvalidRequest("platform must be apple or google.", param="platform")
    if group_by not in GROUPS:
        raise InvalidRequest("groupBy must be day, template or platform.", param="groupBy")
    if template_id is not None:
        find_or_404(Template, template_id, prefix="tmpl", what="template", param="templateId",
                    organization_id=ctx.organization_id)
    scope = _scope(ctx, template_id, platform)
    key = {"day": InsightsDaily.day, "template": InsightsDaily.template_id}.get(group_by)
    counts = _sums([*scope, InsightsDaily.day.between(start, end)], key)
    before = _sums([*scope, InsightsDaily.day < start,
                    InsightsDaily.metric.in_(("added", "removed"))],
                   InsightsDaily.template_id if group_by == "template" else None)
    series = _series(ctx, group_by, counts, before, start, end, platform)
    totals = _item(_merge(counts.values()), _installed(_merge(before.values())), platform)
    return {"object": "insights", "from": start.isoformat(), "to": end.isoformat(),
            "templateId": template_id, "platform": platform, "groupBy": group_by,
            "totals": totals, "rates": _rates(totals), "series": series}


def _range(start: date | None, end: date | None) -> tuple[date, date]:
    if end is None:
        end = clock.now().date()
    if start is None:
        start = end - timedelta(days=DEFAULT_DAYS - 1)
    if start > end:
        raise InvalidRequest(f"from ({start}) must be on or before to ({end}).", param="from")
    if (end - start).days + 1 > MAX_DAYS:
        raise InvalidRequest(f"from and to span {(end - start).days + 1} days; at most "
                             f"{MAX_DAYS} days can be asked at once.", param="from")
    return start, end


def _scope(ctx: Context, template_id: str | None, platform: str | None) -> list[Any]:
    scope: list[Any] = [InsightsDaily.organization_id == ctx.organization_id,
                        InsightsDaily.environment == ctx.environment]
    if template_id is not None:
        scope.append(InsightsDaily.template_id == template_id)
    if platform is not None:
        scope.append(InsightsDaily.platform == platform)
    return scope


def _sums(where: list[Any], key: Any) -> Counts:
    """Sums per key, platform and metric of the rollup rows that meet `where`."""
    grouped = [*([key] if key is not None else []), InsightsDaily.platform,
               InsightsDaily.metric]
    rows = db.session.execute(select(*grouped, func.sum(InsightsDaily.count))
                              .where(*where).group_by(*grouped))
    found: Counts = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for row in rows:
        *head, platform, metric, total = row
        found[head[0] if head else None][platform][NAMES[metric]] += int(total)
    return found


def _merge(parts: Any) -> dict[str, dict[str, int]]:
    merged: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for part in parts:
        for platform, metrics in part.items():
            for name, value in metrics.items():
                merged[platform][name] += value
    return merged


def _installed(before: dict[str, dict[str, int]]) -> dict[str, int]:
    """Installed per wallet before the range: added - removed."""
    return {w: before.get(w, {}).get("added", 0) - before.get(w, {}).get("removed", 0)
            for w in WALLETS}


def _item(found: dict[str, dict[str, int]], installed_before: dict[str, int],
          platform: str | None) -> dict[str, Any]:
    """The counts of one key, with each wallet's in `byPlatform`."""
    by_platform = {}
    for wallet in WALLETS:
        metrics = found.get(wallet, {})
        counts = {name: metrics.get(name, 0) for name in COUNTS}
        counts["installed"] = installed_before[wallet] + counts["added"] - counts["removed"]
        by_platform[wallet] = counts
    if platform is not None:
        top = dict(by_platform[platform])
    else:
        top = {name: sum(by_platform[w][name] for w in WALLETS) for name in COUNTS}
        for name in _NEUTRAL:  # a pass issued for both wallets is one pass
            top[name] = found.get(ALL_PLATFORMS, {}).get(name, 0)
    return {**top, "byPlatform": by_platform}


def _series(ctx: Context, group_by: str, counts: Counts, before: Counts, start: date,
            end: date, platform: str | None) -> list[dict[str, Any]]:
    if group_by == "day":
        installed = _installed(_merge(before.values()))
        items = []
        for offset in range((end - start).days + 1):
            day = start + timedelta(days=offset)
            item = _item(counts.get(day, {}), installed, platform)
            installed = {w: item["byPlatform"][w]["installed"] for w in WALLETS}
            items.append({"date": day.isoformat(), **item})
        return items
    if group_by == "platform":
        totals = _item(_merge(counts.values()), _installed(_merge(before.values())), platform)
        return [{"platform": w, **{n: totals["byPlatform"][w][n] for n in COUNTS}}
                for w in WALLETS if platform in (None, w)]
    return _by_template(ctx, counts, before, platform)


def _by_template(ctx: Context, counts: Counts, before: Counts, platform: str | None
                 ) -> list[dict[str, Any]]:
    ids = set(counts) | set(before)
    names = dict(db.session.execute(select(Template.id, Template.name).where(
        Template.organization_id == ctx.organization_id, Template.id.in_(ids)))
        .all()) if ids else {}
    items = []
    for template_id in ids:
        item = _item(counts.get(template_id, {}), _installed(before.get(template_id, {})),
                     platform)
        if any(item[name] for name in COUNTS):
            items.append({"templateId": template_id,
                          "templateName": names.get(template_id), **item})
    return sorted(items, key=lambda i: (-i["issued"], i["templateId"]))


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _rates_of(counts: dict[str, Any]) -> dict[str, float | None]:
    return {"installRate": _rate(counts["added"], counts["issued"]),
            "removalRate": _rate(counts["removed"], counts["added"]),
            "updateDeliveryRate": _rate(counts["updatesDelivered"], counts["updatesSent"])}


def _rates(totals: dict[str, Any]) -> dict[str, Any]:
    return {**_rates_of(totals),
            "byPlatform": {w: _rates_of(totals["byPlatform"][w]) for w in WALLETS}}
