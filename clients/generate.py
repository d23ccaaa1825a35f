"""Regenerate the client libraries from the API's OpenAPI document (`make clients`).

    python clients/generate.py [--out DIR] [--node-modules DIR] [--only python|typescript]

Writes, under DIR (default: clients/ itself), the generators' input `openapi.json`, the Python
client's generated package `python/src/pass_service_client/openapi/` (openapi-python-client)
and the TypeScript client's types `typescript/src/schema.ts` (openapi-typescript, from the
`npm ci` install in clients/typescript/node_modules). The document comes from the app itself,
without a server or a database; the same input always gives the same files (sorted keys, no
dates), so tests/clients/test_generated.py regenerates into a temporary folder and diffs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

CLIENTS = Path(__file__).resolve().parent
ROOT = CLIENTS.parent
# What this script writes, relative to the output folder: nothing else there is generated.
DOCUMENT = "openapi.json"
PYTHON_PACKAGE = "python/src/pass_service_client/openapi"
TYPESCRIPT_SCHEMA = "typescript/src/schema.ts"
GENERATED = (DOCUMENT, PYTHON_PACKAGE, TYPESCRIPT_SCHEMA)
SERVER = "https://passes.example.com"  # a placeholder: each client is given its base URL


def document() -> dict[str, Any]:
    """The served /v1/openapi.json, as the generators read it.

    Two changes. `Idempotency-Key` is optional here, because both clients add one to every
    write themselves (once per call, reused by its retries); a caller may still pass its own.
    And the rules between members (`if`/`then`/`else`, and `anyOf`/`allOf` over an object
    whose members are already typed) are left out: the generators would read them as types
    (openapi-python-client writes a broken model for them); the server still checks them.
    """
    sys.path.insert(0, str(ROOT))
    from webapp import create_app
    from webapp.api.openapi import build

    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"TESTING": True, "SECRET_KEY": "generate", "BASE_URL": SERVER,
                          "DATABASE_URL": "sqlite://"})
        app.instance_path = instance
        with app.app_context():
            built = build()
    for operations in built["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "header" and parameter["name"] == "Idempotency-Key":
                    parameter["required"] = False
                    parameter["description"] += " The client makes one when it is left out."
    return _shapes_only(built)


def _shapes_only(node: Any) -> Any:
    """`node` without the rules between members (see `document`)."""
    if isinstance(node, list):
        return [_shapes_only(item) for item in node]
    if not isinstance(node, dict):
        return node
    typed = "type" in node or "properties" in node
    rules = {"if", "then", "else"} | ({"anyOf", "allOf"} if typed else set())
    return {key: _shapes_only(value) for key, value in node.items() if key not in rules}


def python(source: Path, package: Path) -> None:
    """openapi-python-client's package (no project files: clients/python has its own)."""
    tool = Path(sys.executable).parent / "openapi-python-client"
    with tempfile.TemporaryDirectory() as work:
        target = Path(work) / "openapi"
        env = {**os.environ, "PATH": f"{tool.parent}{os.pathsep}{os.environ['PATH']}"}
        subprocess.run([str(tool), "generate", "--path", str(source), "--meta", "none",
                        "--output-path", str(target), "--config",
                        str(CLIENTS / "python" / "generator.yaml")],
                       check=True, env=env, cwd=work, stdout=subprocess.DEVNULL)
        shutil.rmtree(package, ignore_errors=True)
        shutil.copytree(target, package,
                        ignore=shutil.ignore_patterns("__pycache__", ".ruff_cache"))


def typescript(source: Path, schema: Path, node_modules: Path) -> None:
    """openapi-typescript's `paths` and `components` types, which openapi-fetch reads."""
    tool = node_modules / ".bin" / "openapi-typescript"
    if not tool.exists():
        raise SystemExit(f"{tool} is missing: run `npm ci` in clients/typescript first "
                         "(`make clients` does)")
    # A member with a default stays optional in a request (the server fills it in); what an
    # answer always has, its schema's `required` says.
    subprocess.run([str(tool), str(source), "--output", str(schema), "--alphabetize",
                    "--default-non-nullable", "false"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=CLIENTS)
    parser.add_argument("--node-modules", type=Path,
                        default=CLIENTS / "typescript" / "node_modules")
    parser.add_argument("--only", choices=["python", "typescript"])
    args = parser.parse_args()
    out: Path = args.out.resolve()
    source = out / DOCUMENT
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False)
                      + "\n")
    if args.only != "typescript":
        python(source, out / PYTHON_PACKAGE)
    if args.only != "python":
        (out / TYPESCRIPT_SCHEMA).parent.mkdir(parents=True, exist_ok=True)
        typescript(source, out / TYPESCRIPT_SCHEMA, args.node_modules.resolve())


if __name__ == "__main__":
    main()
