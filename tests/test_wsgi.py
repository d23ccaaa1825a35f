"""The WSGI entry point (wsgi.py) gunicorn serves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_app_s_own_objects_are_left_out_of_garbage_collection(tmp_path: Path) -> None:
    probe = "import gc, wsgi; print(gc.get_freeze_count())"
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'wsgi.sqlite3'}",
           "INSTANCE_PATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert int(out) > 10_000  # the app's routes, schemas and mappers
