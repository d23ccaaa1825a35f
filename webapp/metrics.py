"""Every Prometheus metric of the service, in one place (served by `webapp.monitoring`).

prometheus_client's multiprocess mode: each process (gunicorn worker, RQ worker, a `flask`
command that issues passes) writes its values to files of its own in one folder per node,
and `GET /metrics` adds them up. The folder is `PROMETHEUS_MULTIPROC_DIR`, else `metrics/`
in the instance folder. gunicorn empties it of the web processes' files as it starts
(`gunicorn.conf.py`); an RQ worker's files are named `*_w<host>-<pid>.db`, so a worker sharing
the folder (same node, or a volume shared with its web container, where PIDs of different
containers may be equal) is counted and never wiped by a web server's restart.

Label values come from small fixed sets only (route templates, task names, outcome words,
`test`/`live`): never an ID, a token or an organization's name.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from prometheus_client import Counter, Histogram, values

PREFIX = "pass_service_"
WORKER_MARK = "w"  # in an RQ worker's file names: `counter_wnode-a-1234.db`
_DEFAULT_INSTANCE = Path(__file__).resolve().parent.parent / "instance"
_mark: str | None = None  # set by `init`: "" for web and command processes, "w<host>-" for workers


def directory() -> Path:
    """This node's folder of metric files."""
    chosen = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("INSTANCE_PATH") or _DEFAULT_INSTANCE) / "metrics"


def init(worker: bool = False) -> None:
    """Count this process's values in the node's folder (once per process; the RQ worker
    calls it first, as a worker). Values are made at a metric's first `.labels()`."""
    global _mark
    if _mark is not None:
        return
    folder = directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RuntimeError(f"The metrics folder {folder} cannot be made ({exc.strerror}): set "
                           "PROMETHEUS_MULTIPROC_DIR or INSTANCE_PATH to a folder this "
                           "process can write.") from exc
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    _mark = f"{WORKER_MARK}{socket.gethostname()}-" if worker else ""
    values.ValueClass = values.MultiProcessValue(process_identifier=_process_id)


def _process_id() -> str:
    return f"{_mark}{os.getpid()}"


def clean_web_files(folder: Path) -> int:
    """Remove the files of web and command processes (gunicorn is starting: none of them
    runs); RQ workers' files stay. How many were removed."""
    removed = 0
    for path in folder.glob("*.db"):
        if path.stem.rsplit("_", 1)[-1].isdigit():
            path.unlink(missing_ok=True)
            removed += 1
    return removed


_LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

HTTP_REQUESTS = Counter(
    PREFIX + "http_requests", "HTTP requests answered, by route template, method and status.",
    ["route", "method", "status"])
HTTP_LATENCY = Histogram(
    PREFIX + "http_request_duration_seconds", "Time to answer an HTTP request.",
    ["route", "method"], buckets=_LATENCY)
JOBS = Counter(PREFIX + "jobs", "Background jobs run, by kind (task) and outcome.",
               ["kind", "outcome"])
JOB_LATENCY = Histogram(PREFIX + "job_duration_seconds", "Time a background job ran.",
                        ["kind"], buckets=_LATENCY)
APNS_PUSHES = Counter(PREFIX + "apns_pushes", "Apple steps of pass updates, by outcome.",
                      ["outcome"])
GOOGLE_PUSHES = Counter(PREFIX + "google_pushes", "Google steps of pass updates, by outcome.",
                        ["outcome"])
WEBHOOK_DELIVERIES = Counter(
    PREFIX + "webhook_deliveries", "Webhook delivery attempts, by outcome.", ["outcome"])
WEBHOOK_LATENCY = Histogram(
    PREFIX + "webhook_delivery_duration_seconds", "Time a webhook receiver took to answer.",
    ["outcome"], buckets=_LATENCY)
EMAILS = Counter(PREFIX + "emails", "Email attempts, by kind (pass, invitation) and outcome.",
                 ["kind", "outcome"])
BULK_ITEMS = Counter(PREFIX + "bulk_items", "Bulk-job items applied, by operation and outcome.",
                     ["operation", "outcome"])
RATELIMIT_STORAGE_ERRORS = Counter(
    PREFIX + "ratelimit_storage_errors",
    "Times the rate-limit counters' storage (Redis, or the counters file) failed.", ["storage"])
PASSES_ISSUED = Counter(PREFIX + "passes_issued", "Passes issued, by environment.",
                        ["environment"])

# Outcome words: the fixed vocabulary of the `outcome` labels above.
SUCCEEDED, FAILED, RETRY = "succeeded", "failed", "retry"
