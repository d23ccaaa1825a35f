"""Flask extensions, created unbound here and bound in `create_app()`."""

from __future__ import annotations

from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# expire_on_commit=False: a service commits, then the front door dumps what it returned
# without a second round trip per object.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
login_manager = LoginManager()
# CSRF is checked only where a door opts in (the dashboard's before_request): /v1 and the
# wallet web services authenticate by bearer tokens and never carry a CSRF token.
csrf = CSRFProtect()

# Keyed per organization and environment for /v1, per client IP for public pages; the
# key functions and limits are attached where the routes are (decisions.md section 4).
from flask_limiter import Limiter  # noqa: E402
from flask_limiter.util import get_remote_address  # noqa: E402

limiter = Limiter(key_func=get_remote_address)
