"""A real SMTP server on a free loopback port (aiosmtpd), recording what it accepts.

`answers` scripts the reply to each DATA in turn (e.g. `["451 4.3.0 Try again later"]`),
then every message is accepted. `Mailbox().start()`; `stop()` ends it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage


class _Controller(Controller):
    def _trigger_server(self) -> None:
        # Bound to port 0: learn the port the system chose before the first connection.
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


@dataclass
class Mailbox:
    """An SMTP server; with `login`, it offers AUTH and takes that (user, password) only."""

    login: tuple[str, str] | None = None
    answers: list[str] = field(default_factory=list)
    messages: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    _cond: threading.Condition = field(default_factory=threading.Condition)
    _controller: Any = None

    @property
    def port(self) -> int:
        return int(self._controller.port)

    def url(self, credentials: str = "") -> str:
        return f"smtp://{credentials}127.0.0.1:{self.port}"

    def start(self) -> Mailbox:
        kwargs: dict[str, Any] = {}
        if self.login is not None:
            # Offered and checked, not required: AUTH without TLS is what this test server
            # on loopback speaks (aiosmtpd warns when both are asked of it).
            kwargs.update(authenticator=self._authenticate, auth_require_tls=False)
        self._controller = _Controller(self, hostname="127.0.0.1", port=0, **kwargs)
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    def _authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str,
                      auth_data: Any) -> AuthResult:
        ok = isinstance(auth_data, LoginPassword) and self.login is not None and \
            (auth_data.login.decode(), auth_data.password.decode()) == self.login
        return AuthResult(success=ok, handled=False)  # the server answers 535 itself

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.answers:
            answer = self.answers.pop(0)
            self.refused.append(answer)
            return answer
        parsed = message_from_bytes(envelope.original_content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self._cond:
            self.messages.append(Received(envelope.mail_from, list(envelope.rcpt_tos), parsed))
            self._cond.notify_all()
        return "250 2.0.0 Message accepted"

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        """The first `count` messages, once they have arrived."""
        with self._cond:
            self._cond.wait_for(lambda: len(self.messages) >= count, timeout)
        assert len(self.messages) >= count, self.messages
        return self.messages[:count]
