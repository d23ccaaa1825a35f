"""Bulk jobs (issue 17): 100,000 passes issued, updated and upgraded through /v1/bulk-jobs.

The service as deployed: gunicorn with 2 workers on a free loopback port; on SQLite the jobs
run in the web process (no Redis), on PostgreSQL in RQ workers (`python -m jobs.worker`) on
a throwaway Redis. Apple-only passes, a fake APNs (HTTP/2 over TLS, in this process) and one
registered device per pass, so `update` and `upgrade` push to 100,000 devices.

1. Baseline, same server, same run: `POST /v1/passes` from 8 clients, 2,000 passes.
2. Issue: 10 POSTs of 10,000 items, timed from the first POST to the last job `completed`.
   Target: at least 2,000 passes/s, and the rate does not fall from 1,000 to 100,000 passes
   (the rate of each 10,000-pass slice is printed).
3. Update (`notificationMode: notify`, a wallet-visible field) and upgrade (a new template
   revision) of the same passes: job rate, and the push rate the fake APNs sees.
4. Peak RSS (VmHWM) of every server and worker process. Target: under 300 MB each.

`python -m bench.bulk_jobs [--passes N] [--posts N] [--databases sqlite,postgres]
[--rq-workers N] [--push-seconds S]`: with `--push-seconds` the pushes are counted for S
seconds after each job completed instead of until all arrived (100,000 take 10-25 minutes).
The devices are written straight into `apple_registrations` (one insert per 5,000 rows), as
a wallet's registrations would have left them. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from bench.issue_throughput import TEMPLATE
from bench.server import ROOT, Server

PASSES = 100_000
POSTS = 10
BASELINE_PASSES = 2_000
BASELINE_CLIENTS = 8
TARGET_RATE = 2_000.0
TARGET_RSS_MB = 300.0
PASS_TYPE = "pass.dev.bench.bulk"
FINISHED = ("completed", "failed", "canceled")
# The template of the bulk passes: Apple only (the Google step would call Google's API).
DEFINITION = {**cast(dict[str, Any], TEMPLATE["definition"]),
              "platforms": {"apple": True, "google": False}}


@dataclass
class Result:
    """What one database's run measured (the smoke test reads it)."""

    label: str
    baseline_rate: float = 0.0
    rates: dict[str, float] = field(default_factory=dict)  # operation -> items/s
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # operation -> counts
    slices: list[tuple[int, int, float]] = field(default_factory=list)  # issue: from, to, /s
    # operation -> the slowest `GET /v1/bulk-jobs` while it ran (s), and polls not answered 200
    polls: dict[str, tuple[float, list[str]]] = field(default_factory=dict)
    # operation -> pushes, pushes/s (first to last), seconds from the first POST to the last
    pushes: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    rss_mb: dict[str, float] = field(default_factory=dict)  # process -> peak MB


# ---- processes and their memory ---------------------------------------------------------

