"""The installation's encryption key check: a token sealed with `ENCRYPTION_KEYS` when the
first node starts, which every later node must be able to open.

A node whose keys cannot open it would fail on the first secret it reads (a certificate's
key, a webhook secret, a stored answer), long after it started and only for some requests;
it refuses to start instead, saying why.
"""

from __future__ import annotations

from cryptography.fernet import InvalidToken
from sqlalchemy import inspect, select
from sqlalchemy.exc import IntegrityError

from webapp import vault
from webapp.db.transaction import end_read, transaction
from webapp.extensions import db
from webapp.models import InstallationValue

CHECK = "encryption_check"
_PLAIN = b"pass-service installation"


def keys_problem() -> str | None:
    """None when this node's `ENCRYPTION_KEYS` open the installation's check (sealing it on
    the first start), else why not. Nothing to check before the tables exist."""
    if not inspect(db.engine).has_table(InstallationValue.__tablename__):
        return None
    sealed = db.session.scalar(select(InstallationValue.value).where(
        InstallationValue.name == CHECK))
    end_read()
    if sealed is None:
        try:
            with transaction() as session:
                session.add(InstallationValue(name=CHECK, value=vault.encrypt(_PLAIN)))
            return None
        except IntegrityError:  # another node sealed it at the same moment
            return keys_problem()
    try:
        opened = vault.decrypt(sealed)
    except InvalidToken:
        opened = None
    if opened == _PLAIN:
        return None
    return ("ENCRYPTION_KEYS cannot read this database's secrets: they were sealed with "
            "another key. Every node of an installation needs the same ENCRYPTION_KEYS (and "
            "SECRET_KEY); after a rotation keep the old key after the new one.")
