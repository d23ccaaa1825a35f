"""The generated halves of the clients are what clients/generate.py makes of today's OpenAPI
document (CI fails on a stale client), and both packages build."""

from __future__ import annotations

import filecmp
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from flask.testing import FlaskClient

from tests.clients.conftest import CLIENTS

FIX = "the clients are stale against the OpenAPI document: run `make clients` and commit"


def _generate(out: Path, *options: str) -> None:
    subprocess.run([sys.executable, str(CLIENTS / "generate.py"), "--out", str(out),
                    *options], check=True, capture_output=True, text=True, timeout=300)


def _differences(fresh: Path, relative: str) -> list[str]:
    """Files under `relative` that differ between clients/ and `fresh` (or are in one only)."""
    ours, theirs = CLIENTS / relative, fresh / relative
    if ours.is_file() or theirs.is_file():
        same = ours.is_file() and theirs.is_file() and filecmp.cmp(ours, theirs, shallow=False)
        return [] if same else [relative]
    found: list[str] = []

    def walk(compared: filecmp.dircmp[str], prefix: str) -> None:
        found.extend(f"{prefix}/{name}" for name in
                     compared.left_only + compared.right_only + compared.diff_files
                     if name != "__pycache__")
        for name, sub in compared.subdirs.items():
            if name != "__pycache__":
                walk(sub, f"{prefix}/{name}")

    walk(filecmp.dircmp(ours, theirs), relative)
    return found


def test_the_python_client_is_generated_from_the_current_document(tmp_path: Path) -> None:
    _generate(tmp_path, "--only", "python")
    stale = _differences(tmp_path, "openapi.json") + _differences(
        tmp_path, "python/src/pass_service_client/openapi")
    assert stale == [], f"{FIX}; differing: {stale[:20]}"


def test_the_typescript_client_is_generated_from_the_current_document(
        tmp_path: Path, typescript_project: Path) -> None:
    _generate(tmp_path, "--only", "typescript", "--node-modules",
              str(typescript_project / "node_modules"))
    stale = _differences(tmp_path, "openapi.json") + _differences(
        tmp_path, "typescript/src/schema.ts")
    assert stale == [], f"{FIX}; differing: {stale}"


def test_the_generator_input_is_the_served_documents_operations(client: FlaskClient) -> None:
    served = client.get("/v1/openapi.json").get_json()
    generated = json.loads((CLIENTS / "openapi.json").read_text())
    assert set(served["paths"]) == set(generated["paths"])
    for path, operations in served["paths"].items():
        for method, operation in operations.items():
            assert generated["paths"][path][method]["operationId"] == operation["operationId"]


def test_the_python_package_builds(tmp_path: Path) -> None:
    source = tmp_path / "python"
    subprocess.run(["cp", "-r", str(CLIENTS / "python"), str(source)], check=True)
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                           str(tmp_path / "dist"), str(source)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    [wheel] = (tmp_path / "dist").glob("pass_service_client-0.1.0-*.whl")
    assert len(list((tmp_path / "dist").glob("pass_service_client-0.1.0.tar.gz"))) == 1
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"pass_service_client/__init__.py", "pass_service_client/py.typed",
            "pass_service_client/transport.py",
            "pass_service_client/openapi/api/passes/issue_pass.py"} <= names
    metadata = zipfile.ZipFile(wheel).read(
        "pass_service_client-0.1.0.dist-info/METADATA").decode()
    assert "Requires-Dist: httpx" in metadata and "Requires-Dist: attrs" in metadata


def test_the_typescript_package_packs(tmp_path: Path, typescript_project: Path) -> None:
    done = subprocess.run(["npm", "pack", "--json", "--pack-destination", str(tmp_path)],
                          cwd=typescript_project, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    [packed] = json.loads(done.stdout)
    files = {entry["path"] for entry in packed["files"]}
    assert {"package.json", "dist/index.js", "dist/index.d.ts", "dist/schema.d.ts",
            "dist/retry.js", "dist/webhooks.js"} <= files
    assert not any(name.startswith(("src/", "test/", "node_modules/")) for name in files)
    assert (tmp_path / packed["filename"]).exists()


def test_the_python_clients_imports_are_its_declared_dependencies() -> None:
    """What the package (generated code too) imports is in clients/python/pyproject.toml, and
    the root dev extra installs each for the tests."""
    import ast
    import tomllib
    from importlib import metadata

    from tests.test_dependencies import _name, declared

    modules = set()
    for path in (CLIENTS / "python" / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.split(".")[0])
    third_party = modules - set(sys.stdlib_module_names) - {"pass_service_client"}
    distributions = metadata.packages_distributions()
    needed = {_name(distributions[module][0]) for module in third_party}
    project = tomllib.loads((CLIENTS / "python" / "pyproject.toml").read_text())["project"]
    assert needed == {_name(r) for r in project["dependencies"]} == {
        "httpx", "attrs"}
    assert needed <= declared() | declared("dev")
