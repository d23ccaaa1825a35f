"""The scanner: a page for a phone held in one hand. It reads a pass's barcode with the rear
camera (static/dashboard/scanner.js) or takes a typed short ID, and shows whether to let the
holder in: `checkin.scan` with source "scanner" and the signed-in staff member as who scanned.

Times on the verdict are in the phone's time zone (sent by the page as `tz`, named on the
page), UTC when the page does not say.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import Response, current_app, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from webapp import clock
from webapp.dashboard import ENV, attempts, bp, ctx, forms, nav
from webapp.dashboard.htmx import go, render
from webapp.errors import Conflict, InvalidRequest, NotFound, RedemptionRefused
from webapp.services.balances import ledger
from webapp.services.passes import queries
from webapp.services.redemptions import checkin

nav.add("Scanner", "dashboard.scan_index", 15)

_PAGE, _VERDICT = "dashboard/scan/index.html", "dashboard/scan/_verdict.html"
_SHOWN_GROUPS = ("header", "primary", "secondary", "auxiliary")  # not the back of the pass
_TITLES = {
    "already_redeemed": "Already checked in",
    "max_uses_reached": "No uses left",
    "pass_voided": "Pass voided",
    "pass_expired": "Pass expired",
    "redemption_not_enabled": "Not a check-in pass",
    "unknown_code": "Unknown code",
}


@dataclass(frozen=True)
class Verdict:
    """What the full-screen answer shows: green when `valid`, else red with `reason`."""

    valid: bool
    code: str  # "valid", or the refusal's code
    title: str
    reason: str = ""
    holder: str | None = None
    template: str | None = None
    fields: list[tuple[str, str]] = field(default_factory=list)
    # A loyalty or gift card (issue 32): its pass and balance (`ledger.for_page`), and the
    # forms to add or spend points, charge money.
    pass_id: str | None = None
    balance: dict[str, Any] | None = None


@bp.get("/scan")
def scan_open() -> BaseResponse:
    """The scanner of live when live has passes (a real event), else of test."""
    env = "live" if queries.has_any(replace(ctx(), environment="live")) else "test"
    return go(url_for("dashboard.scan_index", env=env,
                      location=request.args.get("location", "")[:100] or None))


@bp.get(f"/{ENV}/scan")
def scan_index() -> Response:
    return render(_PAGE, None, 200, verdict=None, zone="UTC",
                  location=request.args.get("location", "")[:100])


@bp.post(f"/{ENV}/scan")
def scan_verdict() -> Response:
    """Judge one scanned or typed code: the verdict fragment for the page's script, the
    whole page for a plain form post. Unknown codes are limited per signed-in person, so
    an account cannot walk through short barcode values."""
    code, location = request.form.get("code", "").strip(), request.form.get("location", "")
    zone = _zone(request.form.get("tz", ""))
    shown: dict[str, Any] = {"location": location, "zone": zone.key}
    if not code:
        return render(_PAGE, _VERDICT, 422, verdict=None, error="Scan a barcode or type the "
                      "pass's short ID.", **shown)
    buckets = [(current_app.config["DASHBOARD_SCAN_FAILURE_LIMIT"],
                attempts.key("scan", ctx().user_id or "-"))]
    if wait := attempts.start(buckets):
        response = render(_PAGE, _VERDICT, 429, verdict=None, error=(
            f"Too many unknown codes: scanning is paused. Wait {attempts.words(wait)}."),
            **shown)
        response.headers["Retry-After"] = str(wait)
        return response
    status, verdict, error = _judge(code, location, zone)
    if verdict is None or verdict.code != "unknown_code":
        attempts.succeeded(buckets)
    return render(_PAGE, _VERDICT, status, verdict=verdict, error=error, **shown)


def _judge(code: str, location: str, zone: ZoneInfo) -> tuple[int, Verdict | None, str | None]:
    """Check the code in: the status, and the verdict or the problem with the input."""
    try:
        redemption = checkin.scan(ctx(), code, source="scanner", location=location)
    except RedemptionRefused as exc:
        if exc.code == "redemption_not_enabled":  # a points or money card: its balance
            item = queries.get(ctx(), exc.pass_id)
            if item.balance is not None:
                return 200, _balance(item), None
        return 200, _refused(exc, zone), None
    except NotFound:
        return 200, Verdict(False, "unknown_code", _TITLES["unknown_code"],
                            f"No {ctx().environment} pass of this organization has the code "
                            f"{code[:80]}."), None
    except Conflict as exc:  # e.g. a barcode value that several passes share
        return 200, Verdict(False, exc.code, "Not valid", exc.message), None
    except InvalidRequest as exc:  # e.g. a location over 100 characters
        return 422, None, exc.message
    return 200, _valid(redemption.pass_), None


def _valid(item: Any) -> Verdict:
    """The green screen: who holds the pass and what it says."""
    mode = (item.definition or {}).get("redemption") or {}
    reason = ""
    if mode.get("mode") == "multiple":
        limit = mode.get("maxUses")
        reason = f"Use {item.redemption_count}" + (f" of {limit}" if limit else "")
    return Verdict(True, "valid", "Valid", reason, item.holder_name, item.template_name,
                   _fields(item))


def _balance(item: Any, problem: str = "") -> Verdict:
    """The card's screen: its balance (and tier), and the controls to move it."""
    shown = ledger.for_page(ctx(), item)
    title = "Loyalty card" if shown and shown["loyalty"] else "Gift card"
    fields = _fields(item, skip=("pass.balance", "pass.tier"))  # shown large instead
    return Verdict(True, "balance", title, problem, item.holder_name, item.template_name,
                   fields, pass_id=item.id, balance=shown)


