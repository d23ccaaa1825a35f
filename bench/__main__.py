"""Run the benchmarks and print their figures (see docs/benchmarks.md)."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = ["issue_throughput", "search", "webhooks", "apple_pkpass"]


def main(argv: list[str]) -> int:
    names = argv or BENCHMARKS
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
