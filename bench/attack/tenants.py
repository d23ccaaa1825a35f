"""Part 2: organization A's resources of every type, tried with B's keys, B's dashboard and A's
other environment's key; a leak is a 2xx on them, or A's data in an answer."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from bench.attack.client import Dashboard, call
from bench.attack.report import Row, at_most, note, statuses
from bench.attack.world import new_org, seed_resources, template_body
from bench.server import Server


@dataclass
class Attempt:
    method: str
    path: str
    body: Any = None
    env_scoped: bool = True  # passes, webhooks, events: per environment; templates, assets not
    direct: bool = True  # on A's resource: any 2xx is a leak (a list answers 200, empty)


def api_attempts(ids: dict[str, str], data: dict[str, str]) -> list[Attempt]:
    """Every read and write of the API on A's resources, and the lists that could show them."""
    t, p, we = ids["template_id"], ids["pass_id"], ids["endpoint_id"]
    d = ids["delivery_id"]
    org = [
        Attempt("GET", f"/v1/assets/{ids['asset_id']}", env_scoped=False),
        Attempt("GET", f"/v1/templates/{t}", env_scoped=False),
        Attempt("PATCH", f"/v1/templates/{t}", {"name": "taken over", "expectedRevision": 1},
                env_scoped=False),
        Attempt("DELETE", f"/v1/templates/{t}", env_scoped=False),
        Attempt("POST", f"/v1/templates/{t}/duplicate", {}, env_scoped=False),
        Attempt("POST", f"/v1/templates/{t}/unarchive", {}, env_scoped=False),
        Attempt("POST", "/v1/passes", {"templateId": t, "fieldValues": {"member": "x"}},
                env_scoped=False),
        Attempt("POST", "/v1/templates", template_body("uses A's icon",
                                                       {"icon": ids["asset_id"]}),
                env_scoped=False),
    ]
    env = [
        Attempt("GET", f"/v1/passes/{p}"),
        Attempt("PATCH", f"/v1/passes/{p}", {"fieldValues": {"member": "taken over"}}),
        Attempt("DELETE", f"/v1/passes/{p}"),
        Attempt("POST", f"/v1/passes/{p}/download-links", {}),
        Attempt("GET", f"/v1/passes/{p}/download-links"),
        Attempt("GET", f"/v1/passes/{p}/updates"),
        Attempt("POST", f"/v1/passes/{p}/send", {"to": "thief@example.com"}),
        Attempt("GET", f"/v1/passes/{p}/emails"),
        Attempt("GET", f"/v1/pass-updates/{ids['update_id']}"),
        Attempt("DELETE", f"/v1/download-links/{ids['link_id']}"),
        Attempt("GET", f"/v1/events/{ids['event_id']}"),
        Attempt("GET", f"/v1/webhook-endpoints/{we}"),
        Attempt("PATCH", f"/v1/webhook-endpoints/{we}", {"description": "taken over"}),
        Attempt("POST", f"/v1/webhook-endpoints/{we}/rotate-secret", {}),
        Attempt("GET", f"/v1/webhook-endpoints/{we}/deliveries"),
        Attempt("GET", f"/v1/webhook-endpoints/{we}/deliveries/{d}"),
        Attempt("POST", f"/v1/webhook-endpoints/{we}/deliveries/{d}/resend", {}),
        Attempt("DELETE", f"/v1/webhook-endpoints/{we}"),
    ]
    searches = [f"/v1/passes?search={quote(data[name])}"
                for name in ("holderEmail", "holderName", "member", "shortId")]
    lists = [Attempt("GET", path, direct=False) for path in (
        "/v1/passes", f"/v1/passes?templateId={t}", *searches, "/v1/events",
        "/v1/events?type=pass.created", "/v1/webhook-endpoints")]
    lists.append(Attempt("GET", "/v1/templates", env_scoped=False, direct=False))
    upper = [Attempt(a.method, a.path.replace(i, i.upper()), a.body, a.env_scoped)
             for a in org + env for i in ids.values() if i in a.path]
    return org + env + upper + lists


def dashboard_attempts(ids: dict[str, str], a_org: str) -> list[Attempt]:
    """The dashboard's pages and forms on A's resources, in both environments."""
    t, p, we, d = ids["template_id"], ids["pass_id"], ids["endpoint_id"], ids["delivery_id"]
    attempts = []
    for env in ("test", "live"):
        root = f"/dashboard/{env}"
        attempts += [Attempt("GET", f"{root}/passes/{p}"),
                     Attempt("GET", f"{root}/templates/{t}", env_scoped=False),
                     Attempt("GET", f"{root}/templates/{t}/revisions", env_scoped=False),
                     Attempt("GET", f"{root}/webhooks/{we}"),
                     Attempt("POST", f"{root}/organization", {"organization_id": a_org})]
        attempts += [Attempt("POST", f"{root}/passes/{p}/{action}", {})
                     for action in ("edit", "void", "download-links")]
        attempts += [Attempt("POST", f"{root}/templates/{t}/{action}", {}, env_scoped=False)
                     for action in ("form", "preview", "settings", "archive", "unarchive",
                                    "duplicate")]
        attempts += [Attempt("POST", f"{root}/templates/{t}", {}, env_scoped=False)]
        attempts += [Attempt("POST", f"{root}/webhooks/{we}/{action}", {})
                     for action in ("delete", "rotate", "status", f"deliveries/{d}/resend")]
    # After the attempts to switch to A's organization, B's own pages still show only B's.
    return attempts + [Attempt("GET", f"/dashboard/test/{page}", direct=False)
                       for page in ("passes", "templates", "webhooks")]


