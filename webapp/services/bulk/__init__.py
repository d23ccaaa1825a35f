"""Bulk jobs (issue 17): many passes issued, updated, voided or moved to a revision at once.

`create` records a job and its items; the job task `run_bulk_job` calls `run`, which applies
the items a chunk at a time with the pass services of the single-item endpoints.
"""

from webapp.services.bulk.jobs import (
    FINISHED,
    ITEM_STATUSES,
    MAX_ITEMS,
    OPERATIONS,
    STATUSES,
    ResultsPage,
    cancel,
    create,
    get,
    list_,
    results,
    stale,
    wire,
    wire_item,
)
from webapp.services.bulk.runner import CHUNK_SIZE, ItemRules, run

__all__ = ["CHUNK_SIZE", "FINISHED", "ITEM_STATUSES", "MAX_ITEMS", "OPERATIONS", "STATUSES",
           "ItemRules", "ResultsPage", "cancel", "create", "get", "list_", "results", "run",
           "stale", "wire", "wire_item"]
