"""A member added straight to an organization (tests that need one without the invitation)."""

from __future__ import annotations

from flask import Flask

PASSWORD = "correct horse battery"


def add_member(app: Flask, organization_id: str, email: str, role: str = "member") -> str:
    """Make `email` (a new or an existing user) a member; the membership's ID."""
    from sqlalchemy import select

    from webapp import ids
    from webapp.db.transaction import transaction
    from webapp.models import Membership, User
    from webapp.services.accounts import passwords

    with app.app_context(), transaction() as session:
        user = session.scalar(select(User).where(User.email == email))
        if user is None:
            user = User(id=ids.new_id("usr"), email=email,
                        password_hash=passwords.hash_password(PASSWORD))
            session.add(user)
            session.flush()
        row = Membership(id=ids.new_id("mem"), user_id=user.id,
                         organization_id=organization_id, role=role)
        session.add(row)
        session.flush()
        return row.id
