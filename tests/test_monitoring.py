"""GET /healthz, /readyz and /metrics (webapp/monitoring.py): what each answers, what each
keeps to itself, and the metrics' counts and labels."""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import event, text

from tests.api.factories import template_body
from tests.conftest import Api, app_with

TOKEN = "metrics-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app(database: dict[str, Any], database_url: str, tmp_path: Path) -> Iterator[Flask]:
    yield from app_with(database, database_url, tmp_path,
                        {"METRICS_TOKEN": TOKEN, "RATE_LIMIT_PUBLIC": 2,
                         "JOBS_SYNCHRONOUS": True, "WEBHOOKS_ALLOW_PRIVATE_NETWORKS": True})


def samples(client: FlaskClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of `/metrics`: (name, labels) -> value."""
    answer = client.get("/metrics", headers=AUTH)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for s in family.samples}


def value(all_samples: dict[Any, float], name: str, **labels: str) -> float:
    return all_samples.get((name, frozenset(labels.items())), 0.0)


# ---- /healthz and /readyz ------------------------------------------------------------------

def test_healthz_answers_without_touching_the_database(app: Flask, client: FlaskClient) -> None:
    from webapp.extensions import db

    statements: list[str] = []
    with app.app_context():
        engine = db.engine

    def seen(*args: Any) -> None:
        statements.append(args[2])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        answer = client.get("/healthz")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok"}
    assert statements == []


def test_readyz_is_200_with_each_check_named(client: FlaskClient) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ready",
                                 "checks": {"database": "ok", "migrations": "ok"}}
    assert answer.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("revision", "word"), [("0001", "behind"),
                                                ("ffffffffffff", "unknown_revision")])
def test_readyz_is_503_when_the_database_is_not_at_the_codes_migration(
        app: Flask, client: FlaskClient, revision: str, word: str) -> None:
    from webapp.extensions import db

    with app.app_context(), db.engine.begin() as conn:
        head = conn.scalar(text("SELECT version_num FROM alembic_version"))
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    try:
        answer = client.get("/readyz")
    finally:  # the PostgreSQL lane's database outlives the test
        with app.app_context(), db.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": head})
    assert answer.status_code == 503
    assert answer.get_json() == {"status": "unavailable",
                                 "checks": {"database": "ok", "migrations": word},
                                 "failed": ["migrations"]}


def test_readyz_is_503_when_never_migrated(app: Flask, client: FlaskClient) -> None:
    from webapp.extensions import db

    with app.app_context(), db.engine.begin() as conn:
        conn.execute(text("ALTER TABLE alembic_version RENAME TO alembic_version_away"))
    try:
        answer = client.get("/readyz")
    finally:  # the PostgreSQL lane's database outlives the test
        with app.app_context(), db.engine.begin() as conn:
            conn.execute(text("ALTER TABLE alembic_version_away RENAME TO alembic_version"))
    assert answer.status_code == 503
    assert answer.get_json()["checks"] == {"database": "ok", "migrations": "behind"}


def test_readyz_is_503_when_the_database_is_gone_and_says_nothing_else(
        app: Flask, client: FlaskClient, database: dict[str, Any], database_url: str) -> None:
    if database["kind"] != "sqlite":
        pytest.skip("the SQLite lane replaces the database file")
    from webapp.extensions import db

    path = Path(database_url.removeprefix("sqlite:///"))
    with app.app_context():
        db.engine.dispose()
    path.unlink()
    path.mkdir()  # a folder where the file was: SQLite cannot open it
    try:
        answer = client.get("/readyz")
    finally:
        path.rmdir()
    assert answer.status_code == 503
    assert answer.get_json() == {"status": "unavailable", "checks": {"database": "unreachable"},
                                 "failed": ["database"]}
    assert str(path.parent) not in answer.get_data(as_text=True)


def test_readyz_checks_redis_when_it_is_used(database: dict[str, Any], database_url: str,
                                             tmp_path: Path) -> None:
    from tests.jobs.conftest import Redis

    redis = Redis()
    try:
        for app in app_with(database, database_url, tmp_path, {"REDIS_URL": redis.url}):
            client = app.test_client()
            assert client.get("/readyz").get_json()["checks"]["redis"] == "ok"
            redis.stop()
            down = client.get("/readyz")
            assert down.status_code == 503
            assert down.get_json() == {
                "status": "unavailable", "failed": ["redis"],
                "checks": {"database": "ok", "migrations": "ok", "redis": "unreachable"}}
            assert str(redis.port) not in down.get_data(as_text=True)
            redis.start()
            assert client.get("/readyz").status_code == 200
    finally:
        redis.stop()


def test_probes_take_no_key_no_session_no_rate_limit_and_log_at_debug_only(
        client: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="webapp.request")
    for _ in range(5):  # RATE_LIMIT_PUBLIC is 2 a minute here
        for path in ("/healthz", "/readyz"):
            answer = client.get(path)
            assert answer.status_code == 200, path
            assert "Set-Cookie" not in answer.headers
            assert not any(name.startswith("RateLimit") for name, _ in answer.headers)
    lines = [r for r in caplog.records if r.name == "webapp.request"]
    assert lines and {r.levelno for r in lines} == {logging.DEBUG}
    caplog.clear()
    client.get("/v1/passes")
    assert [r.levelno for r in caplog.records if r.name == "webapp.request"] == [logging.INFO]


def test_gunicorns_access_log_leaves_the_probes_out() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "gunicorn_conf", Path(__file__).resolve().parents[1] / "gunicorn.conf.py")
    assert spec and spec.loader
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    logged: list[str] = []

    class Logger(conf.Logger):  # type: ignore[name-defined,misc]
        def __init__(self) -> None:
            pass

    def base_access(self: Any, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        logged.append(environ["PATH_INFO"])

    conf.glogging.Logger.access, original = base_access, conf.glogging.Logger.access
    try:
        for path in ("/healthz", "/readyz", "/metrics", "/v1/passes"):
            Logger().access(None, None, {"PATH_INFO": path}, None)
    finally:
        conf.glogging.Logger.access = original
    assert logged == ["/v1/passes"]


# ---- /metrics ------------------------------------------------------------------------------

def test_metrics_answer_404_without_a_token_configured(database: dict[str, Any],
                                                       database_url: str,
                                                       tmp_path: Path) -> None:
    for app in app_with(database, database_url, tmp_path):
        client = app.test_client()
        answer = client.get("/metrics", headers=AUTH)
        assert answer.status_code == 404
        assert answer.get_data() == client.get("/no/such/path", headers=AUTH).get_data()


@pytest.mark.parametrize("header", [None, "Bearer wrong", f"Bearer {TOKEN}x", TOKEN,
                                    f"Basic {TOKEN}", f"bearer  {TOKEN}"])
def test_metrics_answer_401_without_the_token(client: FlaskClient, header: str | None) -> None:
    answer = client.get("/metrics", headers={"Authorization": header} if header else {})
    assert answer.status_code == 401
    assert answer.headers["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert "pass_service" not in answer.get_data(as_text=True)


def test_metrics_count_requests_passes_and_jobs(client: FlaskClient, api: Api,
                                                live_api: Api) -> None:
    before = samples(client)
    template = api.post("/v1/templates", template_body()).get_json()
    made = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}})
    assert made.status_code == 201
    assert api.get("/v1/passes/pas_nope").status_code == 404
    client.get("/no/such/page")
    after = samples(client)
    answer = client.get("/metrics", headers=AUTH)
    assert answer.headers["Content-Type"].startswith("text/plain; version=")

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("pass_service_passes_issued_total", environment="test") == 1
    assert grew("pass_service_passes_issued_total", environment="live") == 0
    assert grew("pass_service_http_requests_total", route="/v1/passes", method="POST",
                status="201") == 1
    assert grew("pass_service_http_requests_total", route="/v1/passes/<pass_id>",
                method="GET", status="404") == 1
    assert grew("pass_service_http_requests_total", route="[unmatched]", method="GET",
                status="404") == 1
    assert grew("pass_service_http_request_duration_seconds_count", route="/v1/passes",
                method="POST") == 1
    assert value(after, "pass_service_queue_depth", queue="default") == 0
    # The probes and the scrapes themselves are left out.
    assert not any(dict(labels).get("route") in ("/metrics", "/readyz", "/healthz")
                   for _, labels in after)


def test_a_bulk_job_and_a_webhook_are_counted(client: FlaskClient, api: Api) -> None:
    from tests.support.receiver import Receiver

    receiver = Receiver().start()
    try:
        assert api.post("/v1/webhook-endpoints", {"url": receiver.url,
                                                  "enabledEvents": ["pass.created"]}
                        ).status_code == 201
        template = api.post("/v1/templates", template_body()).get_json()
        before = samples(client)
        job = api.post("/v1/bulk-jobs", {"operation": "issue", "templateId": template["id"],
                                         "items": [{"fieldValues": {"member": "A"}},
                                                   {"fieldValues": {"no_such_field": "x"}}]})
        assert job.status_code == 202, job.get_data(as_text=True)
        after = samples(client)
    finally:
        receiver.stop()

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("pass_service_bulk_items_total", operation="issue", outcome="succeeded") == 1
    assert grew("pass_service_bulk_items_total", operation="issue", outcome="failed") == 1
    assert grew("pass_service_passes_issued_total", environment="test") == 1
    assert grew("pass_service_jobs_total", kind="run_bulk_job", outcome="succeeded") >= 1
    assert grew("pass_service_job_duration_seconds_count", kind="run_bulk_job") >= 1
    assert grew("pass_service_webhook_deliveries_total", outcome="succeeded") >= 1
    assert grew("pass_service_webhook_delivery_duration_seconds_count",
                outcome="succeeded") >= 1


def test_a_failed_job_and_a_rate_limit_storage_error_are_counted(
        app: Flask, client: FlaskClient) -> None:
    from jobs import queue

    before = samples(client)
    queue._run(app, "sweep_pending", ())
    queue._run(app, "no_such_task", ())  # an unknown kind is one label, "other"
    logging.getLogger("flask-limiter").warning("Rate limit storage unreachable")
    after = samples(client)
    assert value(after, "pass_service_jobs_total", kind="sweep_pending", outcome="succeeded") \
        == value(before, "pass_service_jobs_total", kind="sweep_pending",
                 outcome="succeeded") + 1
    assert value(after, "pass_service_jobs_total", kind="other", outcome="failed") == \
        value(before, "pass_service_jobs_total", kind="other", outcome="failed") + 1
    errors = [v for (name, _), v in after.items()
              if name == "pass_service_ratelimit_storage_errors_total"]
    assert sum(errors) >= 1


def test_label_values_hold_no_ids_tokens_or_organization_names(
        client: FlaskClient, api: Api, org: dict[str, Any]) -> None:
    template = api.post("/v1/templates", template_body()).get_json()
    made = api.post("/v1/passes", {"templateId": template["id"],
                                   "fieldValues": {"member": "Ada"}}).get_json()
    secrets = [made["id"], made["shortId"], template["id"], org["id"], org["keys"]["test"],
               "Acme Tickets"]
    client.get(f"/p/{made['shortId']}")
    client.get(f"/p/{made['shortId']}/apple.pkpass")
    api.get(f"/v1/passes/{made['id']}")
    client.get(f"/{org['keys']['test']}/x?q={made['id']}")
    client.get("/dashboard/test/keys")  # a route with a converter: `<any(test, live):env>`
    text_answer = client.get("/metrics", headers=AUTH).get_data(as_text=True)
    for secret in secrets:
        assert secret not in text_answer
    allowed = {
        # a route template, its converters included (`<any(test, live):env>`)
        "route": re.compile(r"^(/[\w<>:/.\-(), ]*|\[unmatched\])$"),
        "method": re.compile(r"^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|OTHER)$"),
        "status": re.compile(r"^[1-5]\d\d$"),
        "environment": re.compile(r"^(test|live)$"),
        "queue": re.compile(r"^(default|bulk|webhooks)$"),
        "storage": re.compile(r"^(redis|file)$"),
        "outcome": re.compile(r"^[a-z_]{1,20}$"),
        "kind": re.compile(r"^[a-z_]{1,30}$"),
        "operation": re.compile(r"^(issue|update|upgrade|void|adjust_balance)$"),
        "le": re.compile(r"^([\d.e+]+|\+Inf)$"),
    }
    for family in text_string_to_metric_families(text_answer):
        for sample in family.samples:
            for label, label_value in sample.labels.items():
                assert label in allowed, (sample.name, label)
                assert allowed[label].match(label_value), (sample.name, label, label_value)
                if label == "route":  # a template: its variable parts are <names>
                    assert not re.search(r"[a-z]{3}_[A-Za-z0-9]{8,}", label_value), label_value


def test_a_metrics_folder_that_cannot_be_made_stops_the_start_saying_so(
        tmp_path: Path) -> None:
    import subprocess
    import sys

    blocker = tmp_path / "file"
    blocker.write_text("")
    done = subprocess.run(
        [sys.executable, "-c", "from webapp import metrics; metrics.init()"],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True,
        env={"PROMETHEUS_MULTIPROC_DIR": str(blocker / "metrics"), "PATH": "/usr/bin"})
    assert done.returncode == 1
    assert f"The metrics folder {blocker / 'metrics'} cannot be made" in done.stderr
    assert "set PROMETHEUS_MULTIPROC_DIR or INSTANCE_PATH" in done.stderr


def test_every_process_of_the_node_adds_up(tmp_path: Path) -> None:
    """Two processes' files in one folder are one total (the multiprocess mode)."""
    import subprocess
    import sys

    from webapp import metrics

    folder = tmp_path / "metrics"
    code = ("from webapp import metrics; metrics.init(worker=%s); "
            "metrics.PASSES_ISSUED.labels('live').inc(2)")
    root = Path(__file__).resolve().parents[1]
    for worker in (False, True):
        subprocess.run([sys.executable, "-c", code % worker], check=True, cwd=root,
                       env={"PROMETHEUS_MULTIPROC_DIR": str(folder), "PATH": "/usr/bin"})
    names = sorted(p.name for p in folder.iterdir())
    host = __import__("socket").gethostname()
    assert len(names) == 2, names
    assert sum(n.startswith(f"counter_w{host}-") for n in names) == 1, names
    from prometheus_client import CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    assert 'pass_service_passes_issued_total{environment="live"} 4.0' in \
        generate_latest(registry).decode()
    assert metrics.clean_web_files(folder) == 1  # gunicorn starting: the worker's stay
    assert [p.name for p in folder.iterdir()] == [n for n in names if "_w" in n]
    shutil.rmtree(folder)


def test_every_task_is_a_kind_of_its_own() -> None:
    import inspect

    from jobs import queue, tasks

    defined = {name for name, f in vars(tasks).items()
               if inspect.isfunction(f) and f.__module__ == "jobs.tasks"}
    assert defined == queue.TASKS
