"""The email of a pass: Subject, From, To, Date, Message-ID, a plain-text and an HTML part.

Written in the language chosen when it was queued (en, de, fr, es: the holder pages'
catalogues in webapp/translations) from the Jinja templates in webapp/templates/email/.
The HTML part is autoescaped, so whatever the holder or the organization typed shows as
text. Rendered outside any request (by the job), hence a Jinja environment of its own.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from babel.support import Translations
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from webapp import clock

_WEBAPP = Path(__file__).resolve().parents[2]
TEMPLATES = _WEBAPP / "templates" / "email"
CATALOGUES = _WEBAPP / "translations"


@dataclass(frozen=True)
class Letter:
    """What one email says and to whom."""

    email_id: str
    to: str
    sender: str  # EMAIL_FROM
    organization: str
    holder_name: str | None
    pass_url: str
    apple_url: str | None  # None: the pass was not issued for that wallet
    google_url: str | None
    locale: str


def compose(letter: Letter) -> EmailMessage:
    """The message, ready for SMTP. Its Message-ID is the email's ID: a retry repeats it."""
    env = _environment(letter.locale)
    values: dict[str, Any] = {
        "organization": _one_line(letter.organization), "holder_name": letter.holder_name,
        "pass_url": letter.pass_url, "apple_url": letter.apple_url,
        "google_url": letter.google_url, "locale": letter.locale,
    }
    message = EmailMessage()
    message["Subject"] = _one_line(env.get_template("subject.txt").render(values))
    message["From"] = Address(display_name=values["organization"], addr_spec=letter.sender)
    message["To"] = Address(addr_spec=letter.to)
    message["Date"] = format_datetime(clock.now())
    message["Message-ID"] = f"<{letter.email_id}@{letter.sender.rpartition('@')[2]}>"
    message.set_content(env.get_template("pass.txt").render(values), cte="quoted-printable")
    message.add_alternative(env.get_template("pass.html").render(values), subtype="html",
                            cte="quoted-printable")
    message["Content-Language"] = letter.locale  # after the parts: theirs move into them
    return message


def invitation(invitation_id: str, to: str, sender: str, organization: str, role: str,
               link: str, expires_at: Any) -> EmailMessage:
    """An invitation to join `organization` (staff mail: English, plain text)."""
    name = _one_line(organization)
    message = EmailMessage()
    message["Subject"] = f"You are invited to {name}"
    message["From"] = Address(display_name=name, addr_spec=sender)
    message["To"] = Address(addr_spec=to)
    message["Date"] = format_datetime(clock.now())
    message["Message-ID"] = f"<{invitation_id}.{int(clock.now().timestamp())}@" \
                            f"{sender.rpartition('@')[2]}>"
    message.set_content(
        f"You are invited to {name} on the pass service, as {role}.\n\n"
        f"Open this link, sign in (or, new here, choose a password) and accept:\n{link}\n\n"
        f"It works once, until {expires_at:%d %B %Y, %H:%M} UTC. If you did not expect "
        "this, ignore it: nothing happens until the link is used.\n", cte="quoted-printable")
    return message


@functools.cache
def _environment(locale: str) -> Environment:
    """One environment per language: the translations are installed into it for good."""
    env = Environment(loader=FileSystemLoader(TEMPLATES),
                      autoescape=select_autoescape(["html"], default_for_string=False),
                      undefined=StrictUndefined, extensions=["jinja2.ext.i18n"],
                      trim_blocks=True, lstrip_blocks=True)  # a tag's line leaves no gap
    translations = Translations.load(str(CATALOGUES), [locale])
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    return env


def _one_line(text: str) -> str:
    """Header-safe: no line breaks or runs of spaces (a name may hold them)."""
    return " ".join(text.split())
