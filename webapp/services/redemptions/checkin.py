"""Redeem a pass (by ID, or by the text its barcode carries), list its redemptions.

The rule is the pass's template revision's `redemption` member (`domain/definition`). Two
redemptions of one pass at the same moment cannot both count: the pass's
`redemption_count` goes up in one conditional UPDATE (`WHERE redemption_count < limit`), which
PostgreSQL re-checks on the row the winner committed and SQLite runs one writer at a time;
the unique (pass, sequence) of `redemptions` is the second guard.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import or_, select
from sqlalchemy import update as sql_update
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.db import pagination
from webapp.db.transaction import changed_rows, insert_new, transaction
from webapp.domain import definition_read, per_pass
from webapp.domain import text as text_rules
from webapp.errors import Conflict, InvalidRequest, NotFound, RedemptionRefused
from webapp.extensions import db
from webapp.models import ApiKey, DownloadLink, Pass, Redemption, Template, User
from webapp.models.redemption import MAX_LOCATION_LENGTH
from webapp.services.context import Context
from webapp.services.outbox import record as outbox_record
from webapp.services.passes import queries, views
from webapp.services.templates import revisions
from webapp.services.webhooks import events

SOURCES = ("api", "scanner")
MAX_CODE_LENGTH = 2000  # more than any barcode a pass carries (values are at most 500)
_PASS_ID = re.compile(r"pass_[0-9a-z]{26}")
_SHORT_ID = re.compile(rf"[{ids.SHORT_ALPHABET}]{{12}}")
# A holder link (`/p/<shortId>`) or download link (`/d/<token>`), and what may follow it
# (`/apple.pkpass`, `/google`).
_LINK = re.compile(r"/(p|d)/([A-Za-z0-9_-]{12,128})(/.*)?")


def redeem(ctx: Context, pass_id: str, *, source: str, location: str | None = None
           ) -> Redemption:
    """Redeem (check in) a pass of the context's organization and environment.

    :raises InvalidRequest: bad source or location.
    :raises NotFound: no such pass.
    :raises RedemptionRefused: voided, expired, redemption not enabled, already redeemed
        (single), max uses reached (multiple).
    """
    location = _checked_location(source, location)
    with transaction() as session:
        item = queries.find(ctx, pass_id)
        redemption = _redeem(session, ctx, item, source, location)
    return _shown(redemption)


def scan(ctx: Context, code: str, *, source: str, location: str | None = None) -> Redemption:
    """Redeem the pass whose barcode carries `code`: its pass ID, short ID (any case), per-pass
    barcode value, or the template's barcode value with its placeholders filled in.

    :raises InvalidRequest: bad code, source or location.
    :raises NotFound: no pass of this organization and environment has that code
        (`unknown_code`).
    :raises Conflict: a per-pass barcode value that several passes share (`ambiguous_code`).
    :raises RedemptionRefused: as `redeem`.
    """
    location = _checked_location(source, location)
    text = _checked_code(code)
    with transaction() as session:
        item = _resolve(ctx, text)
        redemption = _redeem(session, ctx, item, source, location)
    return _shown(redemption)


def list_(ctx: Context, pass_id: str, *, limit: int = pagination.DEFAULT_LIMIT,
          cursor: str | None = None) -> pagination.Page[Redemption]:
    """The redemptions of a pass, newest first.

    :raises NotFound: no such pass.
    :raises InvalidRequest: bad limit or cursor.
    """
    item = queries.find(ctx, pass_id)
    scope = select(Redemption.id).where(Redemption.pass_id == item.id)
    query = select(Redemption).where(Redemption.pass_id == item.id)
    page = pagination.paginate(query, Redemption.id, scope, limit=limit, cursor=cursor)
    _name_scanners(page.data)
    return page


def wire(redemption: Redemption) -> dict[str, Any]:
    """The redemption as the API, events and refusals show it."""
    scanned_by = None
    if redemption.scanned_by_user_id:
        scanned_by = {"type": "user", "id": redemption.scanned_by_user_id,
                      "name": redemption.scanned_by_name}
    elif redemption.scanned_by_api_key_id:
        scanned_by = {"type": "apiKey", "id": redemption.scanned_by_api_key_id,
                      "name": redemption.scanned_by_name}
    return {"id": redemption.id, "object": "redemption", "passId": redemption.pass_id,
            "redeemedAt": clock.isoformat(redemption.redeemed_at), "source": redemption.source,
            "location": redemption.location, "scannedBy": scanned_by}


# ---- the redemption ----------------------------------------------------------------------

def _redeem(session: Session, ctx: Context, item: Pass, source: str,
            location: str | None) -> Redemption:
    """Count the use on the pass, record it, and record the wallets' update and the events.

    :raises RedemptionRefused: the pass cannot be redeemed (now).
    """
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    rule = definition_read.redemption_rule(definition)
    now = clock.now()
    _refuse_unless_redeemable(item, definition, rule, now)
    before = item.last_redeemed_at
    void = rule.void_on_redemption
    values: dict[str, Any] = {
        "redemption_count": Pass.redemption_count + 1, "last_redeemed_at": now,
        "version": Pass.version + 1, "updated_at": now, "wallet_updated_at": now}
    if void:
        values.update(status="voided", voided_at=now)
    limit = [] if rule.limit is None else [Pass.redemption_count < rule.limit]
    won = changed_rows(session, sql_update(Pass).where(
        Pass.id == item.id, Pass.status == "active", *limit).values(**values)
        .execution_options(synchronize_session=False))
    session.refresh(item)  # the row as it is now: ours, or the one that beat us
    if won != 1:
        _refuse_unless_redeemable(item, definition, rule, now)
        raise Conflict("The pass changed while it was being redeemed; retry.",
                       code="concurrent_update")  # pragma: no cover - the check above raises
    redemption = Redemption(
        id=ids.new_id("rdm"), organization_id=item.organization_id,
        environment=item.environment, pass_id=item.id, sequence=item.redemption_count,
        redeemed_at=now, source=source, location=location,
        scanned_by_user_id=ctx.user_id, scanned_by_api_key_id=None if ctx.user_id
        else ctx.api_key_id)
    insert_new(session, redemption)  # a duplicate (pass, sequence) fails here, in this block
    _name_scanners([redemption])
    if void:
        outbox_record.pass_voided(session, item)
    else:
        change = {"key": definition_read.CHECKED_IN_KEY,
                  "label": definition_read.CHECKED_IN_LABEL,
                  "from": clock.isoformat(before), "to": clock.isoformat(now)}
        outbox_record.pass_updated(session, item, [change], "silent", True)
    events.emit(session, organization_id=item.organization_id, environment=item.environment,
                type="pass.redeemed",
                data=events.pass_data(session, item, redemption=wire(redemption)))
    redemption.pass_ = item
    return redemption


def _refuse_unless_redeemable(item: Pass, definition: dict[str, Any],
                              rule: definition_read.RedemptionRule, now: datetime) -> None:
    """Used up first (a single-use pass voided by its own check-in still says when it was
    checked in), then voided, expired, not enabled.

    :raises RedemptionRefused: why the pass cannot be redeemed now.
    """
    if rule.limit is not None and (item.redemption_count or 0) >= rule.limit:
        if rule.mode == "single":
            first = _earliest_or_latest(item.id, earliest=True)
            where = f" at {first.location}" if first and first.location else ""
            when = clock.isoformat(first.redeemed_at) if first else "an earlier time"
            raise RedemptionRefused(f"This pass was checked in already, at {when}{where}.",
                                    code="already_redeemed", pass_id=item.id,
                                    redemption=wire(first) if first else None)
        last = _earliest_or_latest(item.id, earliest=False)
        raise RedemptionRefused(
            f"This pass has been redeemed {rule.limit:,} times, the most its template allows "
            "(maxUses).", code="max_uses_reached", pass_id=item.id,
            redemption=wire(last) if last else None)
    if item.status == "voided":
        raise RedemptionRefused("This pass is voided: it cannot be checked in.",
                                code="pass_voided", pass_id=item.id)
    if per_pass.is_expired(item.expires_at, definition, now):  # its own date or the template's
        raise RedemptionRefused(
            f"This pass expired at {per_pass.expiry(item.expires_at, definition)}: it cannot be "
            "checked in.", code="pass_expired", pass_id=item.id)
    if rule.mode == "none":
        raise RedemptionRefused(
            "This pass's template does not take check-ins (its redemption mode is none).",
            code="redemption_not_enabled", pass_id=item.id)


def _earliest_or_latest(pass_id: str, *, earliest: bool) -> Redemption | None:
    order = Redemption.sequence.asc() if earliest else Redemption.sequence.desc()
    found = db.session.scalar(select(Redemption).where(Redemption.pass_id == pass_id)
                              .order_by(order).limit(1))
    if found is not None:
        _name_scanners([found])
    return found


def _name_scanners(redemptions: list[Redemption]) -> None:
    """Set `scanned_by_name`: the user's email or the API key's name."""
    user_ids = {r.scanned_by_user_id for r in redemptions if r.scanned_by_user_id}
    key_ids = {r.scanned_by_api_key_id for r in redemptions if r.scanned_by_api_key_id}
    users: dict[str, str] = {row.id: row.email for row in db.session.execute(
        select(User.id, User.email).where(User.id.in_(user_ids)))} if user_ids else {}
    keys: dict[str, str] = {row.id: row.name for row in db.session.execute(
        select(ApiKey.id, ApiKey.name).where(ApiKey.id.in_(key_ids)))} if key_ids else {}
    for r in redemptions:
        r.scanned_by_name = (users.get(r.scanned_by_user_id or "")
                             or keys.get(r.scanned_by_api_key_id or ""))


def _shown(redemption: Redemption) -> Redemption:
    """The redemption with its pass ready for the front doors (template name, preview)."""
    item = redemption.pass_
    template = db.session.get(Template, item.template_id)
    definition = revisions.definition_of(item.template_id, item.template_revision) or {}
    views.attach(item, template.name if template else None, definition)
    return redemption


# ---- what was scanned ----------------------------------------------------------------------

def _resolve(ctx: Context, text: str) -> Pass:
    """The pass of the context's organization and environment whose barcode is `text`.

    :raises NotFound: none (`unknown_code`).
    :raises Conflict: several passes have this per-pass barcode value (`ambiguous_code`).
    """
    scope = (Pass.organization_id == ctx.organization_id, Pass.environment == ctx.environment)
    linked = _linked(ctx, text)
    if linked is not None:
        return linked
    by_id = [Pass.id == text] if ids.has_prefix(text, "pass") else []
    by_short = [Pass.short_id == text.upper()] if _SHORT_ID.fullmatch(text.upper()) else []
    found = db.session.scalars(select(Pass).where(*scope, or_(
        *by_id, *by_short, Pass.barcode_value == text)).limit(3)).all()
    exact = [p for p in found if p.id == text or p.short_id == text.upper()]
    if exact:
        return exact[0]
    if len(found) > 1:
        raise Conflict("Several passes have this barcode value; redeem the pass by its ID.",
                       code="ambiguous_code", param="code")
    if found:
        return found[0]
    # A template's barcode value with placeholders ("TICKET-{{shortId}}"): find the IDs in
    # the text, and keep the pass whose barcode is exactly the text.
    candidates = set(_PASS_ID.findall(text)) | set(_SHORT_ID.findall(text))
    if candidates and len(candidates) <= 10:
        for item in db.session.scalars(select(Pass).where(*scope, or_(
                Pass.id.in_(candidates), Pass.short_id.in_(candidates)))):
            definition = revisions.definition_of(item.template_id, item.template_revision)
            if definition is not None and views.barcode_message(item, definition) == text:
                return item
    raise NotFound("No pass of this environment has this code.", code="unknown_code",
                   param="code")


def _linked(ctx: Context, text: str) -> Pass | None:
    """The pass a holder link or download link names (expired or revoked links too: the
    link still says which pass it is); None when `text` is no such link.

    :raises NotFound: a link of the right shape that names no pass here (`unknown_code`).
    """
    if not text.lower().startswith(("https://", "http://")):
        return None
    match = _LINK.fullmatch(urlsplit(text).path)
    if match is None:
        return None
    kind, value = match.group(1), match.group(2)
    scope = (Pass.organization_id == ctx.organization_id, Pass.environment == ctx.environment)
    if kind == "p":
        found = db.session.scalar(select(Pass).where(*scope, Pass.short_id == value.upper()))
    else:
        found = db.session.scalar(select(Pass).join(
            DownloadLink, DownloadLink.pass_id == Pass.id).where(
            *scope, DownloadLink.token_hash == ids.sha256_hex(value)))
    if found is None:
        raise NotFound("No pass of this environment has this code.", code="unknown_code",
                       param="code")
    return found


# ---- inputs ------------------------------------------------------------------------------

def _checked_location(source: str, location: str | None) -> str | None:
    """The location to keep (stripped; empty is none).

    :raises InvalidRequest: an unknown source; a location too long or not one line of text.
    """
    if source not in SOURCES:
        raise InvalidRequest(f"source must be one of {', '.join(SOURCES)}.", param="source")
    if location is None:
        return None
    if not isinstance(location, str):
        raise InvalidRequest("location must be a string.", param="location")
    location = location.strip()
    problem = text_rules.problem(location)
    if problem is None and any(ch in location for ch in "\t\r\n"):
        problem = "has more than one line"
    if problem is not None:
        raise InvalidRequest(f"location {problem}.", param="location")
    if len(location) > MAX_LOCATION_LENGTH:
        raise InvalidRequest(f"location must be at most {MAX_LOCATION_LENGTH} characters.",
                             param="location")
    return location or None


def _checked_code(code: str) -> str:
    """:raises InvalidRequest: not a string, empty, too long or with control characters."""
    if not isinstance(code, str):
        raise InvalidRequest("code must be a string.", param="code")
    text = code.strip()
    if not text:
        raise InvalidRequest("code must not be empty.", param="code")
    if len(text) > MAX_CODE_LENGTH:
        raise InvalidRequest(f"code must be at most {MAX_CODE_LENGTH} characters.",
                             param="code")
    problem = text_rules.problem(text)
    if problem is not None:
        raise InvalidRequest(f"code {problem}.", param="code")
    return text
