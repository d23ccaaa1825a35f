"""A pass's export and erasure among many events (issue 34: fast at a million passes).

`--events` events about other passes are inserted straight (`pass.created`, as issuing
records them), then one pass is issued and updated through the API (its events). Timed
in-process (the Flask test client): `GET /v1/passes/<id>` (the baseline) and
`GET /v1/passes/<id>/export`, `--calls` each, alternating, then the pass's erasure, once.
The ratio is the export's p50 over the baseline's. `--answers` stored answers of other
passes' issues (the scope's day of idempotent requests, encrypted as the API keeps them) are
inserted too (as the API stores them: each names its pass), and a finished bulk import of
`--bulk-items` other passes (half with an `externalId`).

`python -m bench.pass_export [--databases sqlite,postgres] [--events N] [--answers N]
[--bulk-items N] [--calls N]`
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.issue_throughput import TEMPLATE
from bench.server import databases, load_rows, new_organization
from webapp import ids

COLUMNS = ("id", "organization_id", "environment", "type", "data", "pass_id", "created_at")
JOB_COLUMNS = ("id", "organization_id", "environment", "operation", "status", "template_id",
               "locale", "source", "total", "succeeded", "failed", "canceled", "created_at",
               "updated_at")
ITEM_COLUMNS = ("job_id", "index", "external_id", "input", "status", "pass_id", "existing")
ANSWER_COLUMNS = ("id", "organization_id", "environment", "key", "fingerprint", "request_id",
                  "state", "status_code", "body", "pass_id", "created_at", "locked_at")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pass_export", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default="sqlite")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--bulk-items", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args(argv or [])
    for label, url, tmp in databases(args.databases):
        _run(label, url, tmp, args)
    return 0


def _run(label: str, url: str, tmp: Path, args: argparse.Namespace) -> None:
    app, created = new_organization(url, tmp)
    with app.app_context():
        from webapp.extensions import db

        db.engine.dispose()
    started = time.monotonic()
    load_rows(url, "events", COLUMNS, _rows(created.organization.id, args.events))
    with app.app_context():
        answers = list(_answers(created.organization.id, args.answers))
    load_rows(url, "idempotency_records", ANSWER_COLUMNS, answers)
    job_id = ids.new_id("bjob")
    load_rows(url, "bulk_jobs", JOB_COLUMNS, [(
        job_id, created.organization.id, "test", "issue", "completed", "tpl_bench", "en", "api",
        args.bulk_items, args.bulk_items, 0, 0, "2026-11-29 00:00:00", "2026-11-29 00:00:00")])
    load_rows(url, "bulk_job_items", ITEM_COLUMNS, _items(job_id, args.bulk_items))
    print(f"{label}: loaded {args.events:,} events, {args.answers:,} stored answers and "
          f"{args.bulk_items:,} bulk items in {time.monotonic() - started:.1f} s", flush=True)
    key = created.keys["test"]
    client = app.test_client()
    pass_id = _pass(client, key)
    headers = {"Authorization": f"Bearer {key}"}
    got, exported = [], []
    for _ in range(args.calls):
        got.append(_timed(client, "get", f"/v1/passes/{pass_id}", headers))
        exported.append(_timed(client, "get", f"/v1/passes/{pass_id}/export", headers))
    erased = _timed(client, "post", f"/v1/passes/{pass_id}/erase",
                    {**headers, "Idempotency-Key": "bench-erase"})
    from jobs import queue

    for executor in app.extensions[queue.EXECUTORS].values():  # the passes' wallet jobs
        executor.shutdown(wait=True)
    get_p50, export_p50 = statistics.median(got), statistics.median(exported)
    print(f"{label}, {args.events:,} events, {args.answers:,} answers, {args.bulk_items:,} "
          f"bulk items: GET pass p50 "
          f"{get_p50:.1f} ms; export p50 {export_p50:.1f} ms ({export_p50 / get_p50:.1f}x); "
          f"erasure {erased:.0f} ms",
          flush=True)


def _timed(client: Any, method: str, path: str, headers: dict[str, str]) -> float:
    started = time.perf_counter()
    response = getattr(client, method)(path, headers=headers)
    took = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.get_data(as_text=True)
    return took


def _pass(client: Any, key: str) -> str:
    """A pass issued and updated through the API."""
    headers = {"Authorization": f"Bearer {key}", "Idempotency-Key": "bench-1"}
    template = client.post("/v1/templates", json=TEMPLATE, headers=headers).get_json()
    headers["Idempotency-Key"] = "bench-2"
    issued = client.post("/v1/passes", headers=headers, json={
        "templateId": template["id"], "fieldValues": {"member": "Ada Lovelace"},
        "holderName": "Ada Lovelace", "holderEmail": "ada@example.com"}).get_json()
    headers["Idempotency-Key"] = "bench-3"
    updated = client.patch(f"/v1/passes/{issued['id']}", headers=headers,
                           json={"fieldValues": {"member": "Ada King"}})
    assert updated.status_code == 200, updated.get_data(as_text=True)
    return str(issued["id"])


def _rows(org_id: str, events: int) -> Iterator[tuple[Any, ...]]:
    """Other passes' `pass.created` events, shaped as issuing records them."""
    for n in range(events):
        pass_id = ids.new_id("pass")
        data = {"object": {"object": "pass", "id": pass_id, "status": "active",
                           "holderName": f"Member {n}", "holderEmail": f"m{n}@example.com",
                           "templateId": "tpl_bench", "templateName": "Bench",
                           "shortId": f"S{n:09d}", "version": 1, "tags": [],
                           "createdAt": "2026-11-29T00:00:00Z"}}
        yield (ids.new_id("evt"), org_id, "test", "pass.created", json.dumps(data), pass_id,
               "2026-11-29 00:00:00")


def _answers(org_id: str, answers: int) -> Iterator[tuple[Any, ...]]:
    """Other passes' stored `POST /v1/passes` answers, encrypted (inside an app context),
    each naming its pass as the API stores them."""
    from webapp import vault

    for n in range(answers):
        pass_id = ids.new_id("pass")
        body = json.dumps({"object": "pass", "id": pass_id, "status": "active",
                           "holderName": f"Member {n}", "holderEmail": f"m{n}@example.com",
                           "fieldValues": {"member": f"Member {n}"}, "templateId": "tpl_bench",
                           "shortId": f"S{n:09d}", "version": 1, "tags": [],
                           "createdAt": "2026-11-29T00:00:00Z"})
        yield (ids.new_id("idem"), org_id, "test", f"bench-other-{n}", "0" * 64, "",
               "completed", 200, vault.encrypt(body.encode()).decode(), pass_id,
               "2026-11-29 00:00:00", "2026-11-29 00:00:00")


def _items(job_id: str, items: int) -> Iterator[tuple[Any, ...]]:
    """A bulk import's items, each issued (half of them with an `externalId`)."""
    for n in range(items):
        external_id = f"EXT-{n:08d}" if n % 2 else None
        given = {"externalId": external_id, "holderName": f"Member {n}",
                 "holderEmail": f"m{n}@example.com", "fieldValues": {"member": f"Member {n}"}}
        yield (job_id, n, external_id, json.dumps(given), "succeeded", ids.new_id("pass"),
               False)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
