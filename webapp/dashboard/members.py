"""Members: everyone sees who is in the organization; owners add and remove people and give
them a role (a scanner reaches only the scanner page: see `dashboard._guard`)."""

from __future__ import annotations

from flask import Response, g, request

from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.dashboard.once import once_per_form
from webapp.errors import Conflict, InvalidRequest
from webapp.services.accounts import members

nav.add("Members", "dashboard.members_index", 50)


def _page(status: int = 200, **extra: object) -> Response:
    return render("dashboard/members/index.html", "dashboard/members/_panel.html", status,
                  members=members.list_(ctx()), is_owner=g.membership.role == "owner",
                  roles=members.ROLES, **extra)


@bp.get(f"/{ENV}/members")
def members_index() -> Response:
    return _page()


@bp.post(f"/{ENV}/members")
@once_per_form
def members_add() -> Response:
    email = request.form.get("email", "")
    try:
        added = members.add(ctx(), email, request.form.get("password", ""),
                            request.form.get("role", "member"))
    except (InvalidRequest, Conflict) as exc:
        return _page(422, errors={exc.param or "email": exc.message},
                     form={"email": email, "role": request.form.get("role", "member")})
    note = " They sign in with the password they already have." if added.existing_user else ""
    return _page(201, flash=f"{added.member.email} was added.{note}")


@bp.post(f"/{ENV}/members/<membership_id>/remove")
def members_remove(membership_id: str) -> Response:
    try:
        members.remove(ctx(), membership_id)
    except Conflict as exc:
        return _page(409, flash_error=exc.message)
    return _page(200, flash="The member was removed.")


@bp.post(f"/{ENV}/members/<membership_id>/role")
def members_role(membership_id: str) -> Response:
    """Give a member another role (owners only)."""
    try:
        changed = members.set_role(ctx(), membership_id, request.form.get("role", ""))
    except (InvalidRequest, Conflict) as exc:
        return _page(409 if isinstance(exc, Conflict) else 422, flash_error=exc.message)
    return _page(200, flash=f"{changed.email} is now {changed.role}.")