def leaked(attempt: Attempt, status: int, body: bytes, markers: list[str]) -> str | None:
    """What the answer gave away: a 2xx (or a dashboard redirect) on A's resource, or A's
    data that the request did not already hold."""
    if attempt.direct and 200 <= status < 400:
        return f"status {status}"
    text = body.decode("utf-8", "replace")
    known = attempt.path + json.dumps(attempt.body)
    shown = [m for m in markers if m in text and m not in known]
    return f"shows {shown[:3]}" if shown else None


def snapshot(port: int, key: str, ids: dict[str, str]) -> dict[str, Any]:
    """What A's own key sees of A's resources (what an attacker's write would change)."""
    def get(path: str) -> Any:
        return call(port, "GET", path, key=key).json()

    template = get(f"/v1/templates/{ids['template_id']}")
    issued = get(f"/v1/passes/{ids['pass_id']}")
    endpoint = get(f"/v1/webhook-endpoints/{ids['endpoint_id']}")
    links = get(f"/v1/passes/{ids['pass_id']}/download-links")
    return {"template": [template.get(k) for k in ("name", "revision", "archived")],
            "pass": [issued.get(k) for k in ("status", "holderName", "fieldValues")],
            "endpoint": [endpoint.get(k) for k in ("url", "description", "enabledEvents")],
            "links": [(link["id"], link.get("revokedAt")) for link in links.get("data", [])],
            "templates": len(get("/v1/templates?limit=100")["data"])}


def tenants(server: Server) -> list[Row]:
    """A's resources of every type, tried with B's keys, B's dashboard and A's live key."""
    a, b = new_org(server, "Tenant A"), new_org(server, "Tenant B")
    port, a_test = server.port, a["keys"]["test"]
    ids, data = seed_resources(port, a_test, "tenant-a")
    seed_resources(port, b["keys"]["test"], "tenant-b")  # B's lists are not empty
    org_markers = [ids["template_id"], ids["asset_id"], data["templateName"]]
    env_markers = [v for k, v in ids.items() if k not in ("template_id", "asset_id")] + [
        v for k, v in data.items() if k != "templateName"]
    before = snapshot(port, a_test, ids)
    api, pages, leaks = Counter[int](), Counter[int](), 0

    def check(who: str, attempt: Attempt, status: int, body: bytes, markers: list[str]) -> None:
        nonlocal leaks
        found = leaked(attempt, status, body, markers)
        if found:
            leaks += 1
            note("tenants", f"{who} {attempt.method} {attempt.path}: {found}")

    for who, key, other_org in [("B test", b["keys"]["test"], True),
                                ("B live", b["keys"]["live"], True),
                                ("A live", a["keys"]["live"], False)]:
        for attempt in api_attempts(ids, data):
            if other_org or attempt.env_scoped:  # A's test and live share templates, assets
                answer = call(port, attempt.method, attempt.path, key=key, body=attempt.body)
                api[answer.status] += 1
                check(who, attempt, answer.status, answer.body,
                      env_markers + (org_markers if other_org else []))
    browser = Dashboard(port, b["dashboard"]["email"], b["dashboard"]["password"])
    for attempt in dashboard_attempts(ids, a["organizationId"]):
        response = browser.get(attempt.path) if attempt.method == "GET" \
            else browser.post(attempt.path, attempt.body)
        pages[response.status_code] += 1
        check("B's dashboard", attempt, response.status_code, response.content,
              env_markers + org_markers)
    after = snapshot(port, a_test, ids)
    changed = [name for name in before if before[name] != after[name]]
    if changed:
        note("tenants", f"A's resources changed: {changed}: {before} -> {after}")
    part = "2 tenants"
    return [Row(part, "API requests on A's resources (B test, B live, A live)",
                f"{api.total():,} ({statuses(api)})"),
            Row(part, "dashboard requests by B's owner on A's resources",
                f"{pages.total():,} ({statuses(pages)})"),
            at_most(part, "leaks (2xx, or A's IDs or data in the answer)", leaks, 0),
            at_most(part, "A's resources changed by the attempts", len(changed), 0)]
