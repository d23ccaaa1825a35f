"""The Apple Wallet web service's use cases: devices register and unregister for a pass's
updates, ask which passes changed since a tag, fetch the latest version, and send logs.

Authentication is `Authorization: ApplePass <authenticationToken>`, compared in constant
time; a pass that does not exist answers exactly like a wrong token (401), so serial
numbers cannot be probed. Update tags come from one counter whose row is locked until the
drawing transaction commits, so tags become visible in the order they were drawn and a
device never skips a change. Last-Modified rises by at least a second per version, so
`If-Modified-Since` (one-second resolution) never hides a newer version.

Events: every new registration emits `pass.added_to_wallet` and every registration that
ends (the device unregisters, or APNs says the token is gone) `pass.removed_from_wallet`,
with `data.wallet.installations` = the devices still registered afterwards.
"""

from __future__ import annotations

import hmac
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import delete, func, insert, select
from sqlalchemy import update as sql_update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from webapp import clock, ids
from webapp.db.transaction import changed_rows, end_read, transaction
from webapp.extensions import db
from webapp.models import AppleCounter, ApplePassState, AppleRegistration, Pass, PassUpdate
from webapp.services.apple import passes
from webapp.services.insights import record as insights
from webapp.services.webhooks import events

_log = logging.getLogger("webapp.apple.webservice")
_DEVICE = re.compile(r"[A-Za-z0-9._-]{1,128}")
_PUSH_TOKEN = re.compile(r"[A-Za-z0-9._:-]{1,512}")
_TAG = re.compile(r"[0-9]{1,18}")
_DUMMY_TOKEN = ids.token(32)
MAX_LOG_LINES, MAX_LOG_LENGTH = 10, 500  # per request to /log (issue 22)


@dataclass(frozen=True)
class Answer:
    """The web service's answer: an HTTP status and an optional JSON body."""

    status: int
    body: dict[str, Any] | None = None


@dataclass(frozen=True)
class Latest:
    """The latest pass (`data`, `last_modified`) or another answer (304, 401, 503)."""

    answer: Answer
    data: bytes | None = None
    last_modified: datetime | None = None


def register(device_id: str, pass_type: str, serial: str, token: str | None,
             push_token: object) -> Answer:
    """Register a device for a pass's pushes: 201 new, 200 known (its token refreshed)."""
    item = _authorized(pass_type, serial, token)
    if item is None:
        return Answer(401)
    if not _DEVICE.fullmatch(device_id) or not isinstance(push_token, str) or \
            not _PUSH_TOKEN.fullmatch(push_token):
        return Answer(400)
    touch(item)
    now = clock.now()
    try:
        with transaction() as session:
            row = session.scalar(select(AppleRegistration).where(
                AppleRegistration.device_library_id == device_id,
                AppleRegistration.pass_id == item.id))
            if row is not None:
                if row.push_token != push_token:
                    row.push_token, row.updated_at = push_token, now
                return Answer(200)
            session.add(AppleRegistration(
                pass_id=item.id, organization_id=item.organization_id,
                environment=item.environment, device_library_id=device_id,
                pass_type_identifier=pass_type, push_token=push_token, created_at=now,
                updated_at=now))
            session.flush()
            _installation_event(session, item, "pass.added_to_wallet")
            insights.wallet_changed(session, item, "apple", "added")
    except IntegrityError:  # the same device registered at the same moment: it is known
        return Answer(200)
    return Answer(201)


def unregister(device_id: str, pass_type: str, serial: str, token: str | None) -> Answer:
    """A device no longer wants the pass's pushes (200, also when it was not registered)."""
    item = _authorized(pass_type, serial, token)
    if item is None:
        return Answer(401)
    remove(item, [device_id])
    return Answer(200)


def remove(item: Pass, device_ids: list[str], *, unless_updated_after: datetime | None = None
           ) -> int:
    """End registrations of a pass (one event each); how many ended."""
    if not device_ids:
        return 0
    with transaction() as session:
        query = delete(AppleRegistration).where(AppleRegistration.pass_id == item.id,
                                                AppleRegistration.device_library_id.in_(
                                                    device_ids))
        if unless_updated_after is not None:
            query = query.where(AppleRegistration.updated_at <= unless_updated_after)
        ended = changed_rows(session, query.execution_options(synchronize_session=False))
        for _ in range(ended):
            _installation_event(session, item, "pass.removed_from_wallet")
        insights.wallet_changed(session, item, "apple", "removed", ended)
    return ended


