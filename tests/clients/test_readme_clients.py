"""The README's two client examples run, as written, against the live service (the key, the
address and the template's ID put in for their placeholders)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.api.factories import template_body
from tests.clients.conftest import CLIENTS
from tests.clients.live import Live
from tests.conftest import Api

README = Path(__file__).resolve().parents[2] / "README.md"


def example(marker: str, language: str) -> str:
    found = re.search(rf"<!-- {marker}[^>]*-->\n```{language}\n(.*?)```", README.read_text(),
                      re.S)
    assert found, f"README.md has no block marked <!-- {marker} -->"
    return found.group(1)


def filled(code: str, live: Live, template_id: str) -> str:
    return (code.replace("svc_test_...", live.key)
            .replace("http://127.0.0.1:5000", live.base_url)
            .replace("tmpl_...", template_id))


def test_the_python_example_runs(live: Live, api: Api) -> None:
    template_id = api.post("/v1/templates", template_body()).get_json()["id"]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(filled(example("readme-python-client", "python"), live, template_id), {})
    lines = printed.getvalue().splitlines()
    assert re.fullmatch(r"pass_\w+ active", lines[0]), lines
    assert lines[-1].startswith("not_found_error ") and lines[-1].split()[-1].startswith("req_")


def test_the_python_example_type_checks(tmp_path: Path) -> None:
    """`ok` and `paginate` give the generated types (mypy --strict sees Pass, not Any)."""
    code = example("readme-python-client", "python")
    (tmp_path / "readme.py").write_text(code + "reveal_type(item)\nreveal_type(each)\n")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--follow-imports=silent", "readme.py"], cwd=tmp_path,
                          env={**os.environ, "MYPYPATH": str(CLIENTS / "python" / "src")},
                          capture_output=True, text=True, timeout=300, check=False)
    revealed = 'Revealed type is "pass_service_client.openapi.models.pass_.Pass"'
    assert done.stdout.count(revealed) == 2, done.stdout
    assert "error" not in done.stdout, done.stdout


def test_the_typescript_example_compiles_and_runs(live: Live, api: Api,
                                                  typescript_project: Path) -> None:
    template_id = api.post("/v1/templates", template_body()).get_json()["id"]
    folder = typescript_project / "readme-check"
    folder.mkdir(exist_ok=True)
    (folder / "readme.ts").write_text(filled(example("readme-typescript-client", "ts"), live,
                                             template_id))
    tsc = typescript_project / "node_modules" / ".bin" / "tsc"
    compiled = subprocess.run([str(tsc), "--strict", "--module", "nodenext", "--moduleResolution",
                               "nodenext", "--target", "es2022", "--types", "node",
                               "--skipLibCheck", "readme-check/readme.ts"],
                              cwd=typescript_project, capture_output=True, text=True,
                              timeout=300, check=False)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    done = subprocess.run(["node", "readme-check/readme.js"], cwd=typescript_project,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"pass_\w+ active", lines[0]), lines
    assert lines[-1].startswith("not_found_error req_"), lines
