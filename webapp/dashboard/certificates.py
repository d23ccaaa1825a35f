"""Live signing credentials: Apple certificates and Google issuers (secrets never shown)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Response, g, request
from werkzeug.datastructures import FileStorage

from webapp import clock
from webapp.dashboard import ENV, bp, ctx, nav
from webapp.dashboard.htmx import render
from webapp.dashboard.once import once_per_form
from webapp.errors import Conflict, InvalidRequest
from webapp.services.credentials import admin, identities

nav.add("Certificates", "dashboard.certificates_index", 40)
WARN_BEFORE = timedelta(days=30)


def _page(status: int = 200, **extra: Any) -> Response:
    certs, issuers = identities.list_for(ctx().organization_id)
    now = clock.now()
    return render("dashboard/certificates/index.html", "dashboard/certificates/_panel.html",
                  status, certs=certs, issuers=issuers, in_use=admin.
                  active_passes_using(ctx()), soon=now + WARN_BEFORE, now=now, **extra)


@bp.app_template_global()
def live_setup_needed() -> bool:
    """Whether this is a Live page of an organization with no working live credential (no
    certificate that has not expired, no Google issuer): no live pass can be issued yet, and
    Live pages say so, with one next step (see `dashboard/_live_setup.html`)."""
    if g.get("env") != "live" or "ctx" not in g:
        return False
    if "live_setup_needed" not in g:
        certs, issuers = identities.list_for(ctx().organization_id)
        now = clock.now()
        g.live_setup_needed = not issuers and not any(c.expires_at > now for c in certs)
    return bool(g.live_setup_needed)


def _read(name: str) -> bytes | None:
    upload: FileStorage | None = request.files.get(name)
    data = upload.read() if upload is not None else b""
    return data or None


@bp.get(f"/{ENV}/certificates")
def certificates_index() -> Response:
    return _page()


@bp.post(f"/{ENV}/certificates/apple")
@once_per_form
def certificates_add_apple() -> Response:
    """One of two forms: a .p12 (`kind=p12`) or a PEM certificate and key (`kind=pem`)."""
    kind = "pem" if request.form.get("kind") == "pem" else "p12"
    files = {name: _read(name) for name in ("p12", "certificate", "key", "wwdr")}
    missing = _missing(kind, files)
    try:
        if missing:
            raise InvalidRequest(missing)
        cert = identities.add_apple(
            ctx().organization_id, p12=files["p12"] if kind == "p12" else None,
            password=request.form.get("password") or None,
            certificate_pem=files["certificate"] if kind == "pem" else None,
            key_pem=files["key"] if kind == "pem" else None, wwdr_pem=files["wwdr"],
            name=request.form.get("name", "").strip() or None)
    except InvalidRequest as exc:
        return _page(422, apple_error=exc.message + _der_hint(exc, files), apple_kind=kind,
                     apple_name=request.form.get("name", ""))
    return _page(201, flash=f"Certificate for {cert.pass_type_identifier} added.")


def _missing(kind: str, files: dict[str, bytes | None]) -> str | None:
    """What the chosen form still needs, in its own words."""
    if kind == "p12" and not files["p12"]:
        return "Choose the .p12 file."
    if kind == "pem" and not (files["certificate"] and files["key"]):
        return "Choose both PEM files: the certificate and its private key."
    return None


def _der_hint(exc: InvalidRequest, files: dict[str, bytes | None]) -> str:
    """Apple hands out .cer files in binary (DER) form; say how to make PEM of one."""
    pem_files = [files["certificate"], files["wwdr"]]
    if exc.code == "unreadable_certificate" and any(
            data and b"-----BEGIN" not in data for data in pem_files):
        return (" A .cer downloaded from Apple is binary (DER): convert it with "
                "openssl x509 -inform der -in pass.cer -out pass.pem")
    return ""


@bp.post(f"/{ENV}/certificates/google")
@once_per_form
def certificates_add_google() -> Response:
    issuer_id = request.form.get("issuer_id", "").strip()
    key = _read("service_account") or request.form.get("service_account_text", "").encode()
    try:
        issuer = identities.add_google(ctx().organization_id, issuer_id, key,
                                       name=request.form.get("name", "").strip() or None)
    except (InvalidRequest, Conflict) as exc:
        field = "issuer_id" if exc.param in (None, "issuerId") or "ssuer" in exc.message \
            else "service_account"
        return _page(422, google_errors={field: exc.message}, issuer_form={
            "issuer_id": issuer_id, "name": request.form.get("name", "")})
    return _page(201, flash=f"Google issuer {issuer.issuer_id} added. Check its access next.")


@bp.post(f"/{ENV}/certificates/apple/<certificate_id>/delete")
def certificates_delete_apple(certificate_id: str) -> Response:
    admin.delete_certificate(ctx(), certificate_id)
    return _page(flash="The certificate and its private key were deleted.")


@bp.post(f"/{ENV}/certificates/google/<issuer_row_id>/delete")
def certificates_delete_google(issuer_row_id: str) -> Response:
    admin.delete_issuer(ctx(), issuer_row_id)
    return _page(flash="The Google issuer and its service-account key were deleted.")


@bp.post(f"/{ENV}/certificates/google/<issuer_row_id>/check")
def certificates_check_google(issuer_row_id: str) -> Response:
    result = admin.check_issuer_access(ctx(), issuer_row_id)
    return _page(checked={issuer_row_id: result})
