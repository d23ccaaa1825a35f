"""Uploaded files kept between the steps of a dashboard import (mapping, preview, run).

In the database, not on a node's disk: the next step may reach any node. An upload is kept
for the staff user, organization, environment and template it was uploaded for, under a
random ID (24 bytes); anyone else, or another template, finds nothing. It goes when its import
runs, and an hour after it was uploaded (purged as the next one is saved).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete, select

from webapp import clock
from webapp.db.transaction import transaction
from webapp.extensions import db
from webapp.models import Upload
from webapp.services.context import Context

MAX_AGE = timedelta(hours=1)


def save(ctx: Context, template_id: str, data: bytes) -> str:
    """Keep `data` for this user and template; the upload's ID."""
    upload_id = secrets.token_urlsafe(24)
    now = clock.now()
    with transaction() as session:
        session.execute(delete(Upload).where(Upload.created_at < now - MAX_AGE))
        session.add(Upload(id=upload_id, organization_id=ctx.organization_id,
                           environment=ctx.environment, user_id=ctx.user_id or "",
                           template_id=template_id, data=data, created_at=now))
    return upload_id


def load(ctx: Context, template_id: str, upload_id: str) -> bytes | None:
    """The file kept under `upload_id` for this very user and template; None when there is
    none (or it expired, or is someone else's)."""
    return db.session.scalar(select(Upload.data).where(*_mine(ctx, template_id, upload_id)))


def discard(ctx: Context, template_id: str, upload_id: str) -> None:
    """Forget an upload (its import ran)."""
    with transaction() as session:
        session.execute(delete(Upload).where(*_mine(ctx, template_id, upload_id)))


def _mine(ctx: Context, template_id: str, upload_id: str) -> tuple:
    return (Upload.id == upload_id, Upload.organization_id == ctx.organization_id,
            Upload.environment == ctx.environment, Upload.user_id == (ctx.user_id or ""),
            Upload.template_id == template_id,
            Upload.created_at >= clock.now() - MAX_AGE)
