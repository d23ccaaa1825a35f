"""The Containerfile's image, built and run here (tests/support/image.py): Debian's Python
3.11 with the runtime lock, its own user, and the service from it against a PostgreSQL and a
Redis of the machine: migrations, `demo init`, gunicorn and a worker; `/readyz`, a pass
issued and its `.pkpass` downloaded, `/metrics` counting it and the worker's jobs."""

from __future__ import annotations

import io
import re
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.support import image as image_support
from tests.support.services import free_port

pytestmark = pytest.mark.slow
TOKEN = "image-metrics-token"


@dataclass
class Served:
    image: image_support.Image
    base: str
    key: str
    redis: object
    env: dict[str, str]


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[image_support.Image]:
    image_support.require_tools()
    seconds = image_support.build()
    print("\n  image built: " + ", ".join(f"{k} {v:.0f} s" for k, v in seconds.items()))
    mounted = image_support.Image(tmp_path_factory.mktemp("image-state")).mount()
    yield mounted
    mounted.unmount()


@pytest.fixture(scope="module")
def served(image: image_support.Image, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Served]:
    import psycopg

    from tests.jobs.conftest import Redis
    from tests.support.cluster import ENCRYPTION_KEYS, SECRET_KEY
    from tests.support.services import PostgresCluster

    postgres = PostgresCluster()
    redis = Redis()
    logs = tmp_path_factory.mktemp("image-logs")
    try:
        with psycopg.connect(postgres.url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute("CREATE DATABASE app")
        port = free_port()
        env = {"DATABASE_URL": postgres.url("app"), "REDIS_URL": redis.url,
               "SECRET_KEY": SECRET_KEY, "ENCRYPTION_KEYS": ENCRYPTION_KEYS,
               "BASE_URL": f"http://127.0.0.1:{port}", "PORT": str(port),
               "METRICS_TOKEN": TOKEN, "SWEEP_INTERVAL_SECONDS": "1"}
        migrated = image.run(["flask", "--app", "wsgi", "db", "upgrade"], env)
        assert migrated.returncode == 0, migrated.stderr
        demo = image.run(["flask", "--app", "wsgi", "demo", "init"], env)
        assert demo.returncode == 0, demo.stderr
        key = re.search(r"test key: (\S+)", demo.stdout)
        assert key, demo.stdout
        image.start(image.config["Cmd"], env, logs / "web.log")  # the image's own command
        image.start(["python", "-m", "jobs.worker"], env, logs / "worker.log")
        base = f"http://127.0.0.1:{port}"
        _wait_serving(base, logs / "web.log")
        yield Served(image, base, key.group(1), redis, env)
    finally:
        image.stop_all()
        redis.stop()
        postgres.stop()


def _wait_serving(base: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("the image's gunicorn did not answer:\n" + log.read_text()[-3000:])


def test_the_lock_installs_on_the_images_python(image: image_support.Image) -> None:
    """Debian bookworm's Python is 3.11.2: redis needs async-timeout there, and the lock
    (resolved on a newer 3.11) holds it, with its hash (the build installed it so)."""
    ran = image.run(["python", "-c", "import sys, async_timeout, redis, prometheus_client; "
                     "print(sys.executable, *sys.version_info[:3])"], {})
    assert ran.returncode == 0, ran.stderr
    executable, *version = ran.stdout.split()
    assert executable == "/opt/venv/bin/python"
    assert (3, 11, 0) <= tuple(map(int, version)) < (3, 12, 0)
    checked = image.run(["python", "-m", "pip", "check"], {})
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_image_runs_as_a_user_of_its_own_who_cannot_change_the_code(
        image: image_support.Image) -> None:
    assert image.config["User"] == "10001:10001"
    ran = image.run(["sh", "-c", "id -u; id -g; pwd; test ! -w /app/webapp && "
                     "test -w /var/lib/pass-service/instance && echo writable-only-state"], {})
    assert ran.stdout.split() == ["10001", "10001", "/app", "writable-only-state"], ran.stderr
    assert image.config["Cmd"][0] == "gunicorn"


def test_the_image_serves_a_pass_and_counts_it(served: Served) -> None:
    from tests.api.factories import template_body

    ready = httpx.get(f"{served.base}/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "migrations": "ok", "redis": "ok"}
    with httpx.Client(base_url=served.base, timeout=30,
                      headers={"Authorization": f"Bearer {served.key}"}) as http:
        template = http.post("/v1/templates", json=template_body(
            platforms={"apple": True, "google": False}), headers={"Idempotency-Key": "t1"})
        assert template.status_code == 201, template.text
        made = http.post("/v1/passes", headers={"Idempotency-Key": "p1"}, json={
            "templateId": template.json()["id"], "fieldValues": {"member": "Ada"}})
        assert made.status_code == 201, made.text
    pkpass = httpx.get(f"{served.base}/p/{made.json()['shortId']}/apple.pkpass", timeout=30)
    assert pkpass.status_code == 200
    assert pkpass.headers["Content-Type"] == "application/vnd.apple.pkpass"
    assert "pass.json" in zipfile.ZipFile(io.BytesIO(pkpass.content)).namelist()

    def scraped() -> str:
        answer = httpx.get(f"{served.base}/metrics", timeout=10,
                           headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200
        return answer.text

    deadline = time.monotonic() + 30  # the worker's sweep runs every second
    while 'kind="sweep_pending",outcome="succeeded"' not in scraped():
        assert time.monotonic() < deadline, "the worker's jobs are not counted"
        time.sleep(0.5)
    text = scraped()
    assert 'pass_service_passes_issued_total{environment="test"} 1.0' in text
    assert 'route="/p/<short_id>/apple.pkpass",status="200"' in text.replace(
        'method="GET",', "")
    # Nothing a later request needs is written on the node: only the metric files.
    assert [p.name for p in (served.image.state / "instance").iterdir()] == ["metrics"]


def test_the_images_readyz_says_when_redis_is_gone(served: Served) -> None:
    served.redis.stop()  # type: ignore[attr-defined]
    try:
        down = httpx.get(f"{served.base}/readyz", timeout=10)
        assert down.status_code == 503
        assert down.json()["failed"] == ["redis"]
    finally:
        served.redis.start()  # type: ignore[attr-defined]
    assert httpx.get(f"{served.base}/readyz", timeout=10).status_code == 200
