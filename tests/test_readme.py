"""The README's first walk runs, as written, against a server started the way `make run` does.

The commands are read out of README.md, so an example that stops working fails here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.services import free_port, wait_until_serving

ROOT = Path(__file__).resolve().parent.parent
KEY = re.compile(r"svc_test_[A-Za-z0-9_-]+")


def readme_walk() -> str:
    """The shell block that follows the README's `readme-walk` marker."""
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-walk[^>]*-->\n```sh\n(.*?)```", text, re.S)
    assert found, "README.md has no block marked <!-- readme-walk -->"
    return found.group(1)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """`make run`'s three steps on a free port: the server's URL and the printed test key."""
    tmp = tmp_path_factory.mktemp("readme")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"BASE_URL", "DATABASE_URL"}}
    env.update(INSTANCE_PATH=str(tmp), HOST="127.0.0.1", PORT=str(port))
    flask = [sys.executable, "-m", "flask", "--app", "wsgi"]

    def step(*args: str) -> str:
        return subprocess.run([*flask, *args], cwd=ROOT, env=env, check=True, text=True,
                              capture_output=True, timeout=120).stdout

    step("db", "upgrade")
    key = KEY.search(step("demo", "init"))
    assert key, "demo init printed no test key"
    server = subprocess.Popen([*flask, "run", "--host", "127.0.0.1", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{url}/v1/me")
        yield url, key.group(0)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_readme_walk_runs_as_written(served: tuple[str, str]) -> None:
    url, key = served
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", readme_walk()], cwd=ROOT,
                            env={"PATH": os.environ["PATH"], "BASE": url, "KEY": key},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr + result.stdout
    lines = result.stdout.strip().splitlines()
    assert '"environment": "test"' in lines[0] or '"environment":"test"' in lines[0]
    # The pass's link points where the server listens (PORT, not a default 5000).
    assert re.fullmatch(rf"{re.escape(url)}/p/[A-Za-z0-9]+", lines[-2]), lines[-2]
    assert lines[-1] == "200 text/html; charset=utf-8"


def test_the_readme_ticket_is_a_pass_with_a_barcode_the_door_checks_in(
        served: tuple[str, str]) -> None:
    url, key = served
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-ticket[^>]*-->\n```sh\n(.*?)```", text, re.S)
    assert found, "README.md has no block marked <!-- readme-ticket -->"
    # Without -e: the second scan is meant to fail (409), as the README says.
    result = subprocess.run(["bash", "-uo", "pipefail", "-c", readme_walk() + found.group(1)],
                            cwd=ROOT, env={"PATH": os.environ["PATH"], "BASE": url, "KEY": key},
                            capture_output=True, text=True, timeout=120)
    redeemed = json.loads(next(line for line in result.stdout.splitlines()
                               if line.startswith('{"id":"rdm_')))
    assert redeemed["location"] == "Gate B" and redeemed["pass"]["redemptionCount"] == 1
    assert '"already_redeemed"' in result.stdout and "error: 409" in result.stderr
    template = _get(url, key, f"/v1/templates/{redeemed['pass']['templateId']}")
    assert template["definition"]["barcode"] == {"format": "qr"}


def _get(url: str, key: str, path: str) -> dict[str, Any]:
    request = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.loads(response.read()))


def test_the_readme_loyalty_card_earns_spends_and_refuses_an_overspend(
        served: tuple[str, str]) -> None:
    url, key = served
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-loyalty[^>]*-->\n```sh\n(.*?)```", text, re.S)
    assert found, "README.md has no block marked <!-- readme-loyalty -->"
    # Without -e: the overspend is meant to fail (409), as the README says.
    result = subprocess.run(["bash", "-uo", "pipefail", "-c", readme_walk() + found.group(1)],
                            cwd=ROOT, env={"PATH": os.environ["PATH"], "BASE": url, "KEY": key},
                            capture_output=True, text=True, timeout=120)
    moves = [json.loads(line) for line in result.stdout.splitlines()
             if line.startswith('{"id":"btx_')]
    assert [(m["amount"], m["balanceAfter"], m["pass"]["tier"]) for m in moves] == [
        (950, 1050, "Gold"), (-300, 750, "Gold")]
    assert moves[1]["pass"]["lifetimePoints"] == 1050
    assert '"insufficient_balance"' in result.stdout and "error: 409" in result.stderr
    # (the 409's body ends without a newline: the list follows it on the same line)
    listed, _ = json.JSONDecoder().raw_decode(result.stdout[result.stdout.rindex(
        '{"object":"list"'):])
    assert [m["amount"] for m in listed["data"]] == [-300, 950, 100]


def test_the_readme_sign_up_link_opens_the_form(served: tuple[str, str]) -> None:
    url, key = served
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-signup[^>]*-->\n```sh\n(.*?)```", text, re.S)
    assert found, "README.md has no block marked <!-- readme-signup -->"
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", readme_walk() + found.group(1)],
                            cwd=ROOT, env={"PATH": os.environ["PATH"], "BASE": url, "KEY": key},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr + result.stdout
    lines = result.stdout.strip().splitlines()
    assert re.fullmatch(rf"{re.escape(url)}/join/[A-Za-z0-9_-]{{16}}", lines[-2]), lines[-2]
    assert lines[-1] == "200"


def test_the_readme_message_is_sent_and_the_scheduled_one_canceled(
        served: tuple[str, str]) -> None:
    url, key = served
    text = (ROOT / "README.md").read_text()
    found = re.search(r"<!-- readme-message[^>]*-->\n```sh\n(.*?)```", text, re.S)
    assert found, "README.md has no block marked <!-- readme-message -->"
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", readme_walk() + found.group(1)],
                            cwd=ROOT, env={"PATH": os.environ["PATH"], "BASE": url, "KEY": key},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr + result.stdout
    decoder = json.JSONDecoder()
    out = result.stdout
    shown = [decoder.raw_decode(out[i:])[0]
             for i in range(len(out)) if out.startswith('{"object":"message"', i)]
    assert len(shown) >= 2, result.stdout
    canceled, sent = shown[-2], shown[-1]
    assert canceled["status"] == "canceled" and canceled["audience"]["templateId"]
    assert sent["status"] == "sent" and sent["audienceSize"] == 1
    assert sent["audience"]["tag"] == "vip"
    assert sent["delivery"]["apple"]["reasons"] == {"not_in_wallet": 1}
