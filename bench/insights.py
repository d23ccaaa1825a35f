"""`GET /v1/insights` on PostgreSQL for an organization with 1,000,000 passes and 5,000,000
recorded facts (page views, add intents, wallet installs and removals, update deliveries).

The passes and facts are bulk-loaded with `generate_series` over a year, the daily rollup is
built from them the way migration 0013 backfills it, then the real endpoint is timed
in-process (the Flask test client: the app and the database, not the HTTP stack). Also
timed: what recording one fact costs (its row and its rollup UPSERT, one transaction).
Target (issue 19): p50 under 100 ms.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.server import SETTINGS
from tests.support.services import PostgresCluster
from webapp import create_app

PASSES = 1_000_000
FACTS = 5_000_000
TEMPLATES = 20
DAYS = 365
TARGET_MS = 100.0


def main(passes: int = PASSES, facts: int = FACTS, runs: int = 30) -> int:
    cluster = PostgresCluster()
    tmp = Path(tempfile.mkdtemp(prefix="bench-insights-"))
    try:
        import psycopg

        with psycopg.connect(cluster.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        url = cluster.url("bench")
        app = create_app({**SETTINGS, "DATABASE_URL": url, "INSTANCE_PATH": str(tmp)})
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            key, org_id, template_ids = _setup()
        started = time.monotonic()
        loaded = load(url.replace("+psycopg", ""), org_id, template_ids, passes, facts)
        print(f"loaded {passes:,} passes and {loaded['facts']:,} facts "
              f"({loaded['rollup']:,} rollup rows) in {time.monotonic() - started:.1f} s")
        p50 = measure(app, key, template_ids[0], runs)
        record_cost(app, org_id)
        print(f"machine load average {os.getloadavg()[0]:.1f} (the figures grow with it)")
        print(f"default 30 days p50 {p50:.1f} ms (target < {TARGET_MS:.0f} ms): "
              f"{'OK' if p50 < TARGET_MS else 'MISSED'}")
        return 0 if p50 < TARGET_MS else 1
    finally:
        cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def _setup() -> tuple[str, str, list[str]]:
    from bench.issue_throughput import TEMPLATE
    from webapp.services.accounts import organizations
    from webapp.services.context import Context
    from webapp.services.templates import revisions

    created = organizations.create("Bench", "bench@example.com", "benchmark-password")
    ctx = Context(created.organization.id, "test")
    template_ids = [revisions.create(ctx, f"Bench {n}", "generic", TEMPLATE["definition"]).id
                    for n in range(TEMPLATES)]
    return created.keys["test"], created.organization.id, template_ids


# Per pass (n = 1..passes), issued `n % 365` days ago, at least a second after midnight,
# of template `n / 365 % 20` (every template on every day); facts are drawn from n so that
# every kind lands on a spread of days and templates.
_PASSES = """
INSERT INTO passes (id, organization_id, environment, template_id, template_revision,
    short_id, status, source, search_text, apple, google, field_values, auth_token_encrypted,
    version, created_at, updated_at, wallet_updated_at)
SELECT 'pass_' || lpad(n::text, 26, '0'), %(org)s, 'test',
    (%(templates)s::text[])[1 + (n / %(days)s) %% %(template_count)s], 1,
    'S' || lpad(n::text, 11, '0'),
    'active', 'api', '', true, n %% 3 <> 0, '{}'::jsonb, 't', 1, t, t, t
FROM (SELECT n, date_trunc('day', now()) - make_interval(days => n %% %(days)s)
             + make_interval(secs => 1 + n %% 80000) AS t
      FROM generate_series(1, %(passes)s) AS n) AS s
"""
# Activities: the kind and wallet cycle over k; each fact comes k %% 5 days after the pass.
_ACTIVITIES = """
INSERT INTO pass_activities (pass_id, kind, platform, at)
SELECT 'pass_' || lpad((1 + k %% %(passes)s)::text, 26, '0'),
    (ARRAY['viewed', 'viewed', 'add_intent', 'added', 'viewed', 'add_intent', 'added',
           'removed'])[1 + k %% 8],
    CASE WHEN k %% 8 IN (0, 1, 4) THEN NULL
         WHEN (1 + k %% %(passes)s) %% 3 = 0 THEN 'apple'
         WHEN k %% 2 = 0 THEN 'apple' ELSE 'google' END,
    least(now(), date_trunc('day', now())
                 - make_interval(days => (1 + k %% %(passes)s) %% %(days)s)
                 + make_interval(days => k %% 5, secs => 2 + k %% 80000))
FROM generate_series(0, %(count)s - 1) AS k
"""
_UPDATES = """
INSERT INTO pass_updates (id, pass_id, organization_id, environment, kind, notification_mode,
    wallet_changed, changes, pass_version, apple_status, apple_devices, google_status,
    delivery_state, attempts, created_at, updated_at)
SELECT 'pupd_' || lpad(k::text, 26, '0'), 'pass_' || lpad((1 + k %% %(passes)s)::text, 26, '0'),
    %(org)s, 'test', 'update', 'silent', true, '[]'::jsonb, 2,
    (ARRAY['sent', 'delivered', 'failed', 'no_devices'])[1 + k %% 4], 1,
    (ARRAY['updated', 'not_saved', 'updated', 'failed', 'skipped'])[1 + k %% 5], 'done', 1,
    t, t