def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc/<pid>/stat (ppid is the 4th field)."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _peak_kb(pid: int) -> int | None:
    """The process's peak resident set (VmHWM), in kB."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


class Memory:
    """Samples the peak RSS of some processes and their descendants every 0.2 s."""

    def __init__(self) -> None:
        self.roots: dict[int, str] = {}  # pid -> label
        self.peaks: dict[str, int] = {}  # label -> kB
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="rss")

    def watch(self, pid: int, label: str) -> None:
        self.roots[pid] = label

    def start(self) -> Memory:
        self._thread.start()
        return self

    def stop(self) -> dict[str, float]:
        """Stop sampling; the peak of each process, in MB."""
        self.sample()
        self._stop.set()
        self._thread.join()
        return {label: kb / 1024 for label, kb in sorted(self.peaks.items())}

    def sample(self) -> None:
        tree = _children()
        for root, label in list(self.roots.items()):
            self._record(root, label, tree)

    def _record(self, pid: int, label: str, tree: dict[int, list[int]]) -> None:
        peak = _peak_kb(pid)
        if peak is not None:
            self.peaks[label] = max(self.peaks.get(label, 0), peak)
        for number, child in enumerate(sorted(tree.get(pid, [])), 1):
            kind = "worker" if label == "gunicorn" else "child"  # an RQ worker's: its scheduler
            self._record(child, f"{label} {kind} {number}", tree)

    def _loop(self) -> None:
        while not self._stop.wait(0.2):
            self.sample()


# ---- the fake APNs, Redis, RQ workers ----------------------------------------------------

def _apple() -> tuple[Any, dict[str, str]]:
    """A started fake APNs and the server settings that point the demo identity at it."""
    from cryptography.hazmat.primitives import serialization

    from tests.support.fake_apns import FakeApns
    from webapp.wallets.apple import certificates

    chain = certificates.make_demo_chain(PASS_TYPE, "BENCH00001", "Bench Bulk")
    fake = FakeApns([chain.root.public_bytes(serialization.Encoding.PEM)]).start()
    p12 = base64.b64encode(certificates.to_p12(chain.identity, None)).decode()
    return fake, {"APNS_URL": fake.base, "APNS_CA_FILE": fake.ca_file, "DEMO_APPLE_P12": p12}


def _rq_workers(env: dict[str, str], count: int, log: Path) -> list[subprocess.Popen[bytes]]:
    with log.open("ab") as out:
        return [subprocess.Popen([sys.executable, "-m", "jobs.worker"], cwd=ROOT, env=env,
                                 stdout=out, stderr=out, start_new_session=True)
                for _ in range(count)]


# ---- the API -------------------------------------------------------------------------------

def _post(server: Server, path: str, body: Any, expected: int, method: str = "POST") -> Any:
    status, payload = server.request(method, path, body, idem=str(uuid.uuid4()))
    assert status == expected, (path, status, payload[:500])
    return json.loads(payload)


def _baseline(server: Server, template_id: str, count: int) -> float:
    """Passes per second of `POST /v1/passes` from BASELINE_CLIENTS clients."""
    left = [count]
    lock = threading.Lock()
    errors: list[int] = []

    def client() -> None:
        while True:
            with lock:
                if left[0] <= 0:
                    return
                left[0] -= 1
            status, _ = server.request("POST", "/v1/passes", {
                "templateId": template_id, "holderName": "Bench Holder",
                "fieldValues": {"member": "Ada", "level": 3}}, idem=str(uuid.uuid4()))
            if status != 201:
                errors.append(status)

    threads = [threading.Thread(target=client) for _ in range(BASELINE_CLIENTS)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:5]
    return count / (time.perf_counter() - began)


class Progress:
    """Samples the jobs' progress (`GET /v1/bulk-jobs`) and the fake APNs' pushes every
    0.2 s in a thread, from the first POST of a run on (the POSTs go out meanwhile)."""

    def __init__(self, server: Server, fake: Any) -> None:
        self.server, self.fake = server, fake
        self.began = time.perf_counter()
        self.job_ids: set[str] = set()
        self.jobs: list[dict[str, Any]] = []
        self.slowest_poll = 0.0  # seconds: how the API answers while the jobs run
        self.failed_polls: list[str] = []
        self.samples: list[tuple[float, int]] = []  # (seconds since began, items done)
        self.push_samples: list[tuple[float, int]] = []  # (seconds since began, pushes)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Time from now: the first POST of a run."""
        self.began = time.perf_counter()
        self.job_ids, self.jobs = set(), []
        self.slowest_poll, self.failed_polls = 0.0, []
        self.samples, self.push_samples = [], []
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="progress")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def sample(self) -> None:
        ours = set(self.job_ids)
        if ours:
            started = time.perf_counter()
            try:
                status, body = self.server.request("GET", f"/v1/bulk-jobs?limit={len(ours)}")
            except OSError as exc:  # a timeout (30 s) is a figure, not the end of the run
                status, body = 0, type(exc).__name__.encode()
            self.slowest_poll = max(self.slowest_poll, time.perf_counter() - started)
            if status == 200:
                self.jobs = [job for job in json.loads(body)["data"] if job["id"] in ours]
            else:
                self.failed_polls.append(f"{status} {body[:100]!r}")
        now = time.perf_counter() - self.began
        self.samples.append((now, sum(j["counts"]["total"] - j["counts"]["pending"]
                                      for j in self.jobs)))
        self.push_samples.append((now, len(self.fake.pushes)))

    def _loop(self) -> None:
        while not self._stop.wait(0.2):
            self.sample()

    def finished(self, count: int) -> bool:
        return len(self.jobs) == count and all(j["status"] in FINISHED for j in self.jobs)

    def wait(self, done: Any, timeout: float, stall: float | None = None) -> None:
        """Until `done()`, `timeout` seconds after the start, or (with `stall`) no new
        push for that long."""
        last_change, last = time.perf_counter(), -1
        while not done():
            assert time.perf_counter() - self.began < timeout, f"unfinished: {self.jobs}"
            count = len(self.fake.pushes)
            if count != last:
                last, last_change = count, time.perf_counter()
            elif stall is not None and time.perf_counter() - last_change > stall:
                return
            time.sleep(0.1)

    def push_rate(self, finished: float) -> tuple[int, float, float]:
        """Pushes received; their rate from `finished` (the jobs completed; seconds since
        the first POST) to the last push, or from the first push if they all came before
        (in-process, pushes start with the first chunk; with RQ, after the jobs); and the
        seconds from the first POST to the last push."""
        count = self.push_samples[-1][1] if self.push_samples else 0
        if count < 2:
            return count, 0.0, 0.0
        last = next(t for t, n in self.push_samples if n >= count)
        before = max((n for t, n in self.push_samples if t <= finished), default=0)
        if before < count:
            return count, (count - before) / max(last - finished, 0.2), last
        first = next(t for t, n in self.push_samples if n > 0)
        return count, count / max(last - first, 0.2), last


