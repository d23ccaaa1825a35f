"""Node.js projects of the tests (a package.json and its package-lock.json, which pins every
package by hash), installed with `npm ci` into a temporary folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.support.services import missing


def npm_ci(source: Path, names: tuple[str, ...], folder: Path) -> Path:
    """Copy `names` (files or folders) of `source` into `folder` and `npm ci` there; a skip
    (a failure under CI=true) without node and npm."""
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        missing("npm (Node.js and npm)")
    for name in names:
        copy = shutil.copytree if (source / name).is_dir() else shutil.copy
        copy(source / name, folder / name)
    done = subprocess.run([str(npm), "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                           "--loglevel=error"], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, f"npm ci failed: {done.stdout}{done.stderr}"
    return folder
