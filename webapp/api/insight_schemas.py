"""Marshmallow schemas for `GET /v1/insights`, with the documented example."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from webapp.api.schemas import Strict, constant

_COUNT = {"minimum": 0}


class InsightsQuery(Strict):
    from_ = fields.Date(data_key="from", metadata={
        "description": "first UTC day (YYYY-MM-DD), inclusive; default 29 days before `to`"})
    to = fields.Date(metadata={
        "description": "last UTC day (YYYY-MM-DD), inclusive; default today. At most 366 "
                       "days from `from`"})
    templateId = fields.String(validate=validate.Length(1, 64),
                               metadata={"description": "only this template's passes"})
    platform = fields.String(validate=validate.OneOf(("apple", "google")), metadata={
        "description": "only this wallet: issued and pageViews count passes issued for it"})
    groupBy = fields.String(load_default="day",
                            validate=validate.OneOf(("day", "template", "platform")),
                            metadata={"description": "what each series item is: a day "
                                                     "(default), a template or a wallet"})


class Counts(Schema):
    issued = fields.Integer(required=True, metadata={
        **_COUNT, "description": "passes issued (a pass issued for both wallets counts once)"})
    pageViews = fields.Integer(required=True, metadata={
        **_COUNT, "description": "holder page views of active passes"})
    addIntents = fields.Integer(required=True, metadata={
        **_COUNT, "description": "'Add to Apple/Google Wallet' links followed"})
    added = fields.Integer(required=True, metadata={
        **_COUNT, "description": "Apple device registrations and Google saves"})
    removed = fields.Integer(required=True, metadata={
        **_COUNT, "description": "Apple unregistrations and Google deletions"})
    installed = fields.Integer(required=True, metadata={
        "description": "added - removed over all time up to the end of `to` (of a day item: "
                       "up to the end of that day)"})
    updatesSent = fields.Integer(required=True, metadata={
        **_COUNT, "description": "updates whose delivery to a wallet was attempted and "
                                 "finished, counted on the day of the update"})
    updatesDelivered = fields.Integer(required=True, metadata={
        **_COUNT, "description": "of those, accepted (Apple: APNs accepted, `sent` or "
                                 "`delivered`; Google: `updated`)"})
    updatesFailed = fields.Integer(required=True, metadata={**_COUNT,
                                                              "description": "of those, failed"})
    balanceChanges = fields.Integer(required=True, metadata={
        **_COUNT, "description": "balance transactions of loyalty and gift cards (earns, "
                                 "spends, loads, charges; not opening balances)"})
    signupPageViews = fields.Integer(required=True, metadata={
        **_COUNT, "description": "GETs of open sign-up pages (`/join/<slug>`); kept for the "
                                 "template, so 0 in `byPlatform`"})
    signups = fields.Integer(required=True, metadata={
        **_COUNT, "description": "passes issued from sign-up pages (source `enrollment`)"})
    signupsAdded = fields.Integer(required=True, metadata={
        **_COUNT, "description": "of the passes issued from sign-up pages, wallet installs "
                                 "(counted as `added` is)"})

    class Meta:
        ordered = True


class InsightWalletCounts(Counts):
    pass


class ByPlatform(Schema):
    apple = fields.Nested(InsightWalletCounts, required=True)
    google = fields.Nested(InsightWalletCounts, required=True)


class CountsByPlatform(Counts):
    byPlatform = fields.Nested(ByPlatform, required=True, metadata={
        "description": "the same counts per wallet; the top level's wallet counts are their "
                       "sums"})


class Rates(Schema):
    installRate = fields.Float(required=True, allow_none=True,
                               metadata={"description": "added / issued; null when 0 issued"})
    removalRate = fields.Float(required=True, allow_none=True,
                               metadata={"description": "removed / added"})
    updateDeliveryRate = fields.Float(required=True, allow_none=True,
                                      metadata={"description": "updatesDelivered / updatesSent"})


class WalletRates(Schema):
    apple = fields.Nested(Rates, required=True)
    google = fields.Nested(Rates, required=True)


class AllRates(Rates):
    byPlatform = fields.Nested(WalletRates, required=True)


class SeriesItem(Counts):
    byPlatform = fields.Nested(ByPlatform, metadata={
        "description": "groupBy=day and template: the same counts per wallet"})
    date = fields.Date(metadata={"description": "groupBy=day"})
    templateId = fields.String(metadata={"description": "groupBy=template"})
    templateName = fields.String(allow_none=True, metadata={"description": "groupBy=template"})
    platform = fields.String(metadata={"enum": ["apple", "google"],
                                       "description": "groupBy=platform (no byPlatform)"})


class Insights(Schema):
    object = constant("insights")
    from_ = fields.Date(data_key="from", required=True)
    to = fields.Date(required=True)
    templateId = fields.String(required=True, allow_none=True)
    platform = fields.Raw(required=True, metadata={"oneOf": [
        {"type": "string", "enum": ["apple", "google"]}, {"type": "null"}]})
    groupBy = fields.String(required=True, metadata={"enum": ["day", "template", "platform"]})
    totals = fields.Nested(CountsByPlatform, required=True)
    rates = fields.Nested(AllRates, required=True)
    series = fields.List(fields.Nested(SeriesItem), required=True, metadata={
        "description": "day: every day from `from` to `to`, oldest first; template: the "
                       "templates with any count, most issued first; platform: apple, google"})

    class Meta:
        ordered = True


def _counts(issued: int, views: int, intents: int, added: int, removed: int, installed: int,
            sent: int, delivered: int, failed: int, balance: int = 0) -> dict[str, int]:
    return {"issued": issued, "pageViews": views, "addIntents": intents, "added": added,
            "removed": removed, "installed": installed, "updatesSent": sent,
            "updatesDelivered": delivered, "updatesFailed": failed, "balanceChanges": balance,
            "signupPageViews": 0, "signups": 0, "signupsAdded": 0}


_APPLE = _counts(3, 5, 2, 2, 1, 1, 1, 1, 0)
_GOOGLE = _counts(2, 2, 1, 1, 0, 1, 1, 0, 1)
_TOTALS = {**_counts(4, 6, 3, 3, 1, 2, 2, 1, 1), "byPlatform": {"apple": _APPLE,
                                                                "google": _GOOGLE}}
EXAMPLE: dict[str, Any] = {
    "object": "insights", "from": "2026-11-24", "to": "2026-11-25", "templateId": None,
    "platform": None, "groupBy": "day", "totals": _TOTALS,
    "rates": {"installRate": 0.75, "removalRate": 0.3333, "updateDeliveryRate": 0.5,
              "byPlatform": {
                  "apple": {"installRate": 0.6667, "removalRate": 0.5,
                            "updateDeliveryRate": 1.0},
                  "google": {"installRate": 0.5, "removalRate": 0.0,
                             "updateDeliveryRate": 0.0}}},
    "series": [
        {"date": "2026-11-24", **_counts(1, 1, 0, 0, 0, 0, 0, 0, 0),
         "byPlatform": {"apple": _counts(1, 1, 0, 0, 0, 0, 0, 0, 0),
                        "google": _counts(1, 1, 0, 0, 0, 0, 0, 0, 0)}},
        {"date": "2026-11-25", **_counts(3, 5, 3, 3, 1, 2, 2, 1, 1),
         "byPlatform": {"apple": _counts(2, 4, 2, 2, 1, 1, 1, 1, 0),
                        "google": _counts(1, 1, 1, 1, 0, 1, 1, 0, 1)}},
    ],
}
