"""The "Add to Google Wallet" link of a pass: a save URL minted on each visit, never stored.

The JWT only references the pass's pre-inserted object (`{id, classId}`), so it stays far
below 1,800 characters whatever the design; if the object is not written yet (the job has
not run, or Google was down), one attempt is made now.
"""

from __future__ import annotations

from dataclasses import dataclass

from webapp import settings
from webapp.services.google import sync
from webapp.services.insights import record as insights
from webapp.services.passes import download_links
from webapp.wallets.google import save_link


@dataclass(frozen=True)
class SaveLink:
    """Where to send the holder: `url`, or why not (`gone`: voided | expired | revoked;
    `unavailable`: the object could not be written now, try again shortly)."""

    url: str | None = None
    gone: str | None = None
    unavailable: str | None = None


def for_short_id(short_id: str) -> SaveLink:
    """The save link behind a pass's permanent page (an active pass's holder followed "Add
    to Google Wallet": an add intent is recorded).

    :raises NotFound: no such pass, or it is not issued for Google.
    """
    return _link(download_links.by_short_id(short_id, "google"))


def for_token(token: str) -> SaveLink:
    """The save link behind a download link (an add intent, as `for_short_id`).

    :raises NotFound: no such link, or its pass is not issued for Google.
    """
    return _link(download_links.by_token(token, "google"))


def _link(found: download_links.Resolved) -> SaveLink:
    if found.pass_ is None:
        return SaveLink(gone=found.gone)
    insights.add_intent(found.pass_, "google")
    written = sync.ensure_written(found.pass_, person_waiting=True)
    row, identity = written.row, written.identity
    if row.state != "written" or identity is None or not row.object_id or not row.class_id:
        return SaveLink(unavailable=row.reason or "wallet_unavailable")
    encoded = save_link.token(identity.service_account, row.kind or "genericObject",
                              row.object_id, row.class_id,
                              [save_link.origin(settings.get("BASE_URL"))])
    return SaveLink(url=save_link.url(settings.get("GOOGLE_WALLET_SAVE_URL"), encoded))
