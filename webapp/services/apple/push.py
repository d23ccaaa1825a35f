"""The Apple step of pushing a pass update to the wallets: push to every device registered
for the pass over APNs, then record `delivery.apple` (the API member's name).

`status`: `sent` (APNs accepted the push for at least one device), `no_devices`, `failed`
(`error.code`: `apns_certificate_rejected` on 403, `credentials_missing`,
`certificate_expired`, `apns_rejected`, or after an hour of `apns_unavailable` /
`apns_throttled`), `skipped`; `sent` becomes `delivered` once a device fetches the version.
`devices`: the registrations APNs accepted the push for.

APNs 410 `Unregistered` and 400 `BadDeviceToken`/`DeviceTokenNotForTopic` end the
registration (a `pass.removed_from_wallet` event each). 429, 5xx and connection failures
leave the step `pending` with `next_attempt_at` (5 s, 30 s, 2 min, 5 min, 10 min...) for
the sweep, for up to an hour; a retry pushes only to the devices not yet accepted.

`push_all` runs the step for many updates (a bulk job's chunk) as `push` runs it for one,
with their pushes together: one APNs batch per certificate over the kept connection, and a
few transactions for all of them instead of a few per update. `push` is `push_all` of one.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, cast

from sqlalchemy import Table, func, select
from sqlalchemy import update as sql_update

from webapp import clock, metrics, settings
from webapp.db.transaction import count_after_commit, transaction
from webapp.extensions import db
from webapp.models import ApplePassState, AppleRegistration, Pass, PassUpdate
from webapp.services.apple import registrations
from webapp.services.credentials import identities
from webapp.services.insights import record as insights
from webapp.wallets.apple import apns

RETRY_FOR = timedelta(hours=1)
RETRY_DELAYS = (5, 30, 120, 300, 600)
GONE = {"BadDeviceToken", "DeviceTokenNotForTopic", "Unregistered"}
_CHUNK = 500


def push(record: PassUpdate) -> None:
    """Run the Apple step of an update (status `pending` on entry)."""
    push_all([record])


def push_all(records: list[PassUpdate]) -> None:
    """Run the Apple step of many updates (each `pending` on entry); the result of each is
    what `push` would record for it alone. Updates of one pass run in turn, in order."""
    while records:
        seen: set[str] = set()
        now: list[PassUpdate] = []
        later: list[PassUpdate] = []
        for record in records:
            (later if record.pass_id in seen else now).append(record)
            seen.add(record.pass_id)
        _push_round(now)
        records = later


@dataclass
class _Outcome:
    """What one round of pushes came to."""

    rejected: str | None = None  # APNs refused our certificate
    refused: str | None = None  # a non-retryable APNs error (config, topic)
    retry: str | None = None  # the error code of pushes to try again
    detail: str | None = None  # what APNs (or the connection) said last


@dataclass
class _Work:
    """One update's step: its pass, the devices waiting for its version, the outcome."""

    record: PassUpdate
    item: Pass
    waiting: list[registrations.Device] = field(default_factory=list)
    outcome: _Outcome = field(default_factory=_Outcome)


@dataclass
class _Final:
    record: PassUpdate
    status: str
    devices: int = 0
    error: dict[str, Any] | None = None


