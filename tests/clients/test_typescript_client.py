"""The TypeScript client (clients/typescript) against the live service: node runs
clients/typescript/test/client.test.ts (node:test; compiled, strict, by the fixture), with the same
round as the Python client's tests: upload, create, issue, cursor pages, update, void, a
retried POST that makes one pass (answer lost, connection dropped), Retry-After on 429, typed
4xx errors, a delivered webhook verified."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.api.factories import template_body
from tests.clients.live import Live


def test_the_typescript_client_against_the_live_service(live: Live, typescript_project: Path,
                                                        png: Any) -> None:
    env = {**os.environ, "PASS_SERVICE_URL": live.base_url, "PASS_SERVICE_KEY": live.key,
           "TEMPLATE_BODY": json.dumps(template_body()), "PNG_BASE64": png()}
    done = subprocess.run(["node", "--test", "--test-reporter=tap", "build-test/test/"],
                          cwd=typescript_project, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    assert re.search(r"^# pass 8$", report, re.M), report
    assert re.search(r"^# fail 0$", report, re.M), report
