"""Several machines (issue 29): two app nodes, one PostgreSQL, one Redis (tests/support/
cluster.py), the scenarios of tests/support/scenarios.py with their figures.

1. A backlog of 10,000 webhook deliveries to 40 endpoints of 4 organizations, with one worker
   and with two: the longest the `webhooks` queue got against the distinct pending work (an
   endpoint's job), how long it took, and whether each delivery was made exactly once.
2. Redis stopped for 3 s in the middle of 8 s of load: answers 5xx (target 0), and every
   webhook of the load delivered once afterwards.
3. Another organization's 1-item bulk job beside 40,000 queued items (target: a few seconds).
4. Beside a never-answering endpoint's 1,000-delivery backlog: another organization's push,
   email and webhook (target: a few seconds).

About 10 minutes. `python -m bench.several_machines`.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import httpx

from tests.apple.conftest import apple_overrides, demo_root_pem
from tests.support import scenarios
from tests.support.cluster import cluster, organization
from tests.support.fake_apns import FakeApns
from tests.support.smtp import Mailbox


def _backlog(workers: int) -> None:
    with cluster(Path(tempfile.mkdtemp(prefix="bench-nodes-")), workers=workers) as nodes, \
            httpx.Client(timeout=30) as http:
        made = scenarios.backlog(nodes, http)
        once = len(made.sent) == len(made.deliveries) and set(made.sent.values()) == {1}
        print(f"backlog, {workers} worker(s): 10,000 deliveries to {made.endpoints} endpoints; "
              f"the webhooks queue held at most {made.longest} jobs "
              f"({made.longest / made.endpoints:.2f} x the distinct work); "
              f"{made.seconds:.1f} s ({10_000 / made.seconds:.0f}/s); each once: {once}",
              flush=True)


def main() -> int:
    for workers in (1, 2):
        _backlog(workers)
    apns, mailbox = FakeApns([demo_root_pem()]).start(), Mailbox().start()
    try:
        with cluster(Path(tempfile.mkdtemp(prefix="bench-nodes-")),
                     DEMO_APPLE_P12=apple_overrides()["DEMO_APPLE_P12"], APNS_URL=apns.base,
                     APNS_CA_FILE=apns.ca_file, SMTP_URL=f"smtp://127.0.0.1:{mailbox.port}",
                     EMAIL_FROM="passes@bench.test") as nodes, \
                httpx.Client(timeout=30) as http:
            key = organization(nodes)["keys"]["test"]
            outage = scenarios.redis_outage(nodes, http, key)
            errors = sum(n for status, n in outage.statuses.items() if status >= 500)
            once = set(outage.sent.values()) == {1} and \
                len(outage.sent) == len(outage.deliveries)
            print(f"redis outage: {sum(outage.statuses.values())} answers, {errors} 5xx; "
                  f"{len(outage.deliveries)} webhooks delivered once each after: {once}",
                  flush=True)
            fair = scenarios.fair_bulk(nodes, http)
            print(f"fair bulk jobs: another organization's 1-item job beside 40,000 queued "
                  f"items completed in {fair.seconds:.2f} s", flush=True)
            beside = scenarios.beside_tarpit(nodes, http, apns, mailbox)
            print(f"beside a never-answering endpoint's {beside.pending} deliveries: push "
                  f"{beside.push:.2f} s, email {beside.email:.2f} s, another organization's "
                  f"webhook {beside.webhook:.2f} s", flush=True)
    finally:
        apns.stop()
        mailbox.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
