"""Members: everyone sees who is in the organization; owners invite people (the link goes by
email, else to the owner to pass on; the answer is the same whether or not the address has an
account), withdraw invitations, remove members and give them a role (a scanner reaches only
the scanner page: see `dashboard._guard`)."""

from __future__ import annotations

from flask import Response, current_app, g, request, url_for

from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.dashboard.once import once_per_form
from webapp.errors import Conflict, InvalidRequest, NotFound
from webapp.services.accounts import invitations, members

nav.add("Members", "dashboard.members_index", 50)


def _page(status: int = 200, **extra: object) -> Response:
    is_owner = g.membership.role == "owner"
    return render("dashboard/members/index.html", "dashboard/members/_panel.html", status,
                  members=members.list_(ctx()), is_owner=is_owner, roles=members.ROLES,
                  invitations=invitations.list_open(ctx()) if is_owner else [], **extra)


@bp.get(f"/{ENV}/members")
def members_index() -> Response:
    return _page()


@bp.post(f"/{ENV}/members")
@once_per_form
def members_add() -> Response:
    """Invite an address: the same answer whether or not it has an account."""
    email, role = request.form.get("email", ""), request.form.get("role", "member")
    try:
        invited = invitations.invite(ctx(), email, role)
    except (InvalidRequest, Conflict) as exc:
        return _page(422, errors={exc.param or "email": exc.message},
                     form={"email": email, "role": role})
    link = None if invited.token is None else \
        current_app.config["BASE_URL"] + url_for("dashboard.invitation", token=invited.token)
    return _page(201, invited=invited, invitation_link=link)


@bp.post(f"/{ENV}/invitations/<invitation_id>/withdraw")
def invitations_withdraw(invitation_id: str) -> Response:
    try:
        invitations.withdraw(ctx(), invitation_id)
    except NotFound as exc:
        return _page(404, flash_error=exc.message)
    return _page(200, flash="The invitation was withdrawn: its link no longer works.")


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
