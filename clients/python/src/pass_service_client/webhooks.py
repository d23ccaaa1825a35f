"""Webhook verification (Standard Webhooks, as the service signs: webapp/services/webhooks).

The signature header holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per signing
secret (two during a secret rotation); the key is the base64 after `whsec_`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

TOLERANCE_SECONDS = 300  # a delivery older or newer than this is refused (replays)


class WebhookVerificationError(Exception):
    """The delivery is not from the service, was changed, or is too old."""


def verify_webhook(secret: str, body: bytes | str, headers: Mapping[str, str], *,
                   tolerance: int = TOLERANCE_SECONDS, now: float | None = None
                   ) -> dict[str, Any]:
    """The event in `body`, once its `webhook-*` headers prove it: else
    `WebhookVerificationError`. Pass the body exactly as received (bytes)."""
    lowered = {name.lower(): value for name, value in headers.items()}
    msg_id, stamp = lowered.get("webhook-id"), lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not msg_id or not stamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, -timestamp or -signature header")
    try:
        sent = int(stamp)
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except (ValueError, binascii.Error) as exc:
        raise WebhookVerificationError("malformed timestamp or secret") from exc
    if abs((time.time() if now is None else now) - sent) > tolerance:
        raise WebhookVerificationError("the timestamp is outside the tolerance")
    raw = body.encode() if isinstance(body, str) else body
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{stamp}.".encode() + raw,
                                         hashlib.sha256).digest()).decode()
    for candidate in signatures.split():
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            event: dict[str, Any] = json.loads(raw)
            return event
    raise WebhookVerificationError("no signature matches")
