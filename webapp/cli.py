"""`flask --app wsgi ...` commands: thin wrappers over the same services as the API.

The groups are `AppGroup`s, so every command runs in an application context however it is
invoked (`flask` pushes one itself; `app.cli` and `app.test_cli_runner()` do not).
"""

from __future__ import annotations

import json
from typing import BinaryIO, NoReturn

import click
from flask import Flask
from flask.cli import AppGroup

from webapp import clock
from webapp.domain import permissions as access
from webapp.errors import ServiceError
from webapp.services.accounts import api_keys, organizations
from webapp.services.context import Context
from webapp.services.credentials import identities
from webapp.services.email import sending, wire


def _fail(exc: ServiceError) -> NoReturn:
    raise click.ClickException(exc.message)


@click.group("org", cls=AppGroup)
def org_group() -> None:
    """Organizations."""


@org_group.command("create")
@click.option("--name", required=True)
@click.option("--email", default=None, help="Dashboard login (generated when left out).")
@click.option("--password", default=None, help="Dashboard password (generated when left out).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def org_create(name: str, email: str | None, password: str | None, as_json: bool) -> None:
    """Create an organization with a test key, a live key and an owner."""
    try:
        created = organizations.create(name, email, password)
    except ServiceError as exc:
        _fail(exc)
    out = {"organizationId": created.organization.id, "keys": created.keys,
           "dashboard": {"email": created.email, "password": created.password}}
    click.echo(json.dumps(out) if as_json else _human(out))


def _human(out: dict) -> str:
    return (f"Organization {out['organizationId']}\n"
            f"  test key: {out['keys']['test']}\n  live key: {out['keys']['live']}\n"
            f"  dashboard: {out['dashboard']['email']} / {out['dashboard']['password']}")


@click.group("keys", cls=AppGroup)
def keys_group() -> None:
    """API keys."""


@keys_group.command("create")
@click.option("--org", "org_id", required=True)
@click.option("--environment", type=click.Choice(["test", "live"]), required=True)
@click.option("--name", default=None)
@click.option("--preset", type=click.Choice([p.name for p in access.PRESETS]), default=None,
              help="Access by name; full_access when neither this nor --permissions is given.")
@click.option("--permissions", "permission_text", default=None, metavar="RESOURCE=LEVEL,...",
              help="Access per resource, such as passes=write,templates=read (the rest: none). "
                   f"Resources: {', '.join(access.RESOURCES)}; levels: none, read, write.")
@click.option("--json", "as_json", is_flag=True)
def keys_create(org_id: str, environment: str, name: str | None, preset: str | None,
                permission_text: str | None, as_json: bool) -> None:
    """Create an API key; its secret is printed once."""
    if preset is not None and permission_text is not None:
        raise click.UsageError("Give --preset or --permissions, not both.")
    try:
        chosen = (access.parse(permission_text) if permission_text is not None
                  else access.preset(preset or "full_access").permissions)
    except access.InvalidPermissions as exc:
        raise click.BadParameter(exc.message, param_hint="--permissions") from None
    try:
        key, secret = api_keys.create(org_id, environment, name, chosen)
    except ServiceError as exc:
        _fail(exc)
    out = {"id": key.id, "environment": key.environment, "name": key.name,
           "permissions": access.complete(key.permissions), "key": secret}
    click.echo(json.dumps(out) if as_json
               else f"{key.id} ({environment}, {access.describe(key.permissions)}): {secret}")


@keys_group.command("revoke")
@click.argument("key_id")
def keys_revoke(key_id: str) -> None:
    """Revoke an API key."""
    try:
        api_keys.revoke(key_id)
    except ServiceError as exc:
        _fail(exc)
    click.echo(f"Revoked {key_id}.")


@click.group("demo", cls=AppGroup)
def demo_group() -> None:
    """The demo organization of `make run`."""


@demo_group.command("init")
def demo_init() -> None:
    """On first run, create a demo organization and print its keys and login once."""
    if organizations.any_exists():
        click.echo("Organizations exist already; keys were printed when they were created.")
        return
    identities.ensure_demo_identities()
    created = organizations.create("Demo Organization", "demo@example.com")
    out = {"organizationId": created.organization.id, "keys": created.keys,
           "dashboard": {"email": created.email, "password": created.password}}
    click.echo("Demo organization created. These secrets are shown only now:\n" + _human(out))


@click.group("credentials", cls=AppGroup)
def credentials_group() -> None:
    """Live signing credentials: Apple certificates and Google issuers."""


def _apple_out(cert: object) -> dict:
    return {"id": cert.id, "type": "apple_certificate", "name": cert.name,  # type: ignore[attr-defined]
            "passTypeIdentifier": cert.pass_type_identifier,  # type: ignore[attr-defined]
            "teamIdentifier": cert.team_identifier,  # type: ignore[attr-defined]
            "expiresAt": clock.isoformat(cert.expires_at)}  # type: ignore[attr-defined]


def _google_out(issuer: object) -> dict:
    return {"id": issuer.id, "type": "google_issuer", "name": issuer.name,  # type: ignore[attr-defined]
            "issuerId": issuer.issuer_id,  # type: ignore[attr-defined]
            "serviceAccountEmail": issuer.client_email}  # type: ignore[attr-defined]


def _echo(out: dict, as_json: bool) -> None:
    click.echo(json.dumps(out) if as_json else "  ".join(f"{k}: {v}" for k, v in out.items()))


@credentials_group.command("add-apple")
@click.option("--org", "org_id", required=True)
@click.option("--p12", "p12", type=click.File("rb"), default=None, help="Certificate + key.")
@click.option("--password", default=None, help="The .p12's password.")
@click.option("--cert", "cert_pem", type=click.File("rb"), default=None, help="PEM certificate.")
@click.option("--key", "key_pem", type=click.File("rb"), default=None, help="PEM private key.")
@click.option("--wwdr", type=click.File("rb"), default=None,
              help="Apple WWDR intermediate (PEM or DER) when not in the bundle.")
@click.option("--name", default=None)
@click.option("--json", "as_json", is_flag=True)
def credentials_add_apple(org_id: str, p12: BinaryIO | None, password: str | None,
                          cert_pem: BinaryIO | None, key_pem: BinaryIO | None,
                          wwdr: BinaryIO | None, name: str | None, as_json: bool) -> None:
    """Import a Pass Type ID certificate (.p12 + password, or PEM certificate + key)."""
    if (p12 is None) == (cert_pem is None and key_pem is None):
        raise click.UsageError("Give either --p12 (and --password) or --cert and --key.")
    try:
        cert = identities.add_apple(
            org_id, p12=p12.read() if p12 else None, password=password,
            certificate_pem=cert_pem.read() if cert_pem else None,
            key_pem=key_pem.read() if key_pem else None,
            wwdr_pem=wwdr.read() if wwdr else None, name=name)
    except ServiceError as exc:
        _fail(exc)
    _echo(_apple_out(cert), as_json)


@credentials_group.command("add-google")
@click.option("--org", "org_id", required=True)
@click.option("--issuer-id", required=True, help="The issuer ID from the Google Pay console.")
@click.option("--service-account", type=click.File("rb"), required=True,
              help="The service account's JSON key file.")
@click.option("--name", default=None)
@click.option("--json", "as_json", is_flag=True)
def credentials_add_google(org_id: str, issuer_id: str, service_account: BinaryIO,
                           name: str | None, as_json: bool) -> None:
    """Add a Google Wallet issuer with its service-account key."""
    try:
        issuer = identities.add_google(org_id, issuer_id, service_account.read(), name)
    except ServiceError as exc:
        _fail(exc)
    _echo(_google_out(issuer), as_json)


@credentials_group.command("list")
@click.option("--org", "org_id", required=True)
@click.option("--json", "as_json", is_flag=True)
def credentials_list(org_id: str, as_json: bool) -> None:
    """List an organization's certificates and issuers (never their secrets)."""
    certs, issuers = identities.list_for(org_id)
    out = [_apple_out(c) for c in certs] + [_google_out(i) for i in issuers]
    if as_json:
        click.echo(json.dumps({"data": out}))
        return
    for item in out:
        _echo(item, False)
    if not out:
        click.echo("No credentials.")


@click.group("passes", cls=AppGroup)
def passes_group() -> None:
    """Passes of an organization."""


@passes_group.command("send")
@click.argument("pass_id")
@click.option("--org", "org_id", required=True)
@click.option("--environment", type=click.Choice(["test", "live"]), required=True)
@click.option("--to", default=None, help="The address (default: the pass's holderEmail).")
@click.option("--locale", type=click.Choice(sending.LANGUAGES), default="en")
@click.option("--json", "as_json", is_flag=True)
def passes_send(pass_id: str, org_id: str, environment: str, to: str | None, locale: str,
                as_json: bool) -> None:
    """Email a pass to its holder (sent by a job, as `POST /v1/passes/<id>/send`)."""
    ctx = Context(organization_id=org_id, environment=environment, actor="cli")
    try:
        email = sending.send(ctx, pass_id, to, locale)
    except ServiceError as exc:
        _fail(exc)
    out = wire.email_object(email)
    click.echo(json.dumps(out) if as_json else f"{email.id}: {email.to_address} (queued)")


def init_app(app: Flask) -> None:
    """Register the command groups."""
    for group in (org_group, keys_group, demo_group, credentials_group, passes_group):
        app.cli.add_command(group)
