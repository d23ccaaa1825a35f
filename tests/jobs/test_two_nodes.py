"""Two nodes, as on two machines: app servers with instance folders of their own, one
PostgreSQL, one Redis, a worker per node, requests alternating between the nodes.

One cluster serves the module's tests in order: the CSV import across nodes, dashboard
sessions, an idempotent retry, a Redis outage under load (each node's /readyz says so, and
both nodes' /metrics add up to the load), a backlog of 2,000 webhook deliveries whose queue
stays bounded, and a worker killed in the middle of a bulk job.
"""

from __future__ import annotations

import csv
import io
import re
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support import scenarios
from tests.support.cluster import Cluster, cluster, organization, wait

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def _once(request: pytest.FixtureRequest) -> None:
    if request.config.getoption("--db") == "postgres":
        pytest.skip("runs once, in the first lane: the cluster brings its own PostgreSQL")


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


def _csrf(http: httpx.Client, url: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', http.get(url).text)
    assert match, url
    return match.group(1)


def _hidden(html: str) -> dict[str, str]:
    """A form's hidden inputs: the CSRF token and its once-only form token."""
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))


def test_an_idempotent_retry_split_across_nodes_makes_one_pass(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    template = nodes.template(http, key)
    idem = str(uuid.uuid4())
    body = {"templateId": template, "fieldValues": {"member": "Ada"}}
    answers: list[httpx.Response] = []
    start = threading.Barrier(8)

    def post() -> None:
        with httpx.Client(timeout=30) as own:
            start.wait()
            answers.append(nodes.api(own, key, "POST", "/passes", body, idem))

    threads = [threading.Thread(target=post) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    created = {a.json()["id"] for a in answers if a.status_code == 201}
    assert len(created) == 1, [(a.status_code, a.text[:80]) for a in answers]
    assert {a.status_code for a in answers} <= {201, 409}
    listed = nodes.api(http, key, "GET", f"/passes?templateId={template}").json()["data"]
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
    template = nodes.template(http, key)
    a, b = (node.base for node in nodes.nodes)
    login = f"{a}/dashboard/login"
    assert http.post(login, data={"email": org["email"], "password": org["password"],
                                  "csrf_token": _csrf(http, login)}).status_code == 303
    page = f"/dashboard/test/templates/{template}/import"
    uploaded = http.post(f"{a}{page}", data=_hidden(http.get(f"{a}{page}").text),
                         files={"file": ("m.csv", b"Member\nAda\nBo\nCy\n", "text/csv")})
    assert uploaded.status_code == 303, uploaded.text
    mapping = uploaded.headers["Location"]
    shown = http.get(f"{b}{mapping}")  # the other node has the upload
    assert shown.status_code == 200, shown.text
    form = _hidden(shown.text)
    for name, value in re.findall(r'<select id="map-([^"]+)" name="([^"]+)">', shown.text):
        form[value] = "0" if name == "fieldValues.member" else ""
    ran = http.post(f"{a}{mapping}/run", data=form)
    assert ran.status_code == 303, ran.text
    job = ran.headers["Location"].rsplit("/", 1)[1]
    wait(lambda: nodes.job(http, key, job)["status"]
          == "completed")
    rows = list(csv.reader(io.StringIO(
        http.get(f"{b}/dashboard/test/jobs/{job}/results.csv").content.decode("utf-8-sig"))))
    assert [row[2] for row in rows[1:]] == ["Issued"] * 3
    assert http.get(f"{b}{mapping}").status_code == 404  # used once, on every node


def test_a_redis_outage_under_load_answers_no_5xx_and_loses_nothing(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    for node in nodes.nodes:
        ready = httpx.get(f"{node.base}/readyz", timeout=10)
        assert ready.status_code == 200, ready.text
    before = nodes.metrics()
    outage = scenarios.redis_outage(nodes, http, org["keys"]["test"])
    # Each node's /readyz said Redis was gone while it was, and is ready again after.
    assert [(r.status_code, r.json()["failed"]) for r in outage.ready_while_down] == \
        [(503, ["redis"])] * 2
    wait(lambda: all(httpx.get(f"{node.base}/readyz", timeout=10).status_code == 200
                     for node in nodes.nodes), timeout=30)
    # The metrics of both nodes (two gunicorn workers and an RQ worker each) add up to the
    # load: every pass issued, every webhook delivered.
    after = nodes.metrics()

    def grew(name: str, **labels: str) -> float:
        key = (name, frozenset(labels.items()))
        return after[key] - before[key]

    assert grew("pass_service_passes_issued_total", environment="test") == outage.statuses[201]
    assert grew("pass_service_http_requests_total", route="/v1/passes", method="POST",
                status="201") == outage.statuses[201]
    assert grew("pass_service_webhook_deliveries_total", outcome="succeeded") == \
        len(outage.deliveries)
    assert grew("pass_service_jobs_total", kind="deliver_webhooks", outcome="succeeded") > 0
    assert not any(status >= 500 for status in outage.statuses), outage.statuses
    assert outage.statuses[201] >= 12, outage.statuses
    # Every event reached the receiver once Redis was back (the sweep found the rows), once.
    assert len(outage.deliveries) == 2 * outage.statuses[201]
    assert {attempts for _, _, attempts in outage.deliveries} == {1}
    assert len(outage.sent) == len(outage.deliveries) and set(outage.sent.values()) == {1}


def test_another_organizations_one_item_job_runs_beside_40000_queued_items(
        nodes: Cluster, http: httpx.Client) -> None:
    fair = scenarios.fair_bulk(nodes, http)
    print(f"\n  another organization's 1-item job beside 40,000 queued items: "
          f"{fair.seconds:.2f} s")
    assert fair.seconds < 5
    first, *later = fair.busy_states
    assert first["status"] == "running" and first["counts"]["pending"] > 0
    assert [s["status"] for s in later] == ["queued"] * 3  # one at a time


def test_email_push_and_webhooks_go_out_beside_a_tarpits_backlog(
        nodes: Cluster, http: httpx.Client, fake_apns: Any, mailbox: Any) -> None:
    before = nodes.metrics()
    beside = scenarios.beside_tarpit(nodes, http, fake_apns, mailbox)

    def grew(name: str, **labels: str) -> float:
        key = (name, frozenset(labels.items()))
        return nodes.metrics()[key] - before[key]

    # The workers' counts reach the nodes' /metrics: the push, the email, the bulk job.
    wait(lambda: grew("pass_service_apns_pushes_total", outcome="sent")
         + grew("pass_service_apns_pushes_total", outcome="delivered") >= 1, timeout=30)
    wait(lambda: grew("pass_service_emails_total", kind="pass", outcome="sent") >= 1, timeout=30)
    assert grew("pass_service_bulk_items_total", operation="issue", outcome="succeeded") \
        >= 1000
    print(f"\n  beside a tarpit's {beside.pending} deliveries: push {beside.push:.2f} s, "
          f"email {beside.email:.2f} s, another organization's webhook {beside.webhook:.2f} s")
    assert beside.pending >= 990
    assert max(beside.push, beside.email, beside.webhook) < 5


def test_a_backlog_of_2000_deliveries_keeps_the_queue_bounded_and_sends_each_once(
        nodes: Cluster, http: httpx.Client) -> None:
    # bench/several_machines.py runs the 10,000 of the issue; 2,000 keep the backlog well past
    # the queue's wait at a CI-sized cost.
    made = scenarios.backlog(nodes, http, passes_each=50)
    print(f"\n  2,000 deliveries to {made.endpoints} endpoints: the webhooks queue held at "
          f"most {made.longest} jobs; sent in {made.seconds:.1f} s")
    assert made.longest <= made.endpoints + 2
    assert len(made.deliveries) == 2_000
    assert {(s, a) for _, s, a in made.deliveries} == {("succeeded", 1)}
    assert len(made.sent) == 2_000 and set(made.sent.values()) == {1}  # each exactly once


def test_a_worker_killed_in_a_bulk_job_leaves_it_to_the_other_node(
        nodes: Cluster, http: httpx.Client, org: dict[str, Any]) -> None:
    key = org["keys"]["test"]
    template = nodes.template(http, key)
    job = nodes.bulk_issue(http, key, template, 3000)
    wait(lambda: nodes.job(http, key, job)["counts"]["succeeded"] >= 500, every=0.02)
    for worker in nodes.workers:
        worker.kill()  # both, then one back: the job is resumed by a fresh worker
    nodes.workers.clear()
    nodes.start_worker("node-b")
    wait(lambda: nodes.job(http, key, job)["status"] == "completed", timeout=180)
    done = nodes.job(http, key, job)
    assert done["counts"] == {"total": 3000, "succeeded": 3000, "failed": 0, "canceled": 0,
                              "pending": 0}
    passes, cursor = [], None
    while True:
        page = nodes.read(http, key, f"/passes?templateId={template}&limit=100"
                          + (f"&cursor={cursor}" if cursor else ""))
        passes += [p["id"] for p in page["data"]]
        if not page["hasMore"]:
            break
        cursor = page["nextCursor"]
    assert len(passes) == len(set(passes)) == 3000  # every item applied once
