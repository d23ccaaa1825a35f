"""What an operator of several machines worries about, played on a `Cluster`, with the
figures it came to: the two-node test asserts on them, `bench/several_machines.py` prints them.
"""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
from redis import Redis

from tests.support.cluster import Cluster, organization, wait
from tests.support.receiver import Receiver, Tarpit


@dataclass
class Outage:
    statuses: Counter[int]  # every answer during the load, by status
    deliveries: list[tuple[str, str, int]]  # (event:endpoint, status, attempts)
    sent: Counter[str]  # webhook-id -> times the receiver got it
    ready_while_down: list[httpx.Response]  # each node's GET /readyz once Redis stopped


def redis_outage(nodes: Cluster, http: httpx.Client, key: str, down_for: float = 3,
                 passes: int = 12) -> Outage:
    """Four clients issue, change and fetch passes (holder page, .pkpass) on the nodes in
    turn; Redis stops once a few passes are out, for `down_for` seconds and as many
    requests, and the load goes on until `passes` passes are out; then every webhook event of
    the load is waited for."""
    receiver = Receiver().start()
    try:
        hook = nodes.api(http, key, "POST", "/webhook-endpoints",
                         {"url": receiver.url, "enabledEvents": ["pass.created",
                                                                 "pass.updated"]})
        assert hook.status_code == 201, hook.text
        template = nodes.template(http, key)
        statuses: Counter[int] = Counter()
        lock, done = threading.Lock(), threading.Event()

        def load() -> None:
            with httpx.Client(timeout=30) as own:
                while not done.is_set():
                    made = nodes.api(own, key, "POST", "/passes",
                                     {"templateId": template, "fieldValues": {"member": "A"}})
                    answers = [made.status_code]
                    if made.status_code == 201:
                        item = made.json()
                        answers += [
                            nodes.api(own, key, "PATCH", f"/passes/{item['id']}",
                                      {"fieldValues": {"member": "B"}}).status_code,
                            own.get(nodes.url(f"/p/{item['shortId']}")).status_code,
                            own.get(nodes.url(f"/p/{item['shortId']}/apple.pkpass")
                                    ).status_code]
                    with lock:
                        statuses.update(answers)

        def answered() -> int:
            with lock:
                return sum(statuses.values())

        threads = [threading.Thread(target=load) for _ in range(4)]
        for thread in threads:
            thread.start()
        try:
            wait(lambda: statuses[201] >= 2, timeout=120, every=0.05)
            nodes.redis.stop()
            during = answered()
            ready_while_down = [httpx.get(f"{node.base}/readyz", timeout=10)
                                for node in nodes.nodes]
            time.sleep(down_for)
            wait(lambda: answered() >= during + 12, timeout=120, every=0.05)  # served while down
            nodes.redis.start()
            wait(lambda: statuses[201] >= passes, timeout=300, every=0.05)
        finally:
            done.set()
            for thread in threads:
                thread.join(60)
        endpoint = hook.json()["id"]

        def mine() -> list[tuple[str, str, int]]:
            return [d for d in nodes.deliveries() if d[0].endswith(f":{endpoint}")]

        expected = 2 * statuses[201]  # a created and an updated event per pass
        wait(lambda: len(mine()) == expected and {s for _, s, _ in mine()} == {"succeeded"},
             timeout=120)
        time.sleep(1)  # a copy sent twice would arrive by now
        return Outage(statuses, mine(),
                      Counter(r.headers["webhook-id"] for r in receiver.requests),
                      ready_while_down)
    finally:
        receiver.stop()


@dataclass
class FairBulk:
    seconds: float  # until the other organization's 1-item job completed
    busy_states: list[dict[str, Any]]  # the busy organization's jobs at that moment


def fair_bulk(nodes: Cluster, http: httpx.Client) -> FairBulk:
    """One organization posts four 10,000-item jobs; another, a 1-item job once the first
    big one runs."""
    busy, other = organization(nodes, "Busy Co"), organization(nodes, "Other Co")
    busy_key, other_key = busy["keys"]["test"], other["keys"]["test"]
    template = nodes.template(http, busy_key)
    big = [nodes.bulk_issue(http, busy_key, template, 10_000) for _ in range(4)]
    wait(lambda: nodes.job(http, busy_key, big[0])["counts"]["succeeded"] > 0, every=0.05)
    started = time.monotonic()
    small = nodes.bulk_issue(http, other_key, nodes.template(http, other_key), 1)
    wait(lambda: nodes.job(http, other_key, small)["status"] == "completed", timeout=60,
         every=0.05)
    seconds = time.monotonic() - started
    states = [nodes.job(http, busy_key, job) for job in big]
    for job in big:
        nodes.api(http, busy_key, "POST", f"/bulk-jobs/{job}/cancel")
    return FairBulk(seconds, states)