def updated_serials(device_id: str, pass_type: str, since: str | None) -> Answer:
    """Serial numbers of the device's passes changed after tag `since` (all without one):
    200 with `lastUpdated`, or 204 when there are none."""
    if not _DEVICE.fullmatch(device_id or ""):
        return Answer(204)
    tag = int(since) if since and _TAG.fullmatch(since) else None
    _catch_up(device_id, pass_type)
    current = db.session.scalar(select(AppleCounter.value).where(AppleCounter.name == "tag"))
    query = (select(AppleRegistration.pass_id)
             .outerjoin(ApplePassState, ApplePassState.pass_id == AppleRegistration.pass_id)
             .where(AppleRegistration.device_library_id == device_id,
                    AppleRegistration.pass_type_identifier == pass_type))
    if tag is not None:
        query = query.where(func.coalesce(ApplePassState.tag, 0) > tag)
    serials = sorted(set(db.session.scalars(query.limit(10_000))))
    end_read()
    if not serials:
        return Answer(204)
    return Answer(200, {"serialNumbers": serials, "lastUpdated": str(current or 0)})


def _catch_up(device_id: str, pass_type: str) -> None:
    """Draw tags for the device's passes that changed since their last tag (their delivery
    job has not run yet), so the answer never misses a change."""
    stale = db.session.scalars(
        select(Pass).join(AppleRegistration, AppleRegistration.pass_id == Pass.id)
        .outerjoin(ApplePassState, ApplePassState.pass_id == Pass.id)
        .where(AppleRegistration.device_library_id == device_id,
               AppleRegistration.pass_type_identifier == pass_type,
               func.coalesce(ApplePassState.version, 0) < Pass.version).limit(1000)).all()
    for item in stale:
        touch(item)


def latest(pass_type: str, serial: str, token: str | None, if_modified_since: datetime | None,
           *, counts_as_fetch: bool = True) -> Latest:
    """The pass's latest version: 200 with Last-Modified, 304 when the device has it."""
    item = _authorized(pass_type, serial, token)
    if item is None:
        return Latest(Answer(401))
    state = touch(item)
    if if_modified_since is not None and state.last_modified <= if_modified_since:
        return Latest(Answer(304))
    try:
        data = passes.signed(item)
    except passes.AppleUnavailable:
        return Latest(Answer(503))
    if counts_as_fetch:
        fetched(item)
    return Latest(Answer(200), data, state.last_modified)


def fetched(item: Pass) -> None:
    """A device has the pass's current version: updates it carried are `delivered`."""
    with transaction() as session:
        session.execute(sql_update(ApplePassState).where(
            ApplePassState.pass_id == item.id, ApplePassState.fetched_version < item.version)
            .values(fetched_version=item.version).execution_options(synchronize_session=False))
        session.execute(sql_update(PassUpdate).where(
            PassUpdate.pass_id == item.id, PassUpdate.pass_version <= item.version,
            PassUpdate.apple_status == "sent")
            .values(apple_status="delivered", updated_at=clock.now())
            .execution_options(synchronize_session=False))


def log(lines: object) -> Answer:
    """Keep what devices report about our web service in the log (200)."""
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        return Answer(400)
    for line in lines[:MAX_LOG_LINES]:
        text = "".join(ch if ch.isprintable() else " " for ch in line[:MAX_LOG_LENGTH])
        _log.info("apple wallet device log: %s", text)
    return Answer(200)


def touch(item: Pass) -> ApplePassState:
    """The pass's wallet state, brought up to its current version (a new tag, a later
    Last-Modified) when the version moved on."""
    return touch_all([item])[item.id]