def _push_round(records: list[PassUpdate]) -> None:
    """The step for updates of distinct passes."""
    items = {item.id: item for item in db.session.scalars(
        select(Pass).where(Pass.id.in_([r.pass_id for r in records])))}
    finals: list[_Final] = []
    work: list[_Work] = []
    for record in records:
        item = items.get(record.pass_id)
        if item is None or not item.apple:
            finals.append(_Final(record, "skipped"))
        else:
            work.append(_Work(record, item))
    # Devices asking what changed see these versions now.
    registrations.touch_all([w.item for w in work])
    devices = registrations.registrations_of([w.item.id for w in work])
    by_certificate: dict[tuple[str, str | None], list[_Work]] = defaultdict(list)
    for w in work:
        w.waiting = [r for r in devices.get(w.item.id, [])
                     if (r.pushed_version or 0) < w.record.pass_version]
        if w.waiting:
            by_certificate[(w.item.organization_id, w.item.apple_certificate_id)].append(w)
    for (organization_id, certificate_id), batch in by_certificate.items():
        identity = identities.apple_identity(organization_id, certificate_id)
        if identity is None:
            finals += [_Final(w.record, "failed", error=_error(
                "credentials_missing", "The pass's Apple certificate is no longer "
                "available.")) for w in batch]
        elif _expired(organization_id, identity):
            finals += [_Final(w.record, "failed", error=_error(
                "certificate_expired", "The pass's Apple certificate has expired."))
                for w in batch]
        else:
            _push(identity, batch)
    failed = {final.record.id for final in finals}
    _record([w for w in work if w.record.id not in failed], finals)


def _push(identity: identities.AppleIdentity, batch: list[_Work]) -> None:
    """Push every waiting device of the batch at once; each update's outcome, the devices
    APNs accepted marked as pushed, and the gone ones ended."""
    client = apns.client_for(settings.get("APNS_URL"), identity.certificate_pem,
                             identity.wwdr_pem, identity.private_key_pem,
                             settings.get("APNS_CA_FILE"))
    results = iter(client.push([r.push_token for w in batch for r in w.waiting],
                               identity.pass_type_identifier))
    accepted: dict[int, list[int]] = defaultdict(list)  # version -> registrations given it
    for w in batch:
        outcome, gone = w.outcome, {}
        for registration in w.waiting:
            result = next(results)
            if result.status == 200:
                accepted[w.record.pass_version].append(registration.id)
            elif result.certificate_rejected:
                outcome.rejected = result.reason or "Forbidden"
            elif result.status in (400, 410) and result.reason in GONE:
                gone[registration.device_library_id] = _cutoff(result)
            elif result.status == 429:
                outcome.retry = outcome.retry or "apns_throttled"
                outcome.detail = "429 TooManyRequests"
            elif result.status >= 500 or result.status == apns.TRANSPORT_ERROR:
                outcome.retry = "apns_unavailable"
                outcome.detail = f"{result.status or 'no answer'} {result.reason or ''}".strip()
            else:
                outcome.refused = f"{result.status} {result.reason or ''}".strip()
        _end_gone(w.item, gone)
    _mark_pushed(accepted)


def _mark_pushed(accepted: dict[int, list[int]]) -> None:
    """Each accepted registration's version, a statement per version and _CHUNK devices."""
    if not accepted:
        return
    table = cast(Table, AppleRegistration.__table__)
    with transaction() as session:
        for version, registration_ids in accepted.items():
            for start in range(0, len(registration_ids), _CHUNK):
                session.connection().execute(
                    sql_update(table).where(table.c.id.in_(registration_ids[start:start + _CHUNK]))
                    .values(pushed_version=version))


def _end_gone(item: Pass, gone: dict[str, datetime | None]) -> None:
    """End registrations APNs says are gone, unless the device registered again after
    APNs noticed (its 410 timestamp)."""
    if not gone:
        return
    by_cutoff: dict[datetime | None, list[str]] = defaultdict(list)
    for device_id, cutoff in gone.items():
        by_cutoff[cutoff].append(device_id)
    for cutoff, device_ids in by_cutoff.items():
        for start in range(0, len(device_ids), _CHUNK):
            registrations.remove(item, device_ids[start:start + _CHUNK],
                                 unless_updated_after=cutoff)


def _cutoff(result: apns.PushResult) -> datetime | None:
    if result.status != 410 or result.timestamp_ms is None:
        return None
    return datetime.fromtimestamp(result.timestamp_ms / 1000, UTC)