def slices(samples: list[tuple[float, int]], total: int) -> list[tuple[int, int, float]]:
    """The rate of each slice of the run: up to 1% of `total`, then each 10% after it
    (1,000, 10,000, 20,000 ... of 100,000), from the first sample at or past each mark."""
    marks = [0, max(total // 100, 1)] + [total * n // 10 for n in range(1, 11)]
    times = []
    for mark in marks:
        found = next((t for t, done in samples if done >= mark), None) if mark else 0.0
        times.append(found)
    cuts = []
    for (lo, t0), (hi, t1) in zip(zip(marks, times, strict=True),
                                  zip(marks[1:], times[1:], strict=True), strict=False):
        if t0 is not None and t1 is not None and hi > lo:
            cuts.append((lo, hi, (hi - lo) / max(t1 - t0, 1e-3)))
    return cuts


def _run_jobs(server: Server, progress: Progress, bodies: list[dict[str, Any]],
              timeout: float, pushes: int = 0, push_seconds: float = 0
              ) -> tuple[float, list[dict[str, Any]]]:
    """POST the jobs one after the other; seconds from the first POST to the last job
    finished; then wait for `pushes` pushes at the fake APNs (or a minute without one, or
    `push_seconds` after the jobs finished if set: the rate is then that of a part)."""
    progress.start()
    try:
        for body in bodies:
            progress.job_ids.add(_post(server, "/v1/bulk-jobs", body, 202)["id"])
        progress.wait(lambda: progress.finished(len(bodies)), timeout)
        total = sum(job["counts"]["total"] for job in progress.jobs)
        elapsed = next(t for t, done in progress.samples if done >= total)
        if pushes:
            until = progress.began + elapsed + (push_seconds or timeout)
            progress.wait(lambda: len(progress.fake.pushes) >= pushes
                          or time.perf_counter() > until, timeout, stall=60)
    finally:
        progress.stop()
    progress.sample()
    return elapsed, progress.jobs


def _polls(progress: Progress) -> tuple[float, list[str]]:
    return progress.slowest_poll, list(progress.failed_polls)


def _totals(jobs: list[dict[str, Any]]) -> dict[str, int]:
    return {name: sum(j["counts"][name] for j in jobs)
            for name in ("total", "succeeded", "failed", "canceled", "pending")}


# ---- the devices ---------------------------------------------------------------------------

def _register_devices(database_url: str, template_id: str) -> list[str]:
    """One registered device per pass of the template; returns the pass IDs (oldest first)."""
    from sqlalchemy import Table, create_engine, select

    from webapp import clock
    from webapp.models import AppleRegistration, Pass

    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            rows = conn.execute(select(Pass.id, Pass.organization_id, Pass.environment)
                                .where(Pass.template_id == template_id).order_by(Pass.id)).all()
            now = clock.now()
            table = cast(Table, AppleRegistration.__table__)
            for start in range(0, len(rows), 5000):
                conn.execute(table.insert(), [
                    {"pass_id": pass_id, "organization_id": org, "environment": env,
                     "device_library_id": f"device{start + n:07d}",
                     "pass_type_identifier": PASS_TYPE, "push_token": f"{start + n:064x}",
                     "created_at": now, "updated_at": now}
                    for n, (pass_id, org, env) in enumerate(rows[start:start + 5000])])
    finally:
        engine.dispose()
    return [row[0] for row in rows]


# ---- one database --------------------------------------------------------------------------

def run(label: str, database_url: str | None, *, passes: int = PASSES, posts: int = POSTS,
        rq_workers: int = 0, baseline: int = BASELINE_PASSES, timeout: float = 3600,
        push_seconds: float = 0) -> Result:
    """The whole benchmark on one database; RQ workers on a throwaway Redis if
    `rq_workers`, else the jobs run in the web process."""
    from tests.support.services import RedisServer

    result = Result(label)
    fake, apple_env = _apple()
    redis = RedisServer() if rq_workers else None
    env = {**apple_env, **({"REDIS_URL": redis.url} if redis else {})}
    server = Server(database_url, env=env)
    memory = Memory()
    workers: list[subprocess.Popen[bytes]] = []
    try:
        memory.watch(server.process.pid, "gunicorn")
        if redis:
            workers = _rq_workers(server.env, rq_workers, server.tmp / "worker.log")
            for number, worker in enumerate(workers, 1):
                memory.watch(worker.pid, f"rq worker {number}")
        memory.start()
        progress = Progress(server, fake)
        other = _post(server, "/v1/templates", {**TEMPLATE, "definition": DEFINITION}, 201)
        result.baseline_rate = _baseline(server, other["id"], min(baseline, passes))
        print(f"{label:10} ... baseline {result.baseline_rate:.0f} passes/s", flush=True)
        exited = [w.returncode for w in workers if w.poll() is not None]
        assert not exited, f"RQ workers exited ({exited}): see {server.tmp}/worker.log"

        template = _post(server, "/v1/templates", {**TEMPLATE, "name": "Bulk",
                                                   "definition": DEFINITION}, 201)
        per_post = -(-passes // posts)
        bodies = [{"operation": "issue", "templateId": template["id"], "items": [
            {"holderName": f"Member {n}", "externalId": f"m-{n}",
             "fieldValues": {"member": f"Member {n}", "level": 1}}
            for n in range(start, min(start + per_post, passes))]}
            for start in range(0, passes, per_post)]
        elapsed, jobs = _run_jobs(server, progress, bodies, timeout)
        result.rates["issue"] = passes / elapsed
        result.counts["issue"] = _totals(jobs)
        result.polls["issue"] = _polls(progress)
        result.slices = slices(progress.samples, passes)
        _say(result, "issue", elapsed, memory)

        pass_ids = _register_devices(server.env["DATABASE_URL"], template["id"])
        assert len(pass_ids) == passes, len(pass_ids)
        fake.reset()
        bodies = [{"operation": "update", "notificationMode": "notify", "items": [
            {"passId": pass_id, "fieldValues": {"level": 2}}
            for pass_id in pass_ids[start:start + per_post]]}
            for start in range(0, passes, per_post)]
        elapsed, jobs = _run_jobs(server, progress, bodies, timeout, pushes=passes,
                                  push_seconds=push_seconds)
        result.rates["update"] = passes / elapsed
        result.counts["update"] = _totals(jobs)
        result.polls["update"] = _polls(progress)
        result.pushes["update"] = progress.push_rate(elapsed)
        _say(result, "update", elapsed, memory)

        fake.reset()
        _post(server, f"/v1/templates/{template['id']}", {
            "expectedRevision": template["revision"],
            "definition": {**DEFINITION, "description": "Membership 2027"}}, 200, "PATCH")
        elapsed, jobs = _run_jobs(server, progress, [{
            "operation": "upgrade", "templateId": template["id"],
            "notificationMode": "notify"}], timeout, pushes=passes, push_seconds=push_seconds)
        result.rates["upgrade"] = passes / elapsed
        result.counts["upgrade"] = _totals(jobs)
        result.polls["upgrade"] = _polls(progress)
        result.pushes["upgrade"] = progress.push_rate(elapsed)
        _say(result, "upgrade", elapsed, memory)
    finally:
        result.rss_mb = memory.stop()
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)
        try:
            server.stop()
        except subprocess.TimeoutExpired:  # in-process jobs: a worker drains its queue first
            server.process.kill()
            server.process.wait()
            shutil.rmtree(server.tmp, ignore_errors=True)
        if redis:
            redis.stop()
        fake.stop()
    return result


def _say(result: Result, operation: str, elapsed: float, memory: Memory) -> None:
    """A line as each step ends (a long run shows where it is)."""
    pushes = result.pushes.get(operation)
    print(f"{result.label:10} ... {operation} done in {elapsed:.1f} s: {result.counts[operation]}"
          + (f"; {pushes[0]:,} pushes at {pushes[1]:.0f}/s, the last {pushes[2]:.1f} s after "
             "the first POST" if pushes else "")
          + f"; slowest poll {result.polls[operation][0]:.2f} s, "
          f"{len(result.polls[operation][1])} failed"
          + (f"; slices {result.slices}" if operation == "issue" else "")
          + f"; peak RSS so far {memory.peaks}", flush=True)


# ---- the report ----------------------------------------------------------------------------

def trend(cuts: list[tuple[int, int, float]]) -> float:
    """The mean rate of the last three 10% slices over that of the first three after 1%:
    under 1 the rate falls as the passes grow."""
    tenth = [rate for _, _, rate in cuts[1:]]
    if len(tenth) < 6:
        return 1.0
    return statistics.mean(tenth[-3:]) / statistics.mean(tenth[:3])


def report(result: Result, passes: int, posts: int) -> bool:
    """Print the figures of one database's run; True when every target holds."""
    label, ok = f"{result.label:10}", True
    print(f"{label} baseline POST /v1/passes ({BASELINE_CLIENTS} clients): "
          f"{result.baseline_rate:,.0f} passes/s")
    for operation, rate in result.rates.items():
        counts = result.counts[operation]
        line = (f"{label} {operation:8} {passes:,} passes: {passes / rate:6.1f} s, "
                f"{rate:,.0f}/s ({rate / result.baseline_rate:.1f}x the single endpoint); "
                f"succeeded {counts['succeeded']:,}, failed {counts['failed']:,}")
        if operation == "issue":
            verdict = "OK" if rate >= TARGET_RATE else "MISSED"
            ok = ok and rate >= TARGET_RATE
            line += f"; {posts} POSTs; target >= {TARGET_RATE:,.0f}/s: {verdict}"
        if operation in result.pushes:
            count, push_rate, last = result.pushes[operation]
            line += (f"; pushes {count:,} of {passes:,}, {push_rate:,.0f}/s after the job "
                     f"completed, the last {last:.1f} s after the first POST")
        slowest, failed = result.polls.get(operation, (0.0, []))
        line += f"; slowest GET /v1/bulk-jobs meanwhile {slowest:.2f} s"
        if failed:
            line += f", {len(failed)} not answered 200 (first: {failed[0]})"
        print(line)
    print(f"{label} issue slices (passes, passes/s): "
          + ", ".join(f"{lo:,}-{hi:,} {rate:,.0f}" for lo, hi, rate in result.slices))
    ratio = trend(result.slices)
    print(f"{label} last three slices / first three = {ratio:.2f} (must not fall, >= 0.85): "
          f"{'OK' if ratio >= 0.85 else 'FELL'}")
    ok = ok and ratio >= 0.85
    peak = max(result.rss_mb.values(), default=0.0)
    print(f"{label} peak RSS (VmHWM): "
          + ", ".join(f"{name} {mb:.0f} MB" for name, mb in result.rss_mb.items())
          + f"; target < {TARGET_RSS_MB:.0f} MB each: "
          + ("OK" if peak < TARGET_RSS_MB else "MISSED"))
    return ok and peak < TARGET_RSS_MB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bulk_jobs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--passes", type=int, default=PASSES)
    parser.add_argument("--posts", type=int, default=POSTS)
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--rq-workers", type=int, default=1,
                        help="RQ workers on PostgreSQL (0: jobs in the web process)")
    parser.add_argument("--push-seconds", type=float, default=0,
                        help="measure pushes for this long after each job (0: until all)")
    args = parser.parse_args(argv or [])
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            result = run("sqlite", None, passes=args.passes, posts=args.posts,
                         push_seconds=args.push_seconds)
        else:
            result = _postgres(args.passes, args.posts, args.rq_workers, args.push_seconds)
        ok = report(result, args.passes, args.posts) and ok
    return 0 if ok else 1


def _postgres(passes: int, posts: int, rq_workers: int, push_seconds: float) -> Result:
    import psycopg

    from tests.support.services import PostgresCluster

    cluster = PostgresCluster()
    try:
        with psycopg.connect(cluster.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        label = "postgres" + (f"+rq{rq_workers}" if rq_workers else "")
        return run(label, cluster.url("bench"), passes=passes, posts=posts,
                   rq_workers=rq_workers, push_seconds=push_seconds)
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
