"""Reserving one of a pass's 3 Google notifications per 24 hours among many passes' (issue 34:
fast at a million passes).

`--notifications` rows of 100 other passes' notifications are inserted straight (a campaign in
`notify` mode writes one per pass; the rows name passes that exist, as PostgreSQL's foreign key
wants), then one more pass is issued and its reservation for a new update
(`services.google.push._reserve`: the pass's lock, "reserved already?", the count of its last
24 hours, the insert) is timed `--calls` times, in-process.

`python -m bench.google_notifications [--databases sqlite,postgres] [--notifications N]
[--calls N]`
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.issue_throughput import TEMPLATE
from bench.server import databases, load_rows, new_organization
from webapp import ids

COLUMNS = ("pass_id", "update_id", "sent_at")
OTHERS = 100


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.google_notifications",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--notifications", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args(argv or [])
    for label, url, tmp in databases(args.databases):
        _run(label, url, tmp, args)
    return 0


def _run(label: str, url: str, tmp: Path, args: argparse.Namespace) -> None:
    app, created = new_organization(url, tmp)
    with app.app_context():
        from webapp.services.context import Context
        from webapp.services.google import push
        from webapp.services.passes import issuing
        from webapp.services.templates import revisions

        ctx = Context(created.organization.id, "test")
        template = revisions.create(ctx, "Bench", "generic", TEMPLATE["definition"])
        others = [issuing.issue(ctx, issuing.IssueRequest(template.id, {"member": f"M{n}"})).id
                  for n in range(OTHERS)]
        item = issuing.issue(ctx, issuing.IssueRequest(template.id, {"member": "Ada"}))
        from webapp.extensions import db

        db.engine.dispose()
        started = time.monotonic()
        load_rows(url, "google_notifications", COLUMNS, _rows(others, args.notifications))
        print(f"{label}: loaded {args.notifications:,} notifications in "
              f"{time.monotonic() - started:.1f} s", flush=True)
        times = []
        for n in range(args.calls):
            started = time.perf_counter()
            push._reserve(item.id, f"pupd_bench{n}")
            times.append((time.perf_counter() - started) * 1000)
    print(f"{label}, {args.notifications:,} notifications: a reservation p50 "
          f"{statistics.median(times):.2f} ms, max {max(times):.2f} ms", flush=True)


def _rows(others: list[str], notifications: int) -> Iterator[tuple[Any, ...]]:
    """Other passes' notifications, each for an update of its own."""
    for n in range(notifications):
        yield (others[n % len(others)], ids.new_id("pupd"), "2026-11-29 00:00:00")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
