"""`GET /v1/passes?search=...` on PostgreSQL with 1,000,000 passes.

Loads the passes with COPY, then times the real endpoint (in-process, the Flask test
client, so the figure is the app and the database, not the HTTP stack). Target (issue 3):
p50 under 30 ms.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from tests.support.services import PostgresCluster
from webapp import create_app, ids
from webapp.domain import search

ROWS = 1_000_000
FIRST = ["Ada", "Grace", "Alan", "Linus", "Barbara", "Edsger", "Donald", "Margaret", "Ken",
         "Dennis", "Frances", "John", "Radia", "Tim", "Sophie", "Niklaus", "Guido", "Anita",
         "Leslie", "Katherine", "Jean", "Hedy", "Claude", "Vint", "Bjarne"]
LAST = [f"{stem}{suffix}" for stem in ("Lovelace", "Hopper", "Turing", "Torvalds", "Liskov",
                                       "Dijkstra", "Knuth", "Hamilton", "Thompson", "Ritchie",
                                       "Müller")
        for suffix in ("", "son", "berg", "ford", "wick", "ley", "ton", "field", "worth", "man",
                       "ez", "ini", "ova", "sky", "dottir", "escu", "ides", "oglu", "stra",
                       "ani")]


def main() -> None:
    cluster = PostgresCluster()
    try:
        import psycopg

        with psycopg.connect(cluster.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE bench")
        url = cluster.url("bench")
        tmp = Path(tempfile.mkdtemp(prefix="bench-search-"))
        app = create_app({"DATABASE_URL": url, "RATE_LIMIT_TEST": 10**9, "LOG_LEVEL": "WARNING",
                          "SECRET_KEY": "bench", "INSTANCE_PATH": str(tmp),
                          "ENCRYPTION_KEYS": "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE="})
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            key, template_id, org_id = _setup()
        started = time.monotonic()
        sample = _load(url.replace("+psycopg", ""), org_id, template_id)
        print(f"loaded {ROWS:,} passes in {time.monotonic() - started:.1f} s")
        _measure(app, key, sample)
    finally:
        cluster.stop()


def _setup() -> tuple[str, str, str]:
    from webapp.services.accounts import organizations
    from webapp.services.context import Context
    from webapp.services.templates import revisions

    created = organizations.create("Bench", "bench@example.com", "benchmark-password")
    ctx = Context(created.organization.id, "test")
    from bench.issue_throughput import TEMPLATE

    template = revisions.create(ctx, "Bench", "generic", TEMPLATE["definition"])
    return created.keys["test"], template.id, created.organization.id


def _load(dsn: str, org_id: str, template_id: str) -> dict[str, str]:
    import psycopg

    rng = random.Random(7)
    sample: dict[str, str] = {}
    columns = ("id, organization_id, environment, template_id, template_revision, short_id, "
               "status, source, holder_name, holder_email, search_text, apple, google, "
               "field_values, auth_token_encrypted, version, created_at, updated_at, "
               "wallet_updated_at")
    with psycopg.connect(dsn) as conn, conn.cursor() as cur:
        with cur.copy(f"COPY passes ({columns}) FROM STDIN") as copy:
            for n in range(ROWS):
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                email = f"{search.fold(name).replace(' ', '.')}.{n}@example.com"
                short = ids.short_id()
                env = "test" if n % 10 else "live"
                copy.write_row((ids.new_id("pass"), org_id, env, template_id, 1, short,
                                "active" if n % 17 else "voided", "api", name, email,
                                search.search_text(name, email, short), True, True,
                                json.dumps({"member": name}), "t" * 43, 1,
                                "2026-11-23T00:00:00Z", "2026-11-23T00:00:00Z",
                                "2026-11-23T00:00:00Z"))
                if n == ROWS // 2 + 1:  # a test-environment, active pass (n % 10, n % 17)
                    sample.update(email=email, short=short[2:9].lower())
        conn.commit()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE passes")
    return sample


def _measure(app, key: str, sample: dict[str, str]) -> None:
    client = app.test_client()
    headers = {"Authorization": f"Bearer {key}"}
    queries = {
        "surname (about 2% of passes)": "hopperson",
        "accented surname (0.5%)": "müllerberg",
        "same surname, unaccented": "MULLERBERG",
        "first and last name": "grace hopper",
        "exact email": sample["email"],
        "part of a short ID": sample["short"],
        "no match": "zzqqxxjj",
        "two letters": "ad",
    }
    all_times: list[float] = []
    for label, term in queries.items():
        times = []
        for _ in range(30):
            start = time.perf_counter()
            response = client.get("/v1/passes", query_string={"search": term}, headers=headers)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, response.get_data(as_text=True)
        count = len(response.get_json()["data"])
        all_times += times
        print(f"{label:30} p50 {statistics.median(times):6.1f} ms  "
              f"p90 {statistics.quantiles(times, n=10)[-1]:6.1f} ms  ({count} on page 1)")
    p50 = statistics.median(all_times)
    print(f"all searches p50 {p50:.1f} ms (target < 30 ms): {'OK' if p50 < 30 else 'MISSED'}")


if __name__ == "__main__":
    main()