@bp.post(f"/{ENV}/scan/balance")
def scan_balance() -> Response:
    """Add points, spend them or charge a gift card from the scanner (source `scanner`):
    the card's screen again, with its new balance or why not."""
    location = request.form.get("location", "")
    shown: dict[str, Any] = {"location": location, "zone": "UTC"}
    pass_id = request.form.get("pass_id", "")
    item = queries.get(ctx(), pass_id)
    card = ledger.for_page(ctx(), item)
    if card is None:
        return render(_PAGE, _VERDICT, 422, verdict=None, error="This pass keeps no balance.",
                      **shown)
    try:
        moved = forms.amount(request.form.get("amount", ""), card["digits"],
                                     request.form.get("direction", "earn"))
        movement = ledger.adjust(ctx(), pass_id, amount=moved, source="scanner",
                                 reason=request.form.get("reason") or None)
    except (InvalidRequest, Conflict) as exc:
        return render(_PAGE, _VERDICT, 200, verdict=_balance(item, exc.message), **shown)
    done = _balance(ledger.shown_pass(movement))
    verb = "Added" if moved > 0 else ("Spent" if done.balance and done.balance["loyalty"]
                                      else "Charged")
    return render(_PAGE, _VERDICT, 200, verdict=replace(
        done, reason=f"{verb} {abs(moved):,}" if card["digits"] == 0 else f"{verb}."),
        **shown)


def _refused(exc: RedemptionRefused, zone: ZoneInfo) -> Verdict:
    """The red screen: why not, with the earlier check-in that decided it."""
    reason = exc.message
    earlier = exc.redemption
    if exc.code in ("already_redeemed", "max_uses_reached") and earlier:
        # Under the title: "Already checked in" / "at 19:02 by sam@example.com, Gate B".
        verb = "" if exc.code == "already_redeemed" else "Last check-in "
        scanned_by = (earlier.get("scannedBy") or {}).get("name")
        reason = f"{verb}{_when(earlier.get('redeemedAt'), zone)}" + \
            (f" by {scanned_by}" if scanned_by else "") + \
            (f", {earlier['location']}" if earlier.get("location") else "")
    try:
        item = queries.get(ctx(), exc.pass_id)
    except NotFound:
        item = None
    return Verdict(False, exc.code, _TITLES.get(exc.code, "Not valid"), reason,
                   item.holder_name if item else None, item.template_name if item else None,
                   _fields(item) if item else [])


def _when(stamp: str | None, zone: ZoneInfo) -> str:
    """`at 19:02` today in `zone`, `on 24 Nov at 19:02` another day (the page names the
    zone)."""
    if not stamp:
        return ""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(zone)
    today = clock.now().astimezone(zone).date()
    day = "" if moment.date() == today else f"on {moment.day} {moment:%b %Y} "
    return f"{day}at {moment:%H:%M}"


def _fields(item: Any, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The pass's labelled values from its front, in wallet order (but the keys `skip`)."""
    groups = (item.preview or {}).get("fields", {})
    return [(f.get("label") or f.get("key") or "", f["value"])
            for group in _SHOWN_GROUPS for f in groups.get(group, [])
            if f.get("value") and f.get("key") not in skip]


def _zone(name: str) -> ZoneInfo:
    """The phone's IANA time zone, or UTC for a missing or unknown one."""
    try:
        return ZoneInfo(name) if name and len(name) <= 64 else ZoneInfo("UTC")
    except (ValueError, KeyError, OSError):  # ZoneInfoNotFoundError is a KeyError
        return ZoneInfo("UTC")
