"""Two nodes, as on two machines: app servers with instance folders of their own, one
PostgreSQL, one Redis, a worker per node, requests alternating between the nodes.

One cluster serves the module's tests in order: the CSV import across nodes, dashboard
sessions, an idempotent retry, a Redis outage under load, a backlog of 10,000 webhook
deliveries whose queue stays bounded, and a worker killed in the middle of a bulk job.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.api.factories import template_body
from tests.support.cluster import Cluster, cluster, organization
from tests.support.receiver import Receiver

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fake_apns() -> Iterator[Any]:
    from tests.apple.conftest import demo_root_pem
    from tests.support.fake_apns import FakeApns

    fake = FakeApns([demo_root_pem()]).start()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Any]:
    from tests.support.smtp import Mailbox

    box = Mailbox().start()
    yield box
    box.stop()


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory, fake_apns: Any, mailbox: Any
          ) -> Iterator[Cluster]:
    from tests.apple.conftest import apple_overrides

    demo = apple_overrides()["DEMO_APPLE_P12"]
    with cluster(tmp_path_factory.mktemp("cluster"), DEMO_APPLE_P12=demo,
                 APNS_URL=fake_apns.base, APNS_CA_FILE=fake_apns.ca_file,
                 SMTP_URL=f"smtp://127.0.0.1:{mailbox.port}",
                 EMAIL_FROM="passes@cluster.test") as made:
        yield made


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=30) as client:  # one cookie jar for both nodes (one host)
        yield client


@pytest.fixture(scope="module")
def org(nodes: Cluster) -> dict[str, Any]:
    return organization(nodes)


def _api(http: httpx.Client, nodes: Cluster, key: str, method: str, path: str,
         body: Any = None, idem: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"}
    if method != "GET":
        headers["Idempotency-Key"] = idem or str(uuid.uuid4())
    return http.request(method, nodes.url(f"/v1{path}"), json=body, headers=headers)


def _wait(predicate: Callable[[], bool], timeout: float = 120, every: float = 0.2) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(every)


def _template(http: httpx.Client, nodes: Cluster, key: str) -> str:
    made = _api(http, nodes, key, "POST", "/templates",
                template_body(platforms={"apple": True, "google": False}))
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _csrf(http: httpx.Client, url: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', http.get(url).text)
    assert match, url
    return match.group(1)


def test_an_idempotent_retry_split_across_nodes_makes_one_pass(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    template = _template(http, nodes, key)
    idem = str(uuid.uuid4())
    body = {"templateId": template, "fieldValues": {"member": "Ada"}}
    answers: list[httpx.Response] = []
    start = threading.Barrier(8)

    def post() -> None:
        with httpx.Client(timeout=30) as own:
            start.wait()
            answers.append(_api(own, nodes, key, "POST", "/passes", body, idem))

    threads = [threading.Thread(target=post) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    created = {a.json()["id"] for a in answers if a.status_code == 201}
    assert len(created) == 1, [(a.status_code, a.text[:80]) for a in answers]
    assert {a.status_code for a in answers} <= {201, 409}
    listed = _api(http, nodes, key, "GET", f"/passes?templateId={template}").json()["data"]
    assert [p["id"] for p in listed] == list(created)


def test_a_dashboard_session_works_on_every_node_and_ends_on_every_node(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    login = nodes.nodes[0].base + "/dashboard/login"
    signed = http.post(login, data={"email": org["email"], "password": org["password"],
                                    "csrf_token": _csrf(http, login)})
    assert signed.status_code == 303, signed.text
    for node in nodes.nodes:
        assert http.get(f"{node.base}/dashboard/test/passes").status_code == 200
    other = nodes.nodes[1].base
    out = http.post(f"{other}/dashboard/logout",
                    data={"csrf_token": _csrf(http, f"{other}/dashboard/test/passes")})
    assert out.status_code == 303
    for node in nodes.nodes:
        assert http.get(f"{node.base}/dashboard/test/passes").status_code == 303


def test_a_csv_import_goes_from_node_to_node(nodes: Cluster, http: httpx.Client,
                                             org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    template = _template(http, nodes, key)
    a, b = (node.base for node in nodes.nodes)
    login = f"{a}/dashboard/login"
    assert http.post(login, data={"email": org["email"], "password": org["password"],
                                  "csrf_token": _csrf(http, login)}).status_code == 303
    page = f"/dashboard/test/templates/{template}/import"
    uploaded = http.post(f"{a}{page}", data={"csrf_token": _csrf(http, f"{a}{page}")},
                         files={"file": ("m.csv", b"Member\nAda\nBo\nCy\n", "text/csv")})
    assert uploaded.status_code == 303, uploaded.text
    mapping = uploaded.headers["Location"]
    shown = http.get(f"{b}{mapping}")  # the other node has the upload
    assert shown.status_code == 200, shown.text
    form = {"csrf_token": _csrf(http, f"{b}{mapping}")}
    for name, value in re.findall(r'<select id="map-([^"]+)" name="([^"]+)">', shown.text):
        form[value] = "0" if name == "fieldValues.member" else ""
    ran = http.post(f"{a}{mapping}/run", data=form)
    assert ran.status_code == 303, ran.text
    job = ran.headers["Location"].rsplit("/", 1)[1]
    _wait(lambda: _api(http, nodes, key, "GET", f"/bulk-jobs/{job}").json()["status"]
          == "completed")
    rows = list(csv.reader(io.StringIO(
        http.get(f"{b}/dashboard/test/jobs/{job}/results.csv").content.decode("utf-8-sig"))))
    assert [row[2] for row in rows[1:]] == ["succeeded"] * 3
    assert http.get(f"{b}{mapping}").status_code == 404  # used once, on every node


def _deliveries(nodes: Cluster) -> list[tuple[str, str, int]]:
    """Every delivery: (event ID, status, attempts)."""
    import psycopg

    with psycopg.connect(nodes.database_url.replace("+psycopg", "")) as conn:
        return [tuple(row) for row in conn.execute(  # type: ignore[misc]
            "SELECT d.event_id || ':' || d.endpoint_id, d.status, d.attempts "
            "FROM webhook_deliveries d").fetchall()]


def test_a_redis_outage_under_load_answers_no_5xx_and_loses_nothing(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    receiver = Receiver().start()
    try:
        hook = _api(http, nodes, key, "POST", "/webhook-endpoints",
                    {"url": receiver.url, "enabledEvents": ["pass.created", "pass.updated"]})
        assert hook.status_code == 201, hook.text
        template = _template(http, nodes, key)
        statuses: Counter[int] = Counter()
        stop = time.monotonic() + 8
        lock = threading.Lock()

        def load() -> None:
            with httpx.Client(timeout=30) as own:
                while time.monotonic() < stop:
                    made = _api(own, nodes, key, "POST", "/passes",
                                {"templateId": template, "fieldValues": {"member": "A"}})
                    answers = [made.status_code]
                    if made.status_code == 201:
                        item = made.json()
                        answers.append(_api(own, nodes, key, "PATCH", f"/passes/{item['id']}",
                                            {"fieldValues": {"member": "B"}}).status_code)
                        answers.append(own.get(nodes.url(f"/p/{item['shortId']}")).status_code)
                        answers.append(own.get(nodes.url(
                            f"/p/{item['shortId']}/apple.pkpass")).status_code)
                    with lock:
                        statuses.update(answers)

        threads = [threading.Thread(target=load) for _ in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(2)
        nodes.redis.stop()
        time.sleep(3)
        nodes.redis.start()
        for thread in threads:
            thread.join(60)
        assert not any(status >= 500 for status in statuses), statuses
        assert statuses[201] > 10, statuses
        # Every event reaches the receiver once Redis is back (the sweep finds the rows).
        _wait(lambda: {s for _, s, _ in _deliveries(nodes)} == {"succeeded"}, timeout=120)
        sent = Counter((r.headers["webhook-id"]) for r in receiver.requests)
        made = _deliveries(nodes)
        assert len(made) == 2 * statuses[201]  # a created and an updated event per pass
        assert all(attempts == 1 for _, _, attempts in made)
        assert sorted(sent.values()) == [1] * len(made)  # each delivered exactly once
    finally:
        receiver.stop()


class Tarpit:
    """A receiver that takes connections and never answers."""

    def __init__(self) -> None:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hooks"
        self.held: list[Any] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn = self.sock.accept()[0]
            except OSError:
                return
            with self.lock:
                if self.stopped:
                    conn.close()
                    return
                self.held.append(conn)

    def stop(self) -> None:
        self.sock.close()
        with self.lock:
            self.stopped = True
            for conn in self.held:
                conn.close()


def _bulk(http: httpx.Client, nodes: Cluster, key: str, template: str, count: int) -> str:
    made = _api(http, nodes, key, "POST", "/bulk-jobs", {
        "operation": "issue", "templateId": template,
        "items": [{"fieldValues": {"member": f"M{n}"}} for n in range(count)]})
    assert made.status_code == 202, made.text
    return str(made.json()["id"])


def _job(http: httpx.Client, nodes: Cluster, key: str, job: str) -> dict[str, Any]:
    return dict(_api(http, nodes, key, "GET", f"/bulk-jobs/{job}").json())


def test_another_organizations_one_item_job_runs_beside_40000_queued_items(
        nodes: Cluster, http: httpx.Client) -> None:
    busy, other = organization(nodes, "Busy Co"), organization(nodes, "Other Co")
    busy_key, other_key = busy["keys"]["test"], other["keys"]["test"]
    template = _template(http, nodes, busy_key)
    big = [_bulk(http, nodes, busy_key, template, 10_000) for _ in range(4)]
    _wait(lambda: _job(http, nodes, busy_key, big[0])["counts"]["succeeded"] > 0, every=0.05)
    started = time.monotonic()
    small = _bulk(http, nodes, other_key, _template(http, nodes, other_key), 1)
    _wait(lambda: _job(http, nodes, other_key, small)["status"] == "completed", timeout=30,
          every=0.05)
    waited = time.monotonic() - started
    print(f"\n  another organization's 1-item job beside 40,000 queued items: {waited:.2f} s")
    assert waited < 5
    states = [_job(http, nodes, busy_key, job) for job in big]
    assert states[0]["status"] == "running" and states[0]["counts"]["pending"] > 0
    assert [s["status"] for s in states[1:]] == ["queued"] * 3  # one at a time
    for job in big:
        _api(http, nodes, busy_key, "POST", f"/bulk-jobs/{job}/cancel")


def _apple_token(http: httpx.Client, nodes: Cluster, short_id: str) -> str:
    import zipfile

    data = http.get(nodes.url(f"/p/{short_id}/apple.pkpass")).content
    return str(json.loads(zipfile.ZipFile(io.BytesIO(data)).read("pass.json"))
               ["authenticationToken"])


def test_email_push_and_webhooks_go_out_beside_a_tarpits_backlog(
        nodes: Cluster, http: httpx.Client, fake_apns: Any, mailbox: Any) -> None:
    from tests.apple.conftest import DEMO_PASS_TYPE

    slow, other = organization(nodes, "Slow Co"), organization(nodes, "Quick Co")
    slow_key, key = slow["keys"]["test"], other["keys"]["test"]
    tarpit, receiver = Tarpit(), Receiver().start()
    try:
        assert _api(http, nodes, slow_key, "POST", "/webhook-endpoints",
                    {"url": tarpit.url, "enabledEvents": ["pass.created"]}).status_code == 201
        backlog = _bulk(http, nodes, slow_key, _template(http, nodes, slow_key), 1000)
        _wait(lambda: _job(http, nodes, slow_key, backlog)["status"] == "completed")
        assert _api(http, nodes, key, "POST", "/webhook-endpoints",
                    {"url": receiver.url, "enabledEvents": ["pass.updated"]}).status_code == 201
        item = _api(http, nodes, key, "POST", "/passes", {
            "templateId": _template(http, nodes, key), "fieldValues": {"member": "Ada"},
            "holderEmail": "ada@example.com"}).json()
        token = _apple_token(http, nodes, item["shortId"])
        registered = http.post(nodes.url(
            f"/wallet/apple/v1/devices/phone-1/registrations/{DEMO_PASS_TYPE}/{item['id']}"),
            json={"pushToken": "f" * 64}, headers={"Authorization": f"ApplePass {token}"})
        assert registered.status_code == 201, registered.text
        pending = [d for d in _deliveries(nodes) if d[1] == "pending"]
        assert len(pending) >= 990  # the tarpit's backlog is there

        started = time.monotonic()
        assert _api(http, nodes, key, "POST", f"/passes/{item['id']}/send",
                    {"to": "ada@example.com"}).status_code == 202
        assert _api(http, nodes, key, "PATCH", f"/passes/{item['id']}",
                    {"fieldValues": {"member": "Bo"}}).status_code == 200
        fake_apns.wait_for(1, timeout=30)
        pushed = time.monotonic() - started
        mailbox.wait_for(1, timeout=30)
        mailed = time.monotonic() - started
        receiver.wait_for(1, timeout=30)
        hooked = time.monotonic() - started
        print(f"\n  beside a tarpit's backlog: push {pushed:.2f} s, email {mailed:.2f} s, "
              f"another organization's webhook {hooked:.2f} s")
        assert max(pushed, mailed, hooked) < 5
    finally:
        tarpit.stop()
        receiver.stop()


def test_a_backlog_of_10000_deliveries_keeps_the_queue_bounded_and_sends_each_once(
        nodes: Cluster, http: httpx.Client) -> None:
    from redis import Redis as Client

    receiver = Receiver().start()
    endpoints: list[str] = []
    try:
        orgs = [organization(nodes, f"Backlog {n}") for n in range(4)]
        for made in orgs:
            for n in range(10):
                hook = _api(http, nodes, made["keys"]["test"], "POST", "/webhook-endpoints",
                            {"url": f"{receiver.url}/{made['id']}/{n}",
                             "enabledEvents": ["pass.created"]})
                assert hook.status_code == 201, hook.text
                endpoints.append(hook.json()["id"])
        queues = Client.from_url(nodes.redis.url)
        before = len(_deliveries(nodes))
        jobs = [(made["keys"]["test"], _bulk(http, nodes, made["keys"]["test"],
                                             _template(http, nodes, made["keys"]["test"]), 250))
                for made in orgs]
        longest = 0
        started = time.monotonic()
        while len(receiver.requests) < 10_000 and time.monotonic() - started < 300:
            longest = max(longest, int(queues.llen("rq:queue:webhooks")))
            time.sleep(0.05)
        print(f"\n  10,000 deliveries to 40 endpoints: the webhooks queue held at most "
              f"{longest} jobs; sent in {time.monotonic() - started:.1f} s")
        assert all(_job(http, nodes, k, j)["status"] == "completed" for k, j in jobs)
        assert longest <= len(endpoints) + 2
        _wait(lambda: all(s == "succeeded" for _, s, _ in _deliveries(nodes)[before:]))
        rows = [d for d in _deliveries(nodes) if d[0].split(":")[1] in endpoints]
        assert len(rows) == 10_000 and {a for _, _, a in rows} == {1}
        sent = Counter((r.headers["webhook-id"], r.path) for r in receiver.requests)
        assert len(sent) == 10_000 and set(sent.values()) == {1}  # each exactly once
    finally:
        receiver.stop()


def test_a_worker_killed_in_a_bulk_job_leaves_it_to_the_other_node(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    template = _template(http, nodes, key)
    job = _bulk(http, nodes, key, template, 3000)
    _wait(lambda: _job(http, nodes, key, job)["counts"]["succeeded"] >= 500, every=0.02)
    for worker in nodes.workers:
        worker.kill()  # both, then one back: the job is resumed by a fresh worker
    nodes.workers.clear()
    nodes.start_worker("node-b")
    _wait(lambda: _job(http, nodes, key, job)["status"] == "completed", timeout=180)
    done = _job(http, nodes, key, job)
    assert done["counts"] == {"total": 3000, "succeeded": 3000, "failed": 0, "canceled": 0,
                              "pending": 0}
    passes, cursor = [], None
    while True:
        page = _api(http, nodes, key, "GET", f"/passes?templateId={template}&limit=100"
                    + (f"&cursor={cursor}" if cursor else "")).json()
        passes += [p["id"] for p in page["data"]]
        if not page["hasMore"]:
            break
        cursor = page["nextCursor"]
    assert len(passes) == len(set(passes)) == 3000  # every item applied once
