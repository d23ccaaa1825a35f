"""CPU of `POST /v1/passes` against `GET /v1/me`, in-process, in the same run.

The Flask test client (the app and the database, not the HTTP stack or gunicorn): ROUNDS
alternating rounds of CALLS requests each, `GET /v1/me` then `POST /v1/passes` (each with a
new Idempotency-Key and the same body as bench/issue_throughput.py), timed with the
process's CPU clock (every thread: SQLite's checkpointer and the in-process job queue
count). The ratio is the median of the rounds' ratios. Target (issue 34): at most 2.5.

`python -m bench.issue_cpu [--databases sqlite,postgres] [--calls N] [--rounds N]
[--profile FILE]` (`--profile`: cProfile of the issues of one more round, SQLite only,
written to FILE for `python -m pstats`).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.issue_throughput import TEMPLATE
from bench.server import databases, new_organization

TARGET = 2.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.issue_cpu", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--calls", type=int, default=300, help="requests per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args(argv or [])
    ok = True
    for label, url, tmp in databases(args.databases):
        profile = args.profile if label == "sqlite" else None
        ok = _run(label, url, tmp, {**vars(args), "profile": profile}) and ok
    return 0 if ok else 1


def _run(label: str, url: str, tmp: Path, options: dict[str, Any]) -> bool:
    app, created = new_organization(url, tmp)
    key = created.keys["test"]
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}"}
    created = client.post("/v1/templates", json=TEMPLATE,
                          headers={**headers, "Idempotency-Key": str(uuid.uuid4())})
    assert created.status_code == 201, created.get_data(as_text=True)
    body = {"templateId": created.get_json()["id"], "holderName": "Bench Holder",
            "fieldValues": {"member": "Ada", "level": 3}}

    def me() -> None:
        response = client.get("/v1/me", headers=headers)
        assert response.status_code == 200, response.get_data(as_text=True)

    def issue() -> None:
        response = client.post("/v1/passes", json=body,
                               headers={**headers, "Idempotency-Key": str(uuid.uuid4())})
        assert response.status_code == 201, response.get_data(as_text=True)

    calls = options["calls"]
    _cpu(me, calls)  # warm up both
    _cpu(issue, calls)
    gc.freeze()  # as wsgi.py does after the app is made
    rounds = [(_cpu(me, calls), _cpu(issue, calls)) for _ in range(options["rounds"])]
    if options.get("profile"):
        profile = cProfile.Profile()
        profile.runcall(_cpu, issue, calls)
        profile.dump_stats(str(options["profile"]))
    ratio = statistics.median(issued / mine for mine, issued in rounds)
    me_ms = statistics.median(m for m, _ in rounds) * 1000
    issue_ms = statistics.median(i for _, i in rounds) * 1000
    print(f"{label:9} CPU per request: GET /v1/me {me_ms:.2f} ms, POST /v1/passes "
          f"{issue_ms:.2f} ms; rounds' ratios "
          + ", ".join(f"{i / m:.2f}" for m, i in rounds), flush=True)
    met = ratio <= TARGET
    print(f"{label:9} ratio issue/me = {ratio:.2f} (median of {len(rounds)}; target <= "
          f"{TARGET}): {'OK' if met else 'MISSED'}", flush=True)
    return met


def _cpu(call: Callable[[], None], calls: int) -> float:
    """CPU seconds of the process per call."""
    start = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - start) / calls


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
