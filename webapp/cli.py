"""`flask --app wsgi ...` commands: thin wrappers over the same services as the API.

The groups are `AppGroup`s, so every command runs in an application context however it is
invoked (`flask` pushes one itself; `app.cli` and `app.test_cli_runner()` do not).
"""

from __future__ import annotations

import json

import click
from flask import Flask
from flask.cli import AppGroup

from webapp.errors import ServiceError
from webapp.services import api_keys, organizations


def _fail(exc: ServiceError) -> None:
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
@click.option("--json", "as_json", is_flag=True)
def keys_create(org_id: str, environment: str, name: str | None, as_json: bool) -> None:
    """Create an API key; its secret is printed once."""
    try:
        key, secret = api_keys.create(org_id, environment, name)
    except ServiceError as exc:
        _fail(exc)
    out = {"id": key.id, "environment": key.environment, "name": key.name, "key": secret}
    click.echo(json.dumps(out) if as_json else f"{key.id} ({environment}): {secret}")


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
    created = organizations.create("Demo Organization", "demo@example.com")
    out = {"organizationId": created.organization.id, "keys": created.keys,
           "dashboard": {"email": created.email, "password": created.password}}
    click.echo("Demo organization created. These secrets are shown only now:\n" + _human(out))


def init_app(app: Flask) -> None:
    """Register the command groups."""
    for group in (org_group, keys_group, demo_group):
        app.cli.add_command(group)
