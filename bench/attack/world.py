"""What the parts attack: the servers and their databases, organizations, and one resource of
every type."""

from __future__ import annotations

import base64
import contextlib
import json
import uuid
from collections.abc import Iterator
from typing import Any

from bench.attack.client import Answer, call
from bench.server import BIN, ROOT, Server


class Databases:
    """Where each server keeps its data: its own SQLite file, or its own database in one
    throwaway PostgreSQL cluster (tests/support)."""

    def __init__(self, kind: str) -> None:
        self.cluster, self.count = None, 0
        if kind == "postgres":
            from tests.support.services import PostgresCluster

            self.cluster = PostgresCluster()

    def new(self) -> str | None:
        if self.cluster is None:
            return None  # Server makes a SQLite file
        import psycopg

        self.count += 1
        name = f"attack{self.count}"
        with psycopg.connect(self.cluster.url().replace("+psycopg", ""), autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.cluster.url(name)

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()


@contextlib.contextmanager
def serving(databases: Databases, env: dict[str, str]) -> Iterator[Server]:
    server = Server(databases.new(), env=env)
    try:
        yield server
    finally:
        server.stop()


def new_org(server: Server, name: str) -> dict[str, Any]:
    """A new organization with test and live keys and an owner who can sign in."""
    import subprocess

    email = f"owner-{uuid.uuid4().hex[:8]}@attack.example"
    out = subprocess.run(
        [str(BIN / "flask"), "--app", "wsgi", "org", "create", "--name", name, "--email", email,
         "--password", "attack-" + uuid.uuid4().hex, "--json"],
        cwd=ROOT, env=server.env, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out))


def template_body(name: str, images: dict[str, str] | None = None) -> dict[str, Any]:
    from tests.api.factories import template_body as valid

    body = valid(name=name)
    if images:
        body["definition"]["images"] = images
    return body


def created(answer: Answer, what: str) -> dict[str, Any]:
    if answer.status not in (200, 201):
        raise RuntimeError(f"{what}: {answer.status} {answer.body[:300]!r}")
    return dict(answer.json())


def seed_resources(port: int, key: str, label: str) -> tuple[dict[str, str], dict[str, str]]:
    """One resource of every type, made with `key`: their IDs by path-parameter name, and the
    data that would show them (names, email, URL, short ID, link token)."""
    tag = uuid.uuid4().hex[:10]
    icon = base64.b64encode((ROOT / "examples" / "icon.png").read_bytes()).decode()
    asset = created(call(port, "POST", "/v1/assets", key=key,
                         body={"slot": "icon", "data": icon}), "asset")
    data = {"templateName": f"{label} template {tag}", "holderName": f"{label} holder {tag}",
            "holderEmail": f"holder-{tag}@{label}.example", "url": f"https://hooks-{tag}.example/h"}
    template = created(call(port, "POST", "/v1/templates", key=key, body=template_body(
        data["templateName"], {"icon": asset["id"]})), "template")
    endpoint = created(call(port, "POST", "/v1/webhook-endpoints", key=key,
                            body={"url": data["url"]}), "webhook endpoint")
    issued = created(call(port, "POST", "/v1/passes", key=key, body={
        "templateId": template["id"], "holderName": data["holderName"],
        "holderEmail": data["holderEmail"], "fieldValues": {"member": data["holderName"]}}),
        "pass")
    changed = created(call(port, "PATCH", f"/v1/passes/{issued['id']}", key=key,
                           body={"fieldValues": {"member": f"{label} member {tag}"}}), "update")
    link = created(call(port, "POST", f"/v1/passes/{issued['id']}/download-links", key=key,
                        body={}), "download link")
    event = created(call(port, "GET", "/v1/events?limit=1", key=key), "events")["data"][0]
    deliveries = created(call(port, "GET", f"/v1/webhook-endpoints/{endpoint['id']}/deliveries",
                              key=key), "deliveries")["data"]
    ids = {"asset_id": asset["id"], "template_id": template["id"], "pass_id": issued["id"],
           "update_id": changed["update"]["id"], "link_id": link["id"],
           "endpoint_id": endpoint["id"], "event_id": event["id"],
           "delivery_id": deliveries[0]["id"]}
    data |= {"shortId": issued["shortId"], "linkToken": link["url"].rstrip("/").split("/")[-1],
             "member": f"{label} member {tag}", "secret": endpoint["secret"]}
    return ids, data
