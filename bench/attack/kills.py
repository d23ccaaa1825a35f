"""Part 3: passes issued from several threads while gunicorn's workers are SIGKILLed; clients
retry with the same Idempotency-Key, and no pass may be lost or doubled."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.attack.client import call
from bench.attack.report import Row, at_most, note
from bench.attack.world import created, new_org, template_body
from bench.server import Server


def worker_pids(master: int) -> list[int]:
    """gunicorn's workers (the processes whose parent is the master), oldest first."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            after_name = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(after_name[1]) == master:  # fields 4 (parent) and 22 (start time) of stat(5)
            workers.append((int(after_name[19]), int(stat.parent.name)))
    return [pid for _started, pid in sorted(workers)]


@dataclass
class KillTally:
    requests: int = 0
    retried: Counter[str] = field(default_factory=Counter)  # why: dropped, 5xx, 409, 429
    acknowledged: set[str] = field(default_factory=set)
    abandoned: set[str] = field(default_factory=set)
    kills: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def issue_until_acknowledged(port: int, key: str, template_id: str, label: str,
                             tally: KillTally) -> None:
    """Issue one pass; on a dropped connection, a 5xx or a key still in use, retry with the
    same Idempotency-Key (and body), as a client must."""
    body = {"templateId": template_id, "holderName": label, "fieldValues": {"member": label}}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with tally.lock:
            tally.requests += 1
        try:
            answer = call(port, "POST", "/v1/passes", key=key, body=body, idem=label, timeout=30)
            why = "5xx" if answer.status >= 500 else str(answer.status)
        except (OSError, http.client.HTTPException):  # the worker died with the request
            why = "dropped"
        if why == "201":
            with tally.lock:
                tally.acknowledged.add(label)
            return
        if why not in ("dropped", "5xx", "409", "429"):
            note("kills", f"{label}: {answer.status} {answer.body[:200]!r}")
            break
        with tally.lock:
            tally.retried[why] += 1
        time.sleep(0.05)
    with tally.lock:
        tally.abandoned.add(label)


def kill_workers(server: Server, kills: int, every: float, tally: KillTally) -> None:
    """SIGKILL a worker `kills` times, `every` seconds after the last one was replaced: the
    oldest, which is serving (a new one may still be loading the app)."""
    for _ in range(kills):
        time.sleep(every)
        pids = worker_pids(server.process.pid)
        if not pids:
            continue
        with contextlib.suppress(ProcessLookupError):
            os.kill(pids[0], signal.SIGKILL)
            tally.kills += 1
        deadline = time.monotonic() + 30  # gunicorn forks a new one
        while len(worker_pids(server.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)


def passes_by_holder(port: int, key: str, template_id: str) -> Counter[str]:
    """How many passes of the template there are per holder name (every page)."""
    found: Counter[str] = Counter()
    cursor = ""
    while True:
        page = call(port, "GET", f"/v1/passes?templateId={template_id}&limit=100{cursor}",
                    key=key).json()
        found.update(item["holderName"] for item in page["data"])
        if not page["hasMore"]:
            return found
        cursor = f"&cursor={page['nextCursor']}"


def kills(server: Server, kills: int, clients: int, every: float) -> list[Row]:
    """Passes issued by `clients` threads while workers are killed: none lost, none doubled."""
    port, key = server.port, new_org(server, "Kills")["keys"]["test"]  # no fuzzed webhooks
    template = created(call(port, "POST", "/v1/templates", key=key,
                            body=template_body("Kills")), "template")
    tally = KillTally()
    run = uuid.uuid4().hex[:8]
    numbers = iter(range(10**9))
    killing = threading.Thread(target=kill_workers, args=(server, kills, every, tally))

    def client() -> None:
        while killing.is_alive():  # a new key until the last kill; each key to its end
            with tally.lock:
                label = f"kill-{run}-{next(numbers)}"
            issue_until_acknowledged(port, key, template["id"], label, tally)

    started = time.monotonic()
    killing.start()
    with ThreadPoolExecutor(clients) as pool:
        for running in [pool.submit(client) for _ in range(clients)]:
            running.result()  # a client's exception is the run's
    killing.join()
    elapsed = time.monotonic() - started
    found = passes_by_holder(port, key, template["id"])
    lost = tally.acknowledged - set(found)
    doubled = [label for label, count in found.items() if count > 1]
    unacknowledged = set(found) - tally.acknowledged - tally.abandoned
    for what, labels in (("lost", lost), ("doubled", doubled),
                         ("found, never acknowledged", unacknowledged)):
        if labels:
            note("kills", f"{what}: {sorted(labels)[:10]}")
    part = "3 kills"
    return [Row(part, "workers killed (SIGKILL) / asked", f"{tally.kills} / {kills}", str(kills),
                tally.kills == kills),
            Row(part, "requests (clients x seconds)",
                f"{tally.requests:,} ({clients} x {elapsed:.0f} s)"),
            Row(part, "retried with the same key, by cause",
                ", ".join(f"{why} x {n}" for why, n in tally.retried.most_common()) or "none"),
            Row(part, "passes acknowledged (201) / found", f"{len(tally.acknowledged):,} / "
                f"{sum(found.values()):,}"),
            at_most(part, "passes lost (201, then not listed)", len(lost), 0),
            at_most(part, "passes doubled (one key, two passes)", len(doubled), 0),
            at_most(part, "keys abandoned after 60 s of retries", len(tally.abandoned), 0)]
