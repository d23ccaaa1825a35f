"""Insights (issue 19): how many passes were issued, viewed, added to and removed from
wallets, and whether their updates arrived; per day, template and wallet."""

from webapp.services.insights.summary import summary
from webapp.services.insights.timeline import timeline

__all__ = ["summary", "timeline"]
