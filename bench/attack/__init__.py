"""The attack run of issue 22, again, on loopback: anyone can run it and read the figures.

The real service (gunicorn, 2 workers, a free loopback port; SQLite, or a throwaway
PostgreSQL cluster) is attacked in four parts, and one table of figures is printed:

1. fuzz: schemathesis over every operation of /v1/openapi.json, positive and negative cases,
   over HTTP: the calls, 5xx answers and error answers not in the documented shape.
2. tenants: organization A's resources of every type, tried with organization B's keys (and
   B's dashboard session) and with A's other environment's key: the requests and the leaks
   (a 2xx, or an answer that shows A's IDs or data).
3. kills: passes issued with Idempotency-Keys from several threads while gunicorn workers
   are killed with SIGKILL; clients retry with the same key; passes lost or doubled.
4. probes: the findings of issue 22, one figure each, PASS or FAIL against what is expected
   now. A probe reports what it sees; it never stops the run.

    .venv/bin/python -m bench.attack                 # the defaults: SQLite, ~2 minutes
    .venv/bin/python -m bench attack                 # the same
    .venv/bin/python -m bench.attack --database postgres --examples 1100 --kills 8 --kill-every 30

The last is about the first attack's scale: at --examples 100 the fuzz makes ~5,300 calls
(some operations run out of cases), so 1,100 makes about 58,000. Clients issue passes until
the last kill: --kill-every sets how many come between two kills (60-350 a second here).

Linux only: the kills find gunicorn's workers in /proc, and the per-IP limits are hit from
other loopback addresses (127.0.0.2-5). The exit status is 1 when a row failed.

The modules: run (attack(), main()), report (the table's rows), client (HTTP, the error
shape), world (servers, organizations, seeded resources), and one a part: fuzz, tenants,
kills, probes (bounds holds the largest probe).
"""

from bench.attack.run import attack, main

__all__ = ["attack", "main"]
