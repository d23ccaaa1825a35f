"""Column types and mixins shared by the tables."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlalchemy import JSON, DateTime
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from webapp import clock
from webapp.extensions import db

if TYPE_CHECKING:
    from flask_sqlalchemy.model import Model as _FlaskModel

    from webapp.extensions import Base

    class Model(_FlaskModel, Base):
        """What `db.Model` is made of: Flask-SQLAlchemy builds it at run time from `Base`."""

        __abstract__ = True
else:
    Model = db.Model


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in Python; naive UTC in SQLite, `timestamptz` in PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect
                             ) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# JSON documents: JSONB on PostgreSQL (indexable, compact), JSON text on SQLite.
JSONType = JSON().with_variant(JSONB(), "postgresql")


def now() -> datetime:
    return clock.now()