def _record(work: list[_Work], finals: list[_Final]) -> None:
    """Each update's status from its outcome and the devices that have its version."""
    reached = _devices_with_version(work)
    fetched = _fetched_versions([w.item.id for w in work])
    retries: list[tuple[PassUpdate, int, str, str | None]] = []
    for w in work:
        record, outcome = w.record, w.outcome
        devices = reached.get(record.id, 0)
        if outcome.rejected is not None:
            finals.append(_Final(record, "failed", devices, _error(
                "apns_certificate_rejected",
                f"APNs refused the pass's certificate ({outcome.rejected}).")))
        elif outcome.retry is not None and clock.now() - record.created_at < RETRY_FOR:
            retries.append((record, devices, outcome.retry, outcome.detail))
        elif devices:
            error = None
            if outcome.retry or outcome.refused:
                error = _error(outcome.retry or "apns_rejected", "Some devices could not be "
                               f"reached ({outcome.refused or 'APNs'}).")
            status = "delivered" if fetched.get(w.item.id, 0) >= record.pass_version else "sent"
            finals.append(_Final(record, status, devices, error))
        elif outcome.retry or outcome.refused:
            why = outcome.refused or "unavailable for an hour"
            finals.append(_Final(record, "failed", error=_error(
                outcome.retry or "apns_rejected", f"APNs did not accept the push ({why}).")))
        else:
            finals.append(_Final(record, "no_devices"))
    _later(retries)
    _finish(finals)


def _devices_with_version(work: list[_Work]) -> dict[str, int]:
    """Per update, the registrations of its pass pushed its version (or a later one)."""
    versions = {w.item.id: w.record for w in work}
    counts: dict[str, int] = defaultdict(int)
    if not versions:
        return counts
    for pass_id, pushed, count in db.session.execute(
            select(AppleRegistration.pass_id, AppleRegistration.pushed_version, func.count())
            .where(AppleRegistration.pass_id.in_(list(versions)))
            .group_by(AppleRegistration.pass_id, AppleRegistration.pushed_version)):
        record = versions[pass_id]
        if (pushed or 0) >= record.pass_version:
            counts[record.id] += count
    return counts


def _fetched_versions(pass_ids: list[str]) -> dict[str, int]:
    if not pass_ids:
        return {}
    return {pass_id: version or 0 for pass_id, version in db.session.execute(
        select(ApplePassState.pass_id, ApplePassState.fetched_version)
        .where(ApplePassState.pass_id.in_(pass_ids)))}


def _expired(organization_id: str, identity: identities.AppleIdentity) -> bool:
    if identity.id == identities.DEMO:
        return False
    cert = identities.find_certificate(organization_id, identity.id)
    return cert is not None and cert.expires_at <= clock.now()


def _later(retries: list[tuple[PassUpdate, int, str, str | None]]) -> None:
    """Leave the steps pending; the sweep runs each again at its `next_attempt_at`."""
    if not retries:
        return
    now = clock.now()
    with transaction() as session:
        count_after_commit(session, partial(metrics.APNS_PUSHES.labels(metrics.RETRY).inc,
                                            len(retries)))
        for record, devices, code, detail in retries:
            delay = timedelta(seconds=RETRY_DELAYS[min(record.attempts,
                                                       len(RETRY_DELAYS) - 1)])
            when = min(now + delay, record.created_at + RETRY_FOR)
            record.attempts += 1
            if record.next_attempt_at is None or record.next_attempt_at <= now \
                    or when < record.next_attempt_at:
                record.next_attempt_at = when
            record.apple_devices = devices
            record.apple_error = _error(code, f"APNs is busy or unreachable ({detail}); "
                                        "trying again.")
            record.updated_at = now


def _finish(finals: list[_Final]) -> None:
    if not finals:
        return
    with transaction() as session:
        now = clock.now()
        insights.updates_finished(session, "apple", [
            (final.record, final.record.apple_status, final.status) for final in finals])
        for final in finals:
            count_after_commit(session, metrics.APNS_PUSHES.labels(final.status).inc)
            record = final.record
            record.apple_status, record.apple_devices = final.status, final.devices
            record.apple_error, record.updated_at = final.error, now


def _error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message[:300]}
