from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.insights_group_by import InsightsGroupBy, check_insights_group_by
from ..models.insights_object import InsightsObject, check_insights_object
from ..models.insights_platform_type_0 import (
    InsightsPlatformType0,
    check_insights_platform_type_0,
)

if TYPE_CHECKING:
    from ..models.all_rates import AllRates
    from ..models.counts_by_platform import CountsByPlatform
    from ..models.series_item import SeriesItem


T = TypeVar("T", bound="Insights")


@_attrs_define
class Insights:
    """
    Attributes:
        from_ (datetime.date):
        group_by (InsightsGroupBy):
        object_ (InsightsObject):  Default: 'insights'.
        platform (InsightsPlatformType0 | None):
        rates (AllRates):
        series (list[SeriesItem]): day: every day from `from` to `to`, oldest first; template: the templates with any
            count, most issued first; platform: apple, google
        template_id (None | str):
        to (datetime.date):
        totals (CountsByPlatform):
    """

    from_: datetime.date
    group_by: InsightsGroupBy
    platform: InsightsPlatformType0 | None
    rates: AllRates
    series: list[SeriesItem]
    template_id: None | str
    to: datetime.date
    totals: CountsByPlatform
    object_: InsightsObject = "insights"

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        group_by: str = self.group_by

        object_: str = self.object_

        platform: None | str
        if isinstance(self.platform, str):
            platform = self.platform
        else:
            platform = self.platform

        rates = self.rates.to_dict()

        series = []
        for series_item_data in self.series:
            series_item = series_item_data.to_dict()
            series.append(series_item)

        template_id: None | str
        template_id = self.template_id

        to = self.to.isoformat()

        totals = self.totals.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "groupBy": group_by,
                "object": object_,
                "platform": platform,
                "rates": rates,
                "series": series,
                "templateId": template_id,
                "to": to,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.all_rates import AllRates
        from ..models.counts_by_platform import CountsByPlatform
        from ..models.series_item import SeriesItem

        d = dict(src_dict)
        from_ = datetime.date.fromisoformat(d.pop("from"))

        group_by = check_insights_group_by(d.pop("groupBy"))

        object_ = check_insights_object(d.pop("object"))

        def _parse_platform(data: object) -> InsightsPlatformType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                platform_type_0 = check_insights_platform_type_0(data)

                return platform_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InsightsPlatformType0 | None, data)

        platform = _parse_platform(d.pop("platform"))

        rates = AllRates.from_dict(d.pop("rates"))

        series = []
        _series = d.pop("series")
        for series_item_data in _series:
            series_item = SeriesItem.from_dict(series_item_data)

            series.append(series_item)

        def _parse_template_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_id = _parse_template_id(d.pop("templateId"))

        to = datetime.date.fromisoformat(d.pop("to"))

        totals = CountsByPlatform.from_dict(d.pop("totals"))

        insights = cls(
            from_=from_,
            group_by=group_by,
            object_=object_,
            platform=platform,
            rates=rates,
            series=series,
            template_id=template_id,
            to=to,
            totals=totals,
        )

        return insights