def touch_all(items: list[Pass]) -> dict[str, ApplePassState]:
    """`touch` for many passes (a chunk's pushes): their states by pass ID, the new tags
    drawn in one transaction, in the order of `items`."""
    unique = list({item.id: item for item in items}.values())
    states = _states([item.id for item in unique])
    stale = [item for item in unique if _behind(states.get(item.id), item)]
    if not stale:
        return states
    try:
        with transaction() as session:
            locked = _states([item.id for item in stale], lock=True)
            stale = [item for item in stale if _behind(locked.get(item.id), item)]
            now = clock.now()
            for item, tag in zip(stale, _next_tags(session, len(stale)), strict=True):
                state = locked.get(item.id)
                if state is None:
                    locked[item.id] = ApplePassState(
                        pass_id=item.id, version=item.version, tag=tag,
                        last_modified=_whole_second(item.wallet_updated_at),
                        fetched_version=0, updated_at=now)
                    session.add(locked[item.id])
                else:
                    state.version, state.tag, state.updated_at = item.version, tag, now
                    state.last_modified = max(_whole_second(now),
                                              state.last_modified + timedelta(seconds=1))
        return {**states, **locked}
    except IntegrityError:  # a state created at the same moment by another request
        if len(unique) > 1:
            return {pass_id: state for item in unique
                    for pass_id, state in touch_all([item]).items()}
        return _states([unique[0].id])


def _states(pass_ids: list[str], *, lock: bool = False) -> dict[str, ApplePassState]:
    query = select(ApplePassState).where(ApplePassState.pass_id.in_(pass_ids)) \
        .execution_options(populate_existing=True)
    if lock:
        query = query.with_for_update()
    return {state.pass_id: state for state in db.session.scalars(query)}


def _behind(state: ApplePassState | None, item: Pass) -> bool:
    return state is None or state.version < item.version


class Device(NamedTuple):
    """A device registered for a pass, as a push reads it."""

    id: int  # the registration's
    pass_id: str
    device_library_id: str
    push_token: str
    pushed_version: int | None


def registrations(pass_id: str) -> list[Device]:
    """The devices registered for a pass."""
    return registrations_of([pass_id]).get(pass_id, [])


def registrations_of(pass_ids: list[str]) -> dict[str, list[Device]]:
    """The devices registered for each of the passes (none: left out). Rows, not ORM
    objects: a pass can have tens of thousands, and loading (and expiring) them as objects
    cost a push to 10,000 devices a tenth of its time."""
    found: dict[str, list[Device]] = {}
    for row in db.session.execute(select(
            AppleRegistration.id, AppleRegistration.pass_id, AppleRegistration.device_library_id,
            AppleRegistration.push_token, AppleRegistration.pushed_version).where(
            AppleRegistration.pass_id.in_(pass_ids)).order_by(AppleRegistration.id)):
        found.setdefault(row.pass_id, []).append(Device(*row))
    return found


def _next_tags(session: Session, count: int) -> range:
    """`count` new tags, in order; the counter's row stays locked until the commit."""
    if count == 0:
        return range(0)
    value = session.execute(sql_update(AppleCounter).where(AppleCounter.name == "tag")
                            .values(value=AppleCounter.value + count)
                            .returning(AppleCounter.value)).scalar()
    if value is None:  # the migration adds the row; recreate it if someone removed it
        session.execute(insert(AppleCounter).values(name="tag", value=count))
        value = count
    return range(int(value) - count + 1, int(value) + 1)


def _whole_second(moment: datetime) -> datetime:
    """Up to the next whole second: HTTP dates have no fractions."""
    whole = moment.replace(microsecond=0)
    return whole if whole == moment else whole + timedelta(seconds=1)


def _authorized(pass_type: str, serial: str, token: str | None) -> Pass | None:
    """The pass, if the token is its authenticationToken and the type is its own."""
    item = None
    if ids.has_prefix(serial, "pass"):
        item = db.session.scalar(select(Pass).where(Pass.id == serial))
    expected = passes.authentication_token(item) if item is not None else _DUMMY_TOKEN
    matches = hmac.compare_digest((token or "").encode(), expected.encode())
    if item is None or not matches or not item.apple:
        return None
    if passes.pass_type_identifier(item) != pass_type:
        return None
    return item


def _installation_event(session: Session, item: Pass, type_: str) -> None:
    session.flush()
    installations = session.scalar(select(func.count()).select_from(AppleRegistration).where(
        AppleRegistration.pass_id == item.id)) or 0
    events.emit(session, organization_id=item.organization_id, environment=item.environment,
                type=type_, data=events.pass_data(session, item, passId=item.id, wallet={
                    "platform": "apple", "installations": installations}))
