"""The run: start the servers, run the chosen parts, print the table; the command line."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable

from bench.attack.fuzz import fuzz
from bench.attack.kills import kills
from bench.attack.probes import probes
from bench.attack.report import Row, table
from bench.attack.tenants import tenants
from bench.attack.world import Databases, serving

PARTS = ("fuzz", "tenants", "kills", "probes")
# The fuzz, tenant and kill server: limits out of the way (the probes' server has the real ones).
UNLIMITED = dict.fromkeys(("RATE_LIMIT_TEST", "RATE_LIMIT_LIVE", "RATE_LIMIT_PUBLIC",
                          "RATE_LIMIT_UNAUTHENTICATED"), "1000000")


def attack(database: str = "sqlite", parts: Iterable[str] = PARTS, examples: int = 50,
           seed_value: int = 20261122, kill_count: int = 4, clients: int = 6,
           kill_every: float = 1.0) -> list[Row]:
    """Start the servers and run the chosen parts; every figure as a row."""
    parts = set(parts)
    databases = Databases(database)
    rows: list[Row] = []
    try:
        if parts & {"fuzz", "tenants", "kills"}:
            with serving(databases, UNLIMITED) as server:
                if "fuzz" in parts:
                    rows += fuzz(server, examples, seed_value)
                if "tenants" in parts:
                    rows += tenants(server)
                if "kills" in parts:
                    rows += kills(server, kill_count, clients, kill_every)
        if "probes" in parts:
            from webapp.config import DEFAULTS

            env = {"LOG_LEVEL": "INFO", "RATE_LIMIT_TEST": str(DEFAULTS["RATE_LIMIT_TEST"]),
                   "RATE_LIMIT_LIVE": str(DEFAULTS["RATE_LIMIT_LIVE"])}
            with serving(databases, env) as server:
                rows += probes(server)
    finally:
        databases.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    """`python -m bench attack` runs the defaults; `python -m bench.attack --help` says more."""
    # The package's docstring says what the run is and how to run it.
    description = sys.modules["bench.attack"].__doc__
    parser = argparse.ArgumentParser(prog="python -m bench.attack", description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help="comma-separated, of: " + ", ".join(PARTS))
    parser.add_argument("--examples", type=int, default=50,
                        help="fuzz: positive and as many negative cases per operation")
    parser.add_argument("--seed", type=int, default=20261122, help="fuzz: Hypothesis seed")
    parser.add_argument("--kills", type=int, default=4, help="workers killed in part 3")
    parser.add_argument("--kill-every", type=float, default=1.0,
                        help="seconds between a new worker and the next kill")
    parser.add_argument("--clients", type=int, default=6, help="issuing threads in part 3")
    args = parser.parse_args(argv or [])
    chosen = [part.strip() for part in args.parts.split(",") if part.strip()]
    if unknown := set(chosen) - set(PARTS):
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")
    started = time.monotonic()
    rows = attack(args.database, chosen, args.examples, args.seed, args.kills, args.clients,
                  args.kill_every)
    print(f"\nattack on {args.database}, {time.monotonic() - started:.0f} s")
    print(table(rows), flush=True)
    return 1 if any(row.ok is False for row in rows) else 0
