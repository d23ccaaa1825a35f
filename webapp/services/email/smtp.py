"""The SMTP server: `SMTP_URL` read into a `Server`, and `send(server, message) -> Outcome`.

    smtp://user:pass@host:587    STARTTLS, required (a server that does not offer it fails)
    smtps://user:pass@host:465   TLS from the first byte
    smtp://127.0.0.1:25          plain: only to a relay on this machine (a loopback host)

The user name and password may be percent-encoded. The password stays out of every message,
log line and repr: nothing here writes the URL back.

    Outcome.code, on failure (retry: tried again later):
      smtp_temporary         a 4xx answer (retry)
      smtp_rejected          a 5xx answer
      authentication_failed  the server refused the user name and password, or has no AUTH
      connection_failed      refused, reset or closed connection (retry)
      timeout                no answer within the timeout (retry)
      starttls_unavailable   the server does not offer STARTTLS
      tls_failed             the TLS handshake or the server's certificate failed
"""

from __future__ import annotations

import ipaddress
import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

TIMEOUT = 15.0  # seconds, for each step of the conversation (connect, EHLO, DATA, ...)
DEFAULT_PORTS = {"smtp": 587, "smtps": 465}
_MESSAGE_LIMIT = 300


@dataclass(frozen=True)
class Server:
    """Where and how to send: `security` is `starttls`, `tls` or `plain`."""

    host: str
    port: int
    security: str
    username: str | None = None
    password: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Outcome:
    """What handing one message to the server came to: `code` is None when it was accepted."""

    code: str | None = None
    message: str | None = None
    retry: bool = False

    @property
    def ok(self) -> bool:
        return self.code is None


def parse(url: str) -> Server:
    """The server that `SMTP_URL` names.

    :raises ValueError: not a URL mail can be sent through (the message never repeats it).
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise ValueError("SMTP_URL must start with smtp:// or smtps://.")
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or not parts.hostname:
        raise ValueError("SMTP_URL needs a host and, if it gives one, a port from 1 to 65535.")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("SMTP_URL takes no path, query or fragment.")
    security = "tls" if scheme == "smtps" else "starttls"
    if security == "starttls" and _loopback(parts.hostname):
        security = "plain"  # a relay on this machine: nothing crosses a network
    return Server(
        host=parts.hostname, port=port or DEFAULT_PORTS[scheme], security=security,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None)


def _loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def send(server: Server, message: EmailMessage, sender: str, to: str,
         timeout: float = TIMEOUT) -> Outcome:
    """Hand `message` to the server for `to`, from the envelope address `sender`; what came
    of it (the server's doing never raises)."""
    try:
        with _connect(server, timeout) as client:
            client.ehlo()
            if server.security == "starttls":
                if not client.has_extn("starttls"):
                    return Outcome("starttls_unavailable",
                                   "The SMTP server does not offer STARTTLS.")
                client.starttls(context=ssl.create_default_context())
                client.ehlo()
            if server.username is not None:
                client.login(server.username, server.password or "")
            client.send_message(message, from_addr=sender, to_addrs=[to])
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        return _answer(code, text)
    except smtplib.SMTPAuthenticationError as exc:
        if 400 <= exc.smtp_code < 500:
            return _answer(exc.smtp_code, exc.smtp_error)
        return Outcome("authentication_failed", _text(exc.smtp_code, exc.smtp_error))
    except smtplib.SMTPNotSupportedError:  # a user name, and the server offers no AUTH
        return Outcome("authentication_failed", "The SMTP server offers no AUTH: leave the "
                       "user name and password out of SMTP_URL.")
    except smtplib.SMTPResponseException as exc:
        return _answer(exc.smtp_code, exc.smtp_error)
    except smtplib.SMTPServerDisconnected:
        return Outcome("connection_failed", "The SMTP server closed the connection.",
                       retry=True)
    except smtplib.SMTPException as exc:  # e.g. no AUTH method both sides know
        return Outcome("smtp_rejected", _clip(str(exc)))
    except ssl.SSLError as exc:
        return Outcome("tls_failed", _clip(f"TLS with the SMTP server failed: {exc}"))
    except TimeoutError:
        return Outcome("timeout", f"The SMTP server did not answer within {timeout:g} s.",
                       retry=True)
    except OSError as exc:  # refused, unreachable, reset, name not resolved
        return Outcome("connection_failed",
                       _clip(f"Could not reach the SMTP server: {exc.strerror or exc}"),
                       retry=True)
    return Outcome()


def _connect(server: Server, timeout: float) -> smtplib.SMTP:
    if server.security == "tls":
        return smtplib.SMTP_SSL(server.host, server.port, timeout=timeout,
                                context=ssl.create_default_context())
    return smtplib.SMTP(server.host, server.port, timeout=timeout)


def _answer(code: int, text: bytes | str) -> Outcome:
    """A refusal by the server: 4xx is worth another try, anything else is final."""
    if 400 <= code < 500:
        return Outcome("smtp_temporary", _text(code, text), retry=True)
    return Outcome("smtp_rejected", _text(code, text))


def _text(code: int, text: bytes | str) -> str:
    said = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return _clip(f"{code} {' '.join(said.split())}")


def _clip(text: str) -> str:
    return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT - 1] + "…"
