"""Client tests: each client against the live service (tests/clients/live.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.clients.live import Live, serving

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
# The Python client is tested from its source folder, as its package would install it.
sys.path.insert(0, str(CLIENTS / "python" / "src"))


@pytest.fixture
def live(app: Flask, org: dict[str, Any]) -> Iterator[Live]:
    with serving(app, org["keys"]["test"]) as served:
        yield served
