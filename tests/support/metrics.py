"""This test process's metric counts, as a scrape of its node would add them up (the
folder tests/conftest.py gives it), without METRICS_TOKEN or a request."""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples() -> Samples:
    """Every sample: (name, labels) -> value."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=os.environ["PROMETHEUS_MULTIPROC_DIR"])
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in registry.collect() for s in family.samples}


def grew(before: Samples, name: str, **labels: str) -> float:
    """How much a sample grew since `before`."""
    key = (name, frozenset(labels.items()))
    return samples().get(key, 0.0) - before.get(key, 0.0)