@dataclass
class BesideTarpit:
    pending: int  # the tarpit endpoint's deliveries waiting meanwhile
    push: float  # seconds from the request until it arrived
    email: float
    webhook: float


def beside_tarpit(nodes: Cluster, http: httpx.Client, apns: Any, mailbox: Any
                  ) -> BesideTarpit:
    """One organization's endpoint never answers and has 1,000 deliveries pending; another
    organization updates a pass on an iPhone (a push), emails it, and has a webhook."""
    from tests.apple.conftest import DEMO_PASS_TYPE

    slow, other = organization(nodes, "Slow Co"), organization(nodes, "Quick Co")
    slow_key, key = slow["keys"]["test"], other["keys"]["test"]
    tarpit, receiver = Tarpit(), Receiver().start()
    try:
        assert nodes.api(http, slow_key, "POST", "/webhook-endpoints",
                         {"url": tarpit.url, "enabledEvents": ["pass.created"]}
                         ).status_code == 201
        backlog = nodes.bulk_issue(http, slow_key, nodes.template(http, slow_key), 1000)
        wait(lambda: nodes.job(http, slow_key, backlog)["status"] == "completed")
        assert nodes.api(http, key, "POST", "/webhook-endpoints",
                         {"url": receiver.url, "enabledEvents": ["pass.updated"]}
                         ).status_code == 201
        item = nodes.api(http, key, "POST", "/passes", {
            "templateId": nodes.template(http, key), "fieldValues": {"member": "Ada"},
            "holderEmail": other["email"]}).json()  # in test, mail goes to members
        pkpass = http.get(nodes.url(f"/p/{item['shortId']}/apple.pkpass")).content
        token = json.loads(zipfile.ZipFile(io.BytesIO(pkpass)).read("pass.json"))[
            "authenticationToken"]
        registered = http.post(nodes.url(
            f"/wallet/apple/v1/devices/phone-1/registrations/{DEMO_PASS_TYPE}/{item['id']}"),
            json={"pushToken": "f" * 64}, headers={"Authorization": f"ApplePass {token}"})
        assert registered.status_code == 201, registered.text
        pending = sum(1 for d in nodes.deliveries() if d[1] == "pending")

        started = time.monotonic()
        assert nodes.api(http, key, "POST", f"/passes/{item['id']}/send",
                         {"to": other["email"]}).status_code == 202
        assert nodes.api(http, key, "PATCH", f"/passes/{item['id']}",
                         {"fieldValues": {"member": "Bo"}}).status_code == 200
        apns.wait_for(1, timeout=60)
        push = time.monotonic() - started
        mailbox.wait_for(1, timeout=60)
        email = time.monotonic() - started
        receiver.wait_for(1, timeout=60)
        return BesideTarpit(pending, push, email, time.monotonic() - started)
    finally:
        tarpit.stop()
        receiver.stop()


@dataclass
class Backlog:
    endpoints: int  # the distinct pending work: a job per endpoint
    longest: int  # the most jobs the webhooks queue held
    seconds: float  # from the first job posted to the last delivery received
    deliveries: list[tuple[str, str, int]]
    sent: Counter[tuple[str, str]]  # (webhook-id, path) -> times received


def backlog(nodes: Cluster, http: httpx.Client, organizations: int = 4,
            endpoints_each: int = 10, passes_each: int = 250) -> Backlog:
    """Each organization has `endpoints_each` endpoints for pass.created and issues
    `passes_each` passes in a bulk job: 10,000 deliveries by default."""
    receiver = Receiver().start()
    try:
        orgs = [organization(nodes, f"Backlog {n}") for n in range(organizations)]
        endpoints: set[str] = set()
        for made in orgs:
            for n in range(endpoints_each):
                hook = nodes.api(http, made["keys"]["test"], "POST", "/webhook-endpoints",
                                 {"url": f"{receiver.url}/{made['id']}/{n}",
                                  "enabledEvents": ["pass.created"]})
                assert hook.status_code == 201, hook.text
                endpoints.add(hook.json()["id"])
        queues = Redis.from_url(nodes.redis.url)
        total = organizations * endpoints_each * passes_each
        started = time.monotonic()
        for made in orgs:
            key = made["keys"]["test"]
            nodes.bulk_issue(http, key, nodes.template(http, key), passes_each)
        longest = 0
        while len(receiver.requests) < total and time.monotonic() - started < 600:
            longest = max(longest, int(queues.llen("rq:queue:webhooks")))
            time.sleep(0.05)
        seconds = time.monotonic() - started
        time.sleep(1)  # a copy sent twice would arrive by now
        rows = [d for d in nodes.deliveries() if d[0].split(":")[1] in endpoints]
        return Backlog(len(endpoints), longest, seconds, rows,
                       Counter((r.headers["webhook-id"], r.path) for r in receiver.requests))
    finally:
        receiver.stop()
