"""Apple Wallet state: devices registered for a pass's updates, each pass's update tag and
Last-Modified, and the counter the tags are drawn from."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.models.base import Model, UTCDateTime, now


class AppleRegistration(Model):
    """A device (by its library ID) registered for push updates of one pass."""

    __tablename__ = "apple_registrations"
    __table_args__ = (
        UniqueConstraint("device_library_id", "pass_id"),
        Index("ix_apple_registrations_pass_id", "pass_id"),
        Index("ix_apple_registrations_device", "device_library_id", "pass_type_identifier"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pass_id: Mapped[str] = mapped_column(ForeignKey("passes.id", ondelete="CASCADE"))
    organization_id: Mapped[str] = mapped_column(String(40))
    environment: Mapped[str] = mapped_column(String(4))
    device_library_id: Mapped[str] = mapped_column(String(128))
    pass_type_identifier: Mapped[str] = mapped_column(String(255))
    push_token: Mapped[str] = mapped_column(Text)  # not capped: Apple does not promise a size
    # The pass version APNs last accepted a push of for this device (retries skip it).
    pushed_version: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class ApplePassState(Model):
    """What wallets last saw of a pass: the version, its update tag and Last-Modified."""

    __tablename__ = "apple_pass_states"
    __table_args__ = (Index("ix_apple_pass_states_tag", "tag"),)

    pass_id: Mapped[str] = mapped_column(
        ForeignKey("passes.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    # Drawn from AppleCounter under its row lock: tags commit in the order they are drawn.
    tag: Mapped[int] = mapped_column(BigInteger, default=0)
    last_modified: Mapped[datetime] = mapped_column(UTCDateTime)  # whole seconds, rising
    fetched_version: Mapped[int] = mapped_column(Integer, default=0)  # newest a device got
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)


class AppleCounter(Model):
    """A named counter (`tag`): the source of the web service's `lastUpdated` tags."""

    __tablename__ = "apple_counters"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger, default=0)