FROM (SELECT k, least(now(), date_trunc('day', now())
                 - make_interval(days => (1 + k %% %(passes)s) %% %(days)s)
                 + make_interval(days => 1 + k %% 3, secs => 3 + k %% 80000)) AS t
      FROM generate_series(0, %(count)s - 1) AS k) AS s
"""
_DAY = "(({}) AT TIME ZONE 'UTC')::date"
# The rollup, as each fact's UPSERT would have left it (migration 0013 backfills the same way).
_ROLLUPS = [
    ("'issued'", "'all'", "passes p", _DAY.format("p.created_at"), "true"),
    ("'issued'", "'apple'", "passes p", _DAY.format("p.created_at"), "p.apple"),
    ("'issued'", "'google'", "passes p", _DAY.format("p.created_at"), "p.google"),
    ("CASE a.kind WHEN 'viewed' THEN 'page_view' ELSE a.kind END", "w.platform",
     "pass_activities a JOIN passes p ON p.id = a.pass_id CROSS JOIN LATERAL (VALUES ('all'), "
     "('apple'), ('google')) AS w(platform)", _DAY.format("a.at"),
     "(a.platform = w.platform OR (a.platform IS NULL AND (w.platform = 'all' "
     "OR (w.platform = 'apple' AND p.apple) OR (w.platform = 'google' AND p.google))))"),
]
for _wallet, _good, _bad in (("apple", "'sent', 'delivered'", "'failed'"),
                             ("google", "'updated'", "'failed'")):
    _updates = "pass_updates u JOIN passes p ON p.id = u.pass_id"
    _ROLLUPS += [
        ("'update_sent'", f"'{_wallet}'", _updates, _DAY.format("u.created_at"),
         f"u.{_wallet}_status IN ({_good}, {_bad})"),
        ("'update_delivered'", f"'{_wallet}'", _updates, _DAY.format("u.created_at"),
         f"u.{_wallet}_status IN ({_good})"),
        ("'update_failed'", f"'{_wallet}'", _updates, _DAY.format("u.created_at"),
         f"u.{_wallet}_status IN ({_bad})"),
    ]


def load(dsn: str, org_id: str, template_ids: list[str], passes: int, facts: int
         ) -> dict[str, int]:
    """Passes and facts in bulk (`facts`: activities plus updates), then the rollup."""
    import psycopg

    updates = facts // 6
    params: dict[str, Any] = {"org": org_id, "templates": template_ids,
                              "template_count": len(template_ids), "passes": passes,
                              "days": DAYS}
    with psycopg.connect(dsn) as conn:
        conn.execute(_PASSES, params)
        conn.execute(_ACTIVITIES, {**params, "count": facts - updates})
        conn.execute(_UPDATES, {**params, "count": updates})
        for metric, platform, source, day, where in _ROLLUPS:
            conn.execute(
                "INSERT INTO insights_daily (organization_id, environment, metric, day, "
                f"template_id, platform, count) SELECT p.organization_id, p.environment, "
                f"{metric}, {day}, p.template_id, {platform}, count(*) FROM {source} "
                f"WHERE {where} GROUP BY 1, 2, 3, 4, 5, 6")
        conn.commit()
        rollup = conn.execute("SELECT count(*) FROM insights_daily").fetchone()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return {"facts": facts, "rollup": rollup[0] if rollup else 0}


def measure(app: Any, key: str, template_id: str, runs: int) -> float:
    """Time each query shape; the default's p50."""
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}"}
    shapes: dict[str, dict[str, str]] = {
        "default (30 days by day)": {},
        "30 days by template": {"groupBy": "template"},
        "30 days by platform": {"groupBy": "platform"},
        "30 days, one template, apple": {"templateId": template_id, "platform": "apple"},
        "366 days by day": {"from": _days_ago(365), "to": _days_ago(0)},
        "366 days by template": {"from": _days_ago(365), "to": _days_ago(0),
                                 "groupBy": "template"},
    }
    default = 0.0
    for label, params in shapes.items():
        client.get("/v1/insights", query_string=params, headers=headers)  # warm up
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            response = client.get("/v1/insights", query_string=params, headers=headers)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, response.get_data(as_text=True)
        issued = response.get_json()["totals"]["issued"]
        p50, p95 = statistics.median(times), _p95(times)
        default = default or p50
        print(f"{label:30} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  (issued {issued:,})")
    return default


def record_cost(app: Any, org_id: str, runs: int = 500) -> None:
    """What a holder's page view adds to its request: the activity row and the UPSERT."""
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import Pass
    from webapp.services.insights import record

    with app.app_context():
        item = db.session.scalar(select(Pass).where(Pass.organization_id == org_id).limit(1))
        assert item is not None
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            record.page_viewed(item)
            times.append((time.perf_counter() - start) * 1000)
    print(f"recording a page view (row + rollup UPSERT, one commit) "
          f"p50 {statistics.median(times):.2f} ms  p95 {_p95(times):.2f} ms")


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]


def _days_ago(days: int) -> str:
    from datetime import timedelta

    from webapp import clock

    return (clock.now().date() - timedelta(days=days)).isoformat()


if __name__ == "__main__":
    sys.exit(main())
