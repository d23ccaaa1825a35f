"""`flask --app wsgi ...` commands (webapp/cli.py) and `flask db upgrade`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from flask import Flask

from tests.conftest import Api, base_overrides
from webapp import create_app

KEY = re.compile(r"svc_(test|live)_[0-9A-Za-z]{32}")


@pytest.fixture
def run(app: Flask) -> Any:
    runner = app.test_cli_runner()

    def invoke(*args: str) -> Result:
        return runner.invoke(args=list(args))

    return invoke


def ok(result: Result) -> str:
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def failed(result: Result) -> str:
    assert result.exit_code != 0, result.output
    assert not isinstance(result.exception, (AssertionError, RuntimeError, TypeError)), (
        result.exception)
    return result.output


def me(app: Flask, key: str) -> Any:
    return Api(app.test_client(), key).get("/v1/me")


# ---- org create -----------------------------------------------------------------------------

def test_org_create_prints_keys_and_login(app: Flask, run: Any) -> None:
    out = json.loads(ok(run("org", "create", "--name", "Cli Co", "--email", "Owner@Cli.test",
                            "--password", "a long password", "--json")))
    assert list(out) == ["organizationId", "keys", "dashboard"]
    assert out["organizationId"].startswith("org_")
    assert list(out["keys"]) == ["test", "live"]
    assert KEY.fullmatch(out["keys"]["test"]) and out["keys"]["test"].startswith("svc_test_")
    assert KEY.fullmatch(out["keys"]["live"]) and out["keys"]["live"].startswith("svc_live_")
    assert out["dashboard"] == {"email": "owner@cli.test", "password": "a long password"}

    for environment in ("test", "live"):
        response = me(app, out["keys"][environment])
        assert response.status_code == 200
        assert response.get_json() == {"organizationId": out["organizationId"],
                                       "environment": environment, "permissions": None}

    from webapp.services.accounts import organizations

    with app.app_context():
        assert organizations.get(out["organizationId"]).name == "Cli Co"
        user = organizations.check_login("owner@cli.test", "a long password")
        assert user is not None


def test_org_create_generates_a_login(app: Flask, run: Any) -> None:
    out = json.loads(ok(run("org", "create", "--name", "Generated", "--json")))
    assert set(out) == {"organizationId", "keys", "dashboard"}
    email, password = out["dashboard"]["email"], out["dashboard"]["password"]
    assert re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", email)
    assert isinstance(password, str) and len(password) >= 8
    assert me(app, out["keys"]["test"]).status_code == 200

    from webapp.services.accounts import organizations

    with app.app_context():
        assert organizations.check_login(email, password) is not None
    second = json.loads(ok(run("org", "create", "--name", "Generated", "--json")))
    assert second["dashboard"]["email"] != email
    assert second["organizationId"] != out["organizationId"]


def test_org_create_without_json_is_human_readable(app: Flask, run: Any) -> None:
    out = ok(run("org", "create", "--name", "Plain", "--email", "plain@cli.test",
                 "--password", "a long password"))
    assert "plain@cli.test" in out
    keys = [m.group(0) for m in KEY.finditer(out)]
    assert len(keys) == 2
    assert {me(app, key).get_json()["environment"] for key in keys} == {"test", "live"}


def test_org_create_with_a_taken_email_fails(app: Flask, run: Any) -> None:
    ok(run("org", "create", "--name", "First", "--email", "same@cli.test", "--json"))
    out = failed(run("org", "create", "--name", "Second", "--email", "SAME@cli.test", "--json"))
    assert "Error: A user with this email exists already." in out
    assert "svc_" not in out

    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import Organization

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Organization)) == 1


@pytest.mark.parametrize(("args", "message"), [
    (["--name", " "], "name must be 1 to 100 characters."),
    (["--name", "x" * 101], "name must be 1 to 100 characters."),
    (["--name", "X", "--email", "not-an-email"], "email is not a valid address."),
    (["--name", "X", "--password", "short"], "password must be at least 8 characters."),
])
def test_org_create_rejects_bad_input(run: Any, args: list[str], message: str) -> None:
    assert f"Error: {message}" in failed(run("org", "create", *args, "--json"))


def test_org_create_needs_a_name(run: Any) -> None:
    result = run("org", "create", "--json")
    assert result.exit_code == 2
    assert "--name" in result.output


# ---- keys -----------------------------------------------------------------------------------

def test_keys_create_prints_a_working_key(app: Flask, run: Any, org: dict) -> None:
    out = json.loads(ok(run("keys", "create", "--org", org["id"], "--environment", "live",
                            "--name", "Deploy", "--json")))
    assert list(out) == ["id", "environment", "name", "permissions", "key"]
    assert out["permissions"] is None  # full access
    assert out["id"].startswith("key_")
    assert out["environment"] == "live" and out["name"] == "Deploy"
    assert KEY.fullmatch(out["key"]) and out["key"].startswith("svc_live_")
    assert out["key"] not in org["keys"].values()
    assert me(app, out["key"]).get_json() == {"organizationId": org["id"], "environment": "live",
                                              "permissions": None}

    test_key = json.loads(ok(run("keys", "create", "--org", org["id"], "--environment", "test",
                                 "--json")))
    assert test_key["key"].startswith("svc_test_") and test_key["name"] == "Secret key"
    assert me(app, test_key["key"]).get_json()["environment"] == "test"


def test_keys_create_without_json(app: Flask, run: Any, org: dict) -> None:
    out = ok(run("keys", "create", "--org", org["id"], "--environment", "test"))
    key = KEY.search(out)
    assert key is not None and "key_" in out
    assert me(app, key.group(0)).status_code == 200


def test_keys_create_for_an_unknown_org_fails(run: Any) -> None:
    out = failed(run("keys", "create", "--org", "org_doesnotexist", "--environment", "live",
                     "--json"))
    assert "Error: No organization org_doesnotexist." in out
    assert "svc_" not in out


@pytest.mark.parametrize("environment", ["prod", "LIVE", ""])
def test_keys_create_with_a_bad_environment_fails(run: Any, org: dict, environment: str
                                                  ) -> None:
    result = run("keys", "create", "--org", org["id"], "--environment", environment, "--json")
    assert result.exit_code == 2
    assert "--environment" in result.output
    assert "svc_" not in result.output


def test_keys_create_with_a_bad_name_fails(run: Any, org: dict) -> None:
    out = failed(run("keys", "create", "--org", org["id"], "--environment", "test",
                     "--name", "x" * 101))
    assert "Error: name must be 1 to 100 characters." in out


def test_keys_revoke(app: Flask, run: Any, org: dict) -> None:
    created = json.loads(ok(run("keys", "create", "--org", org["id"], "--environment", "live",
                                "--json")))
    assert me(app, created["key"]).status_code == 200
    assert ok(run("keys", "revoke", created["id"])).strip() == f"Revoked {created['id']}."
    response = me(app, created["key"])
    assert response.status_code == 401
    assert response.get_json()["error"] == {"code": "invalid_api_key",
                                            "message": "Invalid API key provided."}
    # Revoking again is harmless; the organization's other keys keep working.
    ok(run("keys", "revoke", created["id"]))
    assert me(app, org["keys"]["live"]).status_code == 200


def test_keys_revoke_a_default_key(app: Flask, run: Any, org: dict) -> None:
    from webapp.services.accounts import api_keys

    with app.app_context():
        key_id = next(k.id for k in api_keys.list_for(org["id"]) if k.environment == "test")
    ok(run("keys", "revoke", key_id))
    assert me(app, org["keys"]["test"]).status_code == 401
    assert me(app, org["keys"]["live"]).status_code == 200


def test_keys_revoke_unknown_fails(run: Any) -> None:
    assert "Error: No API key key_doesnotexist." in failed(run("keys", "revoke",
                                                               "key_doesnotexist"))


# ---- demo init ------------------------------------------------------------------------------

def test_demo_init_prints_keys_once(app: Flask, run: Any) -> None:
    first = ok(run("demo", "init"))
    assert "shown only now" in first
    keys = [m.group(0) for m in KEY.finditer(first)]
    assert [k.split("_")[1] for k in keys] == ["test", "live"]
    assert "demo@example.com" in first
    for key, environment in zip(keys, ("test", "live"), strict=True):
        assert me(app, key).get_json()["environment"] == environment

    second = ok(run("demo", "init"))
    assert "exist" in second
    assert KEY.search(second) is None

    from sqlalchemy import func, select

    from webapp.extensions import db
    from webapp.models import Organization

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Organization)) == 1


def test_demo_init_creates_the_demo_identities_once(app: Flask, run: Any) -> None:
    from sqlalchemy import select

    from webapp.extensions import db
    from webapp.models import DemoIdentity

    ok(run("demo", "init"))
    with app.app_context():
        rows = {r.kind: r.public_data for r in db.session.scalars(select(DemoIdentity))}
    assert set(rows) == {"apple", "google"}
    ok(run("demo", "init"))
    with app.app_context():
        again = {r.kind: r.public_data for r in db.session.scalars(select(DemoIdentity))}
    assert again == rows


def test_demo_init_does_nothing_when_an_organization_exists(run: Any, org: dict) -> None:
    out = ok(run("demo", "init"))
    assert "exist" in out and KEY.search(out) is None


# ---- flask db upgrade -----------------------------------------------------------------------

def test_db_upgrade_builds_an_empty_sqlite_file(tmp_path: Path) -> None:
    from sqlalchemy import inspect

    from webapp.extensions import db

    path = tmp_path / "fresh.sqlite3"
    app = create_app(base_overrides(tmp_path, f"sqlite:///{path}"))
    try:
        runner = app.test_cli_runner()
        result = runner.invoke(args=["db", "upgrade"])
        assert result.exit_code == 0, (result.output, result.exception)
        assert path.exists()
        with app.app_context():
            tables = set(inspect(db.engine).get_table_names())
            expected = {table.name for table in db.metadata.sorted_tables}
            assert expected <= tables, expected - tables
            assert "alembic_version" in tables
            heads = db.session.execute(db.text("SELECT version_num FROM alembic_version")).all()
            assert len(heads) == 1

        again = runner.invoke(args=["db", "upgrade"])  # already at head: nothing to do
        assert again.exit_code == 0, (again.output, again.exception)

        out = json.loads(ok(runner.invoke(args=["org", "create", "--name", "Fresh", "--json"])))
        assert me(app, out["keys"]["test"]).status_code == 200
    finally:
        with app.app_context():
            db.engine.dispose()


# ---- credentials -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pki() -> Any:
    from tests.support import pki as test_pki

    return test_pki.make()


def _org(run: Any) -> str:
    return json.loads(ok(run("org", "create", "--name", "Cred Co", "--json")))["organizationId"]


def test_credentials_add_apple_from_p12_and_list(app: Flask, run: Any, pki: Any,
                                                 tmp_path: Path) -> None:
    from tests.support import pki as test_pki

    org_id = _org(run)
    p12 = tmp_path / "pass.p12"
    p12.write_bytes(pki.p12)
    out = json.loads(ok(run("credentials", "add-apple", "--org", org_id, "--p12", str(p12),
                            "--password", "secret", "--json")))
    assert out["id"].startswith("cert_")
    assert out["passTypeIdentifier"] == test_pki.PASS_TYPE
    assert out["teamIdentifier"] == test_pki.TEAM
    listed = json.loads(ok(run("credentials", "list", "--org", org_id, "--json")))
    assert [c["id"] for c in listed["data"]] == [out["id"]]
    text = ok(run("credentials", "list", "--org", org_id))
    assert "PRIVATE KEY" not in text and "secret" not in text


def test_credentials_add_apple_from_pem_with_wwdr(app: Flask, run: Any, pki: Any,
                                                  tmp_path: Path) -> None:
    org_id = _org(run)
    for name, data in (("c.pem", pki.cert_pem), ("k.pem", pki.key_pem), ("w.pem", pki.wwdr_pem)):
        (tmp_path / name).write_bytes(data)
    out = json.loads(ok(run("credentials", "add-apple", "--org", org_id, "--cert",
                            str(tmp_path / "c.pem"), "--key", str(tmp_path / "k.pem"),
                            "--wwdr", str(tmp_path / "w.pem"), "--json")))
    assert out["type"] == "apple_certificate"


def test_credentials_add_apple_wrong_password_fails_cleanly(app: Flask, run: Any, pki: Any,
                                                            tmp_path: Path) -> None:
    org_id = _org(run)
    p12 = tmp_path / "pass.p12"
    p12.write_bytes(pki.p12)
    out = failed(run("credentials", "add-apple", "--org", org_id, "--p12", str(p12),
                     "--password", "wrong", "--json"))
    assert "password" in out.lower()
    assert json.loads(ok(run("credentials", "list", "--org", org_id, "--json")))["data"] == []


def test_credentials_add_apple_needs_one_source(app: Flask, run: Any) -> None:
    out = failed(run("credentials", "add-apple", "--org", _org(run), "--json"))
    assert "--p12" in out


def test_credentials_add_google_and_list(app: Flask, run: Any, tmp_path: Path) -> None:
    from webapp.wallets.google import service_account

    org_id = _org(run)
    sa = tmp_path / "sa.json"
    sa.write_text(json.dumps(service_account.make_demo("https://oauth2.googleapis.com/token")))
    out = json.loads(ok(run("credentials", "add-google", "--org", org_id, "--issuer-id",
                            "3388000000012345678", "--service-account", str(sa), "--json")))
    assert out["issuerId"] == "3388000000012345678"
    assert out["type"] == "google_issuer"
    listed = json.loads(ok(run("credentials", "list", "--org", org_id, "--json")))
    assert [c["issuerId"] for c in listed["data"]] == ["3388000000012345678"]
    assert "private_key" not in json.dumps(listed)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    failed(run("credentials", "add-google", "--org", org_id, "--issuer-id", "3388000000099",
               "--service-account", str(bad)))
    failed(run("credentials", "add-google", "--org", org_id, "--issuer-id", "abc",
               "--service-account", str(sa)))


# ---- keys create: restricted keys -----------------------------------------------------------

NO_ACCESS = dict.fromkeys(("templates", "assets", "passes", "download_links", "webhooks",
                           "events", "redemptions", "bulk_jobs", "insights"), "none")


def test_keys_create_with_permissions(app: Flask, run: Any, org: dict) -> None:
    out = json.loads(ok(run("keys", "create", "--org", org["id"], "--environment", "live",
                            "--name", "Shop", "--permissions", "passes=write,templates=read",
                            "--json")))
    levels = {**NO_ACCESS, "passes": "write", "templates": "read"}
    assert out["permissions"] == levels
    assert me(app, out["key"]).get_json()["permissions"] == levels
    client = Api(app.test_client(), out["key"])
    assert client.get("/v1/templates").status_code == 200
    refused = client.get("/v1/events")
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "insufficient_scope"


@pytest.mark.parametrize(("preset", "words"), [
    ("read_only", "Read only"), ("issue_passes", "Issue passes"), ("full_access", "Full access"),
])
def test_keys_create_with_a_preset(app: Flask, run: Any, org: dict, preset: str,
                                   words: str) -> None:
    out = ok(run("keys", "create", "--org", org["id"], "--environment", "test",
                 "--preset", preset))
    assert re.fullmatch(rf"key_[0-9a-z]+ \(test, {words}\): svc_test_[0-9A-Za-z]{{32}}\n", out)
    from webapp.domain import permissions

    reported = me(app, KEY.search(out).group(0)).get_json()["permissions"]
    assert reported == permissions.preset(preset).permissions


@pytest.mark.parametrize(("args", "message"), [
    (("--permissions", "passes=admin"),
     "Invalid value for --permissions: Unknown level 'admin' for passes: use none, read or "
     "write."),
    (("--permissions", "coupons=read"),
     "Invalid value for --permissions: Unknown resource 'coupons' in permissions"),
    (("--permissions", "passes"),
     "Invalid value for --permissions: Write permissions as resource=level pairs"),
    (("--preset", "admin"), "Invalid value for '--preset': 'admin' is not one of 'full_access', "
                            "'read_only', 'issue_passes'."),
    (("--preset", "read_only", "--permissions", "passes=read"),
     "Give --preset or --permissions, not both."),
])
def test_keys_create_with_bad_permissions_fails(app: Flask, run: Any, org: dict,
                                                args: tuple[str, ...], message: str) -> None:
    result = run("keys", "create", "--org", org["id"], "--environment", "test", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "svc_" not in result.output
    from webapp.services.accounts import api_keys

    with app.app_context():
        assert len(api_keys.list_for(org["id"])) == 2


# ---- passes send ----------------------------------------------------------------------------

def test_passes_send_emails_the_pass(app: Flask, run: Any, org: dict) -> None:
    from tests.api.factories import template_body
    from tests.support.smtp import Mailbox

    box = Mailbox().start()
    try:
        app.config.update(SMTP_URL=box.url(), EMAIL_FROM="passes@acme.test",
                          JOBS_SYNCHRONOUS=True)
        api = Api(app.test_client(), org["keys"]["test"])
        template = api.post("/v1/templates", template_body()).get_json()
        issued = api.post("/v1/passes", {"templateId": template["id"],
                                         "holderEmail": "ada@example.com",
                                         "fieldValues": {"member": "Ada"}}).get_json()
        out = json.loads(ok(run("passes", "send", issued["id"], "--org", org["id"],
                                "--environment", "test", "--locale", "de", "--json")))
        assert out["to"] == "ada@example.com" and out["locale"] == "de"
        assert out["id"].startswith("eml_") and out["passId"] == issued["id"]
        [received] = box.wait_for(1)
        assert received.rcpt_tos == ["ada@example.com"]
        assert issued["shortId"] in received.message.get_body(("plain",)).get_content()
        email = api.get(f"/v1/passes/{issued['id']}").get_json()["lastEmail"]
        assert email["id"] == out["id"] and email["status"] == "sent"
        # Another environment's or organization's pass is not found; a bad address is refused.
        assert f"No such pass: {issued['id']}" in failed(run(
            "passes", "send", issued["id"], "--org", org["id"], "--environment", "live"))
        assert "to is not an email address" in failed(run(
            "passes", "send", issued["id"], "--org", org["id"], "--environment", "test",
            "--to", "nobody"))
    finally:
        box.stop()
