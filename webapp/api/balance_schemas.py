"""Marshmallow schemas for balance transactions (loyalty points, gift card money), with the
documented examples."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from webapp.api.pass_schemas import Pass
from webapp.api.schemas import Strict, StrictInteger, Timestamp, constant, prefixed
from webapp.domain.balances import MAX_BALANCE
from webapp.domain.update_notice import NOTIFICATION_MODES

SOURCES = ["api", "dashboard", "scanner", "bulk"]
_AMOUNT = ("points (loyalty) or minor units of the currency (gift_card: 1250 is 12.50 EUR); "
           "positive earns or loads, negative spends or charges; never 0")


class BalanceTransactionCreate(Strict):
    amount = StrictInteger(required=True, validate=validate.Range(-MAX_BALANCE, MAX_BALANCE),
                           metadata={"description": _AMOUNT, "examples": [50, -200]})
    reason = fields.String(allow_none=True, validate=validate.Length(0, 100), metadata={
        "description": "why, in a few words; one line, at most 100 characters",
        "examples": ["purchase"]})
    reference = fields.String(allow_none=True, validate=validate.Length(0, 200), metadata={
        "description": "your own reference (an order or till receipt); at most 200 "
                       "characters", "examples": ["order-1234"]})
    notificationMode = fields.String(load_default="notify",
                                     validate=validate.OneOf(NOTIFICATION_MODES), metadata={
        "description": "notify (the default): the holder's phone shows the change (Apple: "
                       "the balance field's change message, like \"Points: 150\"); silent: "
                       "the pass changes quietly"})


class BalanceTransaction(Schema):
    id = prefixed("btx")
    object = constant("balance_transaction")
    passId = prefixed("pass", attribute="pass_id")
    amount = fields.Integer(required=True, metadata={"description": _AMOUNT})
    balanceAfter = fields.Integer(attribute="balance_after", required=True, metadata={
        "minimum": 0, "description": "the pass's balance right after this transaction"})
    reason = fields.String(required=True, allow_none=True, metadata={
        "description": "as given; \"opening balance\" for the balance a pass was issued with"})
    reference = fields.String(required=True, allow_none=True)
    source = fields.String(required=True, metadata={
        "enum": SOURCES, "description": "api: this API; dashboard: the pass page; scanner: "
                                        "the dashboard's scanner; bulk: a bulk job or a CSV "
                                        "import"})
    createdAt = Timestamp(attribute="created_at", required=True)

    class Meta:
        ordered = True


class BalanceTransactionResult(BalanceTransaction):
    pass_ = fields.Nested(Pass, data_key="pass", required=True, metadata={
        "description": "the pass after the transaction"})


EXAMPLE = {"id": "btx_01jf3w2c5e7g9j1k3m5p7r9t1v", "object": "balance_transaction",
           "passId": "pass_01jf3v9a1b3d5f7h9k1m3p5r7s", "amount": 50, "balanceAfter": 150,
           "reason": "purchase", "reference": "order-1234", "source": "api",
           "createdAt": "2026-11-25T19:02:11.000Z"}
REFUSAL_EXAMPLE = {
    "error": {"type": "conflict_error", "code": "insufficient_balance",
              "message": "The pass's balance is 150: it cannot spend 200.",
              "passId": "pass_01jf3v9a1b3d5f7h9k1m3p5r7s", "balance": 150},
    "requestId": "req_01jf3w3d6f8h0k2m4n6q8s0t2w"}
