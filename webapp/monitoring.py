"""What an operator's load balancer and Prometheus read: `/healthz`, `/readyz`, `/metrics`.

- `GET /healthz`: 200 `{"status": "ok"}` while the process answers; no database call.
- `GET /readyz`: 200 when every check of `services/installation/readiness` passes, else 503;
  the body names each check and its word, nothing else (no host, no version).
- `GET /metrics`: Prometheus' text format, every process of the node added up
  (`webapp.metrics`). Only with `METRICS_TOKEN` set, and then only for
  `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it the route answers 404,
  as if it did not exist (decisions.md "Health and metrics").

None of them takes a key or a session, counts against a rate limit, or logs a line above
debug level (`webapp.logging.QUIET_PATHS`); they are left out of the request metrics too, so
the 5xx rate is the users' (a failing `/readyz` has an alert of its own).
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, g, jsonify, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from webapp import metrics
from webapp.logging import QUIET_PATHS

bp = Blueprint("monitoring", __name__)
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_UNMATCHED = "[unmatched]"  # a request no route took (404, 405): one label, whatever the path


@bp.get("/healthz")
def healthz() -> Response:
    return _no_store(jsonify(status="ok"))


@bp.get("/readyz")
def readyz() -> tuple[Response, int]:
    from webapp.services.installation import readiness

    checks = readiness.checks(current_app.extensions["migrate"].directory,
                              current_app.config.get("REDIS_URL"))
    ready = all(word == readiness.OK for word in checks.values())
    body: dict[str, Any] = {"status": "ready" if ready else "unavailable", "checks": checks}
    if not ready:
        body["failed"] = [name for name, word in checks.items() if word != readiness.OK]
    return _no_store(jsonify(body)), 200 if ready else 503


@bp.get("/metrics")
def metrics_text() -> Response | tuple[str, int, dict[str, str]]:
    token = current_app.config.get("METRICS_TOKEN") or ""
    if not token:
        abort(404)  # the page any unknown path gets
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return "Unauthorized\n", 401, {"Content-Type": "text/plain; charset=utf-8",
                                       "WWW-Authenticate": 'Bearer realm="metrics"'}
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics.directory()))
    registry.register(QueueDepth(current_app._get_current_object()))  # type: ignore[attr-defined]
    return _no_store(Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST))


class QueueDepth:
    """`pass_service_queue_depth{queue}`, read when scraped: RQ's queues in Redis, or this
    process's in-process jobs without Redis. Nothing when Redis does not answer."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        from jobs import queue

        depths = queue.depths(self.app)
        if depths is None:
            return
        gauge = GaugeMetricFamily(metrics.PREFIX + "queue_depth",
                                  "Jobs waiting in each queue.", labels=["queue"])
        for name, depth in sorted(depths.items()):
            gauge.add_metric([name], depth)
        yield gauge


def init_app(app: Flask) -> None:
    """Register the routes (no rate limit) and count every other request."""
    from webapp.extensions import limiter

    limiter.exempt(bp)
    app.register_blueprint(bp)
    app.after_request(_count)


def _count(response: Response) -> Response:
    if request.path in QUIET_PATHS:
        return response
    rule = request.url_rule
    route = rule.rule if rule is not None else _UNMATCHED
    method = request.method if request.method in _METHODS else "OTHER"
    started = g.get("started")
    metrics.HTTP_REQUESTS.labels(route, method, str(response.status_code)).inc()
    if started is not None:
        metrics.HTTP_LATENCY.labels(route, method).observe(time.perf_counter() - started)
    return response


def _no_store(response: Any) -> Any:
    response.headers["Cache-Control"] = "no-store"
    return response
