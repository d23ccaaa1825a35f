"""Run the benchmarks and print their figures (see docs/benchmarks.md)."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ["issue_throughput", "issue_cpu", "search", "webhooks", "apple_pkpass", "apns"]
# Run by name only: `attack` (issue 22's attack run, a few minutes; PASS/FAIL rows, exit 1 on
# a FAIL). `python -m bench.attack --help` gives its scale flags.
# `bulk_jobs` (issue 17's 100,000 passes through bulk jobs on both databases, about half an
# hour): `make bench-bulk`; `python -m bench.bulk_jobs --help` gives its scale flags.


def main(argv: list[str]) -> int:
    names = argv or BENCHMARKS
    status = 0
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        status = module.main() or status
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
