"""Uploaded CSV files kept on the server between the import's steps (mapping, preview, run).

A file lives under `<instance>/uploads/imports/<id>.csv`, with `<id>.json` naming who may use
it: the staff user, organization, environment and template it was uploaded for. The ID is
random (24 bytes); a request of anyone else, or for another template, finds nothing. Files
go when the import runs, and any older than an hour when the next one is uploaded.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from pathlib import Path

MAX_AGE_SECONDS = 3600
_ID = re.compile(r"^[A-Za-z0-9_-]{32}$")


def folder(instance_path: str) -> Path:
    """Where the uploads of this instance are kept."""
    return Path(instance_path) / "uploads" / "imports"


def save(where: Path, data: bytes, owner: dict[str, str]) -> str:
    """Keep `data` for `owner`; the upload's ID."""
    where.mkdir(parents=True, exist_ok=True)
    _purge(where)
    upload_id = secrets.token_urlsafe(24)
    for suffix, content in ((".csv", data), (".json", json.dumps(owner).encode())):
        partial = where / f"{upload_id}{suffix}.part"
        partial.write_bytes(content)
        os.replace(partial, where / f"{upload_id}{suffix}")
    return upload_id


def load(where: Path, upload_id: str, owner: dict[str, str]) -> bytes | None:
    """The file kept under `upload_id` for this very owner; None when there is none (or it
    expired, or is someone else's)."""
    if not _ID.match(upload_id):
        return None
    try:
        kept_for = json.loads((where / f"{upload_id}.json").read_bytes())
        path = where / f"{upload_id}.csv"
        if kept_for != owner or time.time() - path.stat().st_mtime > MAX_AGE_SECONDS:
            return None
        return path.read_bytes()
    except (OSError, ValueError):
        return None


def delete(where: Path, upload_id: str) -> None:
    """Forget an upload (after its import ran)."""
    if _ID.match(upload_id):
        for suffix in (".csv", ".json"):
            (where / f"{upload_id}{suffix}").unlink(missing_ok=True)


def _purge(where: Path) -> None:
    """Remove uploads older than `MAX_AGE_SECONDS` (imports started and left)."""
    cutoff = time.time() - MAX_AGE_SECONDS
    for path in where.iterdir():
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink(missing_ok=True)
        except OSError:
            continue
