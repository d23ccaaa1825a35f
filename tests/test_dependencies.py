"""Every third-party module that webapp/ and jobs/ import is a declared runtime dependency.

A module the dev extra happens to pull in (as `requests` once was) would make `make test` pass
and `make run` fail on a bare machine, so the check reads the code's own imports and holds each
against `[project.dependencies]` alone.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib import metadata, util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OWN = {"webapp", "jobs"}


def _name(requirement: str) -> str:
    """The normalized distribution name of a PEP 508 requirement."""
    raw = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert raw, requirement
    return re.sub(r"[-_.]+", "-", raw.group(0)).lower()


def declared(extra: str | None = None) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["optional-dependencies"][extra] if extra else project["dependencies"]
    return {_name(r) for r in requirements}


def imported_modules(package: str) -> dict[str, str]:
    """Absolute imports of a package's modules: dotted module name -> first file importing it.
    Imports under `if TYPE_CHECKING:` are for the type checker only and do not count."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        checking_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If)
                         and _is_type_checking(node.test)
                         for statement in node.body for inner in ast.walk(statement)}
        for node in ast.walk(tree):
            if id(node) in checking_only:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def distributions_of(module: str) -> set[str]:
    """The distributions that provide `module` (a namespace package may have several)."""
    top = module.split(".")[0]
    candidates = {_name(d) for d in metadata.packages_distributions().get(top, [])}
    if len(candidates) <= 1:
        return candidates
    spec = util.find_spec(module)  # e.g. google.auth: which of the google-* owns it
    origin = Path(spec.origin).resolve() if spec and spec.origin else None
    owners = {dist for dist in candidates if origin and any(
        Path(str(metadata.distribution(dist).locate_file(f))).resolve() == origin
        for f in metadata.distribution(dist).files or [])}
    return owners or candidates


def third_party_imports() -> dict[str, str]:
    modules = {**imported_modules("webapp"), **imported_modules("jobs")}
    return {m: where for m, where in modules.items()
            if m.split(".")[0] not in sys.stdlib_module_names | OWN | {"__future__"}}


def missing_runtime(imports: dict[str, str], runtime: set[str]) -> list[str]:
    """What is wrong with `imports` (module -> file importing it) against `runtime`."""
    missing = []
    for module, where in sorted(imports.items()):
        dists = distributions_of(module)
        if not dists:
            missing.append(f"{module} (imported in {where}) is not installed at all")
        elif not dists & runtime:
            missing.append(f"{module} (imported in {where}) comes from {sorted(dists)}, "
                           "which [project.dependencies] does not declare")
    return missing


def test_every_runtime_import_is_a_declared_runtime_dependency() -> None:
    missing = missing_runtime(third_party_imports(), declared())
    assert not missing, "\n".join(missing)


def test_the_check_sees_third_party_imports() -> None:
    # Guards the walk itself: these are imported by the app and must be found.
    modules = third_party_imports()
    assert {"flask", "sqlalchemy", "requests", "google.auth"} <= set(modules)
    assert distributions_of("google.auth") == {"google-auth"}
    assert "requests" in declared()  # declared for runtime, not only brought by another


def test_a_dev_only_distribution_does_not_count() -> None:
    # pytest is installed (dev extra) but must never satisfy a runtime import.
    assert distributions_of("pytest") == {"pytest"}
    assert missing_runtime({"pytest": "webapp/x.py"}, declared()) == [
        "pytest (imported in webapp/x.py) comes from ['pytest'], which [project.dependencies] "
        "does not declare"]
    assert missing_runtime({"flask": "webapp/x.py"}, declared()) == []
    assert missing_runtime({"no_such_module_here": "jobs/x.py"}, declared()) == [
        "no_such_module_here (imported in jobs/x.py) is not installed at all"]


def _pins(lock: str) -> dict[str, str]:
    text = (ROOT / "requirements" / lock).read_text()
    return {_name(m.group(1)): m.group(2)
            for m in re.finditer(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", text, re.M)}


def test_the_locks_pin_every_declared_dependency_within_its_range() -> None:
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for lock, requirements in (("runtime.txt", project["dependencies"]),
                               ("dev.txt", project["dependencies"]
                                + project["optional-dependencies"]["dev"])):
        pins = _pins(lock)
        for line in requirements:
            requirement = Requirement(line)
            name = _name(requirement.name)
            assert name in pins, f"{name} is declared but not in requirements/{lock}: make lock"
            assert requirement.specifier.contains(pins[name], prereleases=True), (
                f"requirements/{lock} pins {name}=={pins[name]} outside {requirement}: make lock")


def test_the_runtime_lock_is_the_dev_lock_s_versions() -> None:
    runtime, dev = _pins("runtime.txt"), _pins("dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime
    text = (ROOT / "requirements" / "runtime.txt").read_text()
    assert "--hash=sha256:" in text and "--index-url" not in text and "file://" not in text
