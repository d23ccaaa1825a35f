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
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import update as sql_update

from webapp import clock, settings
from webapp.db.transaction import transaction
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
    item = db.session.get(Pass, record.pass_id)
    if item is None or not item.apple:
        _finish(record, "skipped")
        return
    registrations.touch(item)  # devices asking what changed see this version now
    waiting = [r for r in registrations.registrations(item.id)
               if (r.pushed_version or 0) < record.pass_version]
    if not waiting:
        _record(record, item, _Outcome())
        return
    identity = identities.apple_identity(item.organization_id, item.apple_certificate_id)
    if identity is None:
        _finish(record, "failed", error=_error("credentials_missing", "The pass's Apple "
                                               "certificate is no longer available."))
        return
    if _expired(item, identity):
        _finish(record, "failed", error=_error("certificate_expired", "The pass's Apple "
                                               "certificate has expired."))
        return
    _record(record, item, _push(item, identity, waiting, record.pass_version))


class _Outcome:
    """What one round of pushes came to."""

    def __init__(self) -> None:
        self.rejected: str | None = None  # APNs refused our certificate
        self.refused: str | None = None  # a non-retryable APNs error (config, topic)
        self.retry: str | None = None  # the error code of pushes to try again
        self.detail: str | None = None  # what APNs (or the connection) said last


def _push(item: Pass, identity: identities.AppleIdentity, waiting: list[AppleRegistration],
          version: int) -> _Outcome:
    client = apns.client_for(settings.get("APNS_URL"), identity.certificate_pem,
                             identity.wwdr_pem, identity.private_key_pem,
                             settings.get("APNS_CA_FILE"))
    results = client.push([r.push_token for r in waiting], identity.pass_type_identifier)
    outcome, accepted, gone = _Outcome(), [], {}
    for registration, result in zip(waiting, results, strict=True):
        if result.status == 200:
            accepted.append(registration.id)
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
    _mark_pushed(accepted, version)
    _end_gone(item, gone)
    return outcome


def _mark_pushed(registration_ids: list[int], version: int) -> None:
    if not registration_ids:
        return
    with transaction() as session:
        for start in range(0, len(registration_ids), _CHUNK):
            session.execute(sql_update(AppleRegistration).where(
                AppleRegistration.id.in_(registration_ids[start:start + _CHUNK]))
                .values(pushed_version=version)
                .execution_options(synchronize_session=False))


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


def _record(record: PassUpdate, item: Pass, outcome: _Outcome) -> None:
    devices = _accepted(item.id, record.pass_version)
    if outcome.rejected is not None:
        _finish(record, "failed", devices=devices, error=_error(
            "apns_certificate_rejected",
            f"APNs refused the pass's certificate ({outcome.rejected})."))
    elif outcome.retry is not None and clock.now() - record.created_at < RETRY_FOR:
        _later(record, devices, outcome.retry, outcome.detail)
    elif devices:
        error = None
        if outcome.retry or outcome.refused:
            error = _error(outcome.retry or "apns_rejected",
                           f"Some devices could not be reached ({outcome.refused or 'APNs'}).")
        _finish(record, _delivered_or_sent(item.id, record.pass_version), devices=devices,
                error=error)
    elif outcome.retry or outcome.refused:
        _finish(record, "failed", error=_error(
            outcome.retry or "apns_rejected",
            f"APNs did not accept the push ({outcome.refused or 'unavailable for an hour'})."))
    else:
        _finish(record, "no_devices")


def _accepted(pass_id: str, version: int) -> int:
    return db.session.scalar(select(func.count()).select_from(AppleRegistration).where(
        AppleRegistration.pass_id == pass_id,
        AppleRegistration.pushed_version >= version)) or 0


def _delivered_or_sent(pass_id: str, version: int) -> str:
    fetched = db.session.scalar(select(ApplePassState.fetched_version).where(
        ApplePassState.pass_id == pass_id))
    return "delivered" if (fetched or 0) >= version else "sent"


def _expired(item: Pass, identity: identities.AppleIdentity) -> bool:
    if identity.id == identities.DEMO:
        return False
    cert = identities.find_certificate(item.organization_id, identity.id)
    return cert is not None and cert.expires_at <= clock.now()


def _later(record: PassUpdate, devices: int, code: str, detail: str | None) -> None:
    """Leave the step pending; the sweep runs it again at `next_attempt_at`."""
    delay = timedelta(seconds=RETRY_DELAYS[min(record.attempts, len(RETRY_DELAYS) - 1)])
    now = clock.now()
    when = min(now + delay, record.created_at + RETRY_FOR)
    with transaction():
        record.attempts += 1
        if record.next_attempt_at is None or record.next_attempt_at <= now \
                or when < record.next_attempt_at:
            record.next_attempt_at = when
        record.apple_devices = devices
        record.apple_error = _error(code, f"APNs is busy or unreachable ({detail}); trying "
                                    "again.")
        record.updated_at = now


def _finish(record: PassUpdate, status: str, *, devices: int = 0,
            error: dict[str, Any] | None = None) -> None:
    with transaction() as session:
        insights.update_finished(session, record, "apple", record.apple_status, status)
        record.apple_status, record.apple_devices, record.apple_error = status, devices, error
        record.updated_at = clock.now()


def _error(code: str, message: str) -> dict[str, Any]:
    return {"code": code, "message": message[:300]}

