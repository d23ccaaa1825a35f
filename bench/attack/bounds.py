"""Part 4, the bounds probe: the first attack's 7.8 MB definition of bad items, and the worst
definition inside the limits, while another organization keeps writing."""

from __future__ import annotations

import json
import threading
import time
import uuid
from typing import Any

from bench.attack.client import call
from bench.attack.report import Row, at_most, probe
from bench.attack.world import template_body
from bench.server import Server


def stored_bytes(server: Server, key: str) -> int:
    """The size of the answer stored with an Idempotency-Key (0 when none was stored)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(server.env["DATABASE_URL"])
    try:
        with engine.connect() as conn:
            size = conn.execute(text("SELECT length(body) FROM idempotency_records "
                                     "WHERE key = :key"), {"key": key}).scalar()
    finally:
        engine.dispose()
    return int(size or 0)


def bad_back_fields(size: int) -> dict[str, Any]:
    """A template body of about `size` bytes: back fields of 150 bad members each."""
    body = template_body("Bad items")
    item = {f"m{j}": 0 for j in range(150)}
    body["definition"]["config"]["fields"]["back"] = [item] * (size // len(json.dumps(item)))
    return body


def heavy_request(server: Server, key: str, other_key: str, body: dict[str, Any],
                  label: str) -> list[Row]:
    """Send `body` to POST /v1/templates while another organization writes 10 times a
    second: status, time, answer size, stored size, the other's slowest write."""
    part, idem = "4 bounds", f"attack-{uuid.uuid4()}"
    raw = json.dumps(body).encode()
    latencies: list[float] = []
    done = threading.Event()

    def other_writes() -> None:
        while not done.is_set() or not latencies:
            answer = call(server.port, "POST", "/v1/templates", key=other_key,
                          body=template_body("Other organization"))
            latencies.append(answer.seconds)
            time.sleep(0.1)

    writer = threading.Thread(target=other_writes)
    writer.start()
    try:
        answer = call(server.port, "POST", "/v1/templates", key=key, data=raw, idem=idem,
                      headers={"Content-Type": "application/json"})
    finally:
        done.set()
        writer.join()
    error = (answer.json() or {}).get("error") or {}
    listed = f", {len(error['issues'])} issues of {error.get('issueCount')}" \
        if "issues" in error else ""
    return [Row(part, f"{label}: status ({len(raw) / 1e6:.1f} MB)",
                f"{answer.status} {answer.error_code()}{listed}", "400 or 413",
                answer.status in (400, 413)),
            at_most(part, f"{label}: seconds", round(answer.seconds, 2), 2, " s"),
            at_most(part, f"{label}: answer bytes", len(answer.body), 64 * 1024),
            at_most(part, f"{label}: stored answer bytes", stored_bytes(server, idem),
                    256 * 1024),
            at_most(part, f"{label}: another org's slowest write",
                    round(max(latencies), 2), 1, " s")]


@probe("4 bounds", "7.8 MB definition of bad items")
def bounds_probe(server: Server, a: dict[str, Any], b: dict[str, Any]) -> list[Row]:
    from tests.api.factories import definition

    worst = definition()  # the largest work inside the limits (tests/api/test_bounds.py)
    worst["config"]["fields"]["back"] = [{f"m{j}": 0 for j in range(150)} for _ in range(30)]
    worst["images"] = {f"s{i}": 0 for i in range(1_500)}
    return (heavy_request(server, a["keys"]["test"], b["keys"]["test"],
                          bad_back_fields(7_800_000), "7.8 MB of bad items")
            + heavy_request(server, a["keys"]["test"], b["keys"]["test"],
                            {"name": "Worst", "type": "generic", "definition": worst},
                            "worst definition in limits"))
