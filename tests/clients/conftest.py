"""Client tests: each client against the live service (tests/clients/live.py)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.clients.live import Live, serving
from tests.support.node import npm_ci

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
# The Python client is tested from its source folder, as its package would install it.
sys.path.insert(0, str(CLIENTS / "python" / "src"))


@pytest.fixture
def live(app: Flask, org: dict[str, Any]) -> Iterator[Live]:
    with serving(app, org["keys"]["test"]) as served:
        yield served


TYPESCRIPT_FILES = ("package.json", "package-lock.json", "tsconfig.json", "tsconfig.test.json",
                    "src", "test")


@pytest.fixture(scope="session")
def typescript_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """clients/typescript copied to a temporary folder, `npm ci` (its lock pins every package
    by hash) and built with its own `tsc` (the package into dist/, its tests, strict against the
    generated types, into build-test/): the generator and the compiled client."""
    folder = npm_ci(CLIENTS / "typescript", TYPESCRIPT_FILES,
                    tmp_path_factory.mktemp("typescript-client"))
    for config in ("tsconfig.json", "tsconfig.test.json"):  # the package, then its tests
        built = subprocess.run([str(folder / "node_modules" / ".bin" / "tsc"), "-p", config],
                               cwd=folder, capture_output=True, text=True, timeout=300,
                               check=False)
        assert built.returncode == 0, f"tsc -p {config} failed: {built.stdout}{built.stderr}"
    return folder
