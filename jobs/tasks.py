"""Job functions: IDs in, one service call each. RQ imports them by dotted name."""

from __future__ import annotations

from webapp.api import bulk_job_items
from webapp.services import bulk, messages
from webapp.services.accounts import invitations
from webapp.services.email import delivery as email_delivery
from webapp.services.google import sync
from webapp.services.outbox import pass_updates, sweep
from webapp.services.webhooks import delivery


def deliver_pass_update(update_id: str) -> None:
    """Push one pass update to the wallets that hold the pass (the name is stored in queued
    jobs: kept)."""
    pass_updates.push(update_id)


def deliver_pass_updates(*update_ids: str) -> None:
    """`deliver_pass_update` for the updates of one bulk job chunk, their pushes together."""
    pass_updates.push_all(list(update_ids))


def sync_google_pass(pass_id: str) -> None:
    """Write a new pass's Google Wallet class and object."""
    sync.sync(pass_id)


def deliver_webhooks(endpoint_id: str) -> None:
    """Send an endpoint's due webhook deliveries (those nobody else is sending)."""
    delivery.deliver_endpoint(endpoint_id)


def deliver_webhook(delivery_id: str) -> None:
    """A job queued by a version that queued one per delivery: its endpoint's deliveries."""
    delivery.deliver_endpoint_of(delivery_id)


def send_pass_email(email_id: str) -> None:
    """Make a queued email's next attempt (if it is due and nobody else holds it)."""
    email_delivery.deliver(email_id)


def send_invitation_email(invitation_id: str) -> None:
    """Email an invitation's link to its address (once)."""
    invitations.send_email(invitation_id)


def run_bulk_job(job_id: str) -> None:
    """Apply a bulk job's pending items, a chunk at a time (items read as the API reads
    them)."""
    bulk.run(job_id, bulk_job_items.RULES)


def sweep_pending() -> int:
    """Enqueue pending work whose job was lost or whose retry is due."""
    return sweep.run()


def send_message(message_id: str) -> None:
    """Start a message whose time has come and hand it to its audience, chunk by chunk."""
    messages.run(message_id)
