"""Apple Wallet: signing throughput and pushes per second (issue 4).

1. Signed .pkpass builds per second in one process (render, images from the cache, manifest,
   CMS signature, zip; a new pass each time, nothing from the bundle cache), as a ratio to raw
   RSA-2048 PKCS #1 v1.5 SHA-256 signatures per second measured in the same run.
   Target: at least 0.75 (issue 34; 0.5 in issue 4).
2. First download (sign) and cached download of `GET /p/<shortId>/apple.pkpass` through the
   Flask test client.
3. Pushes per second from one worker to the fake APNs (its own process, HTTP/2 over TLS with
   the client certificate) over one connection, for a pass with 10,000 registered devices:
   the whole delivery step (push, record each device's accepted version, the update record).
   Target: at least 1,000 pushes/s.
"""

from __future__ import annotations

import base64
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

from webapp import create_app

ROOT = Path(__file__).resolve().parent.parent
BUILDS = 300
DEVICES = 10_000
KEYS = "dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktdGVzdDE="


def main() -> None:
    from webapp.wallets.apple import certificates

    tmp = Path(tempfile.mkdtemp(prefix="bench-apple-"))
    chain = certificates.make_demo_chain("pass.dev.bench.demo", "BENCH00001", "Bench Demo")
    roots = tmp / "root.pem"
    roots.write_bytes(chain.root.public_bytes(serialization.Encoding.PEM))
    fake = subprocess.Popen([sys.executable, "-m", "tests.support.fake_apns", str(roots)],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        base, ca_file = fake.stdout.readline().split()  # type: ignore[union-attr]
        app = create_app({
            "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "SECRET_KEY": "bench",
            "ENCRYPTION_KEYS": KEYS, "INSTANCE_PATH": str(tmp), "LOG_LEVEL": "WARNING",
            "RATE_LIMIT_TEST": 10**9, "RATE_LIMIT_PUBLIC": 10**9, "APNS_URL": base,
            "APNS_CA_FILE": ca_file, "BASE_URL": "https://bench.example",
            "DEMO_APPLE_P12": base64.b64encode(certificates.to_p12(chain.identity, None)).decode(),
        })
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            ctx, template_id = _setup()
            _signing(chain, ctx, template_id)
            _downloads(app, ctx, template_id)
            _pushes(ctx, template_id)
    finally:
        fake.stdin.close()  # type: ignore[union-attr]
        fake.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def _setup() -> tuple[Any, str]:
    import io

    from PIL import Image

    from webapp.services.accounts import organizations
    from webapp.services.context import Context
    from webapp.services.templates import assets, revisions

    created = organizations.create("Bench", "bench@example.com", "benchmark-password")
    ctx = Context(created.organization.id, "test")
    images = {}
    for slot, size in (("icon", (256, 256)), ("logo", (640, 200)), ("thumbnail", (300, 300))):
        buf = io.BytesIO()
        Image.new("RGB", size, "#3366cc").save(buf, "PNG")
        images[slot] = assets.upload(ctx, slot, buf.getvalue()).id
    definition = {
        "schemaVersion": 1, "type": "generic", "description": "Membership",
        "organizationName": "Bench Gym", "colors": {"background": "#112233",
                                                     "foreground": "#ffffff"},
        "platforms": {"apple": True, "google": False}, "images": images,
        "barcode": {"format": "qr"},
        "config": {"fields": {
            "primary": [{"key": "member", "label": "Member", "binding": "perPass",
                         "required": True}],
            "secondary": [{"key": "level", "label": "Level", "binding": "perPass"}]}},
    }
    return ctx, revisions.create(ctx, "Bench", "generic", definition).id


def _issue(ctx: Any, template_id: str, n: int) -> list[Any]:
    from webapp.services.passes import issuing

    return [issuing.issue(ctx, issuing.IssueRequest(template_id, {"member": f"Member {i}"}))
            for i in range(n)]


def _signing(chain: Any, ctx: Any, template_id: str) -> None:
    """Builds and raw signatures in alternating rounds (the machine is shared: load drifts),
    the ratio of each round, and the median of the rounds."""
    from webapp.services.apple import passes
    from webapp.services.credentials import identities

    identity = identities.demo_apple()
    items = _issue(ctx, template_id, BUILDS)
    passes.build(items[0], identity)  # warm: key parsed, images converted once
    key, message = chain.identity.private_key, b"x" * 100
    rounds, per_round = 6, BUILDS // 6
    builds, raws = [], []
    for number in range(rounds):
        started = time.perf_counter()
        for item in items[number * per_round:(number + 1) * per_round]:
            passes.build(item, identity)
        builds.append(per_round / (time.perf_counter() - started))
        started = time.perf_counter()
        for _ in range(per_round):
            key.sign(message, padding.PKCS1v15(), hashes.SHA256())
        raws.append(per_round / (time.perf_counter() - started))
    ratio = statistics.median(b / r for b, r in zip(builds, raws, strict=True))
    print(f"signed pkpass builds: {statistics.median(builds):.0f}/s; raw RSA-2048 "
          f"signatures: {statistics.median(raws):.0f}/s; ratio {ratio:.2f} (median of "
          f"{rounds} alternating rounds; target >= 0.75)")


def _downloads(app: Any, ctx: Any, template_id: str) -> None:
    client = app.test_client()
    first, cached = [], []
    for item in _issue(ctx, template_id, 30):
        path = f"/p/{item.short_id}/apple.pkpass"
        for times in (first, cached, cached, cached):
            started = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
    print(f"GET apple.pkpass: first (signs) p50 {statistics.median(first):.2f} ms; "
          f"cached p50 {statistics.median(cached):.2f} ms")


def _pushes(ctx: Any, template_id: str) -> None:
    from webapp import clock
    from webapp.db.transaction import transaction
    from webapp.extensions import db
    from webapp.models import AppleRegistration, PassUpdate
    from webapp.services.apple import passes
    from webapp.services.outbox import pass_updates
    from webapp.services.passes import changes

    item = _issue(ctx, template_id, 1)[0]
    pass_type = passes.pass_type_identifier(item)
    now = clock.now()
    with transaction() as session:
        session.execute(AppleRegistration.__table__.insert(), [
            {"pass_id": item.id, "organization_id": item.organization_id,
             "environment": "test", "device_library_id": f"device{i:06d}",
             "pass_type_identifier": pass_type, "push_token": f"{i:064x}",
             "created_at": now, "updated_at": now}
            for i in range(DEVICES)])

    from flask import current_app

    from webapp.db.transaction import DISPATCHER

    current_app.extensions[DISPATCHER] = None  # run the delivery here, timed, not in a job thread
    update = changes.update(ctx, item.id, {"level": "Gold"}, "notify").update
    started = time.perf_counter()
    pass_updates.push(update.id)
    elapsed = time.perf_counter() - started
    record = db.session.get(PassUpdate, update.id, populate_existing=True)
    print(f"pushes to {DEVICES:,} devices over one HTTP/2 connection: {elapsed:.2f} s, "
          f"{DEVICES / elapsed:.0f} pushes/s (target >= 1,000); delivery.apple = "
          f"{record.apple_status}, devices {record.apple_devices}")
