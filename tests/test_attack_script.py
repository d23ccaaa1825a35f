"""bench/attack/, the attack run of issue 22, keeps working: its fuzz, tenant and kill parts
run here at a tiny scale against the real service (gunicorn, 2 workers, SQLite), and every
figure must hold. Its checks are also shown to catch what they look for.
"""

from __future__ import annotations

import pytest

from tests.support.gunicorn import require_gunicorn


def test_fuzz_tenants_and_kills_at_a_tiny_scale_find_nothing() -> None:
    require_gunicorn()
    from bench.attack import attack
    from bench.attack.report import table

    rows = attack("sqlite", ["fuzz", "tenants", "kills"], examples=2, kill_count=2, clients=4,
                  kill_every=0.5)
    assert [row for row in rows if row.ok is False] == [], table(rows)
    figures = {row.measure: row.value for row in rows}
    fuzzed, _, documented = figures["operations fuzzed"].partition(" of ")
    assert documented == f"{fuzzed} documented" and int(fuzzed) >= 33
    assert figures["5xx answers"] == "0"
    assert figures["leaks (2xx, or A's IDs or data in the answer)"] == "0"
    assert figures["workers killed (SIGKILL) / asked"] == "2 / 2"
    assert figures["passes lost (201, then not listed)"] == "0"
    assert figures["passes doubled (one key, two passes)"] == "0"
    # The tenant part really reached the lookups: mostly 404s, not refused bodies.
    api = figures["API requests on A's resources (B test, B live, A live)"]
    assert int(api.split(" ")[0]) > 100 and "404 x" in api


def test_a_leak_is_a_2xx_on_a_resource_or_data_the_request_did_not_hold() -> None:
    from bench.attack.tenants import Attempt, leaked

    direct = Attempt("GET", "/v1/passes/pass_a")
    listing = Attempt("GET", "/v1/passes", direct=False)
    assert leaked(direct, 200, b"{}", []) == "status 200"
    assert leaked(direct, 302, b"", []) == "status 302"
    assert leaked(direct, 404, b'{"message": "No such pass: pass_a"}', ["pass_a"]) is None
    assert leaked(listing, 200, b'{"data": [{"id": "pass_a"}]}', ["pass_a"]) == \
        "shows ['pass_a']"
    assert leaked(listing, 200, b'{"data": []}', ["pass_a"]) is None


def test_an_error_answer_out_of_the_documented_shape_is_caught() -> None:
    from jsonschema import Draft202012Validator

    from bench.attack.client import error_shape_problem

    validator = Draft202012Validator({
        "type": "object", "required": ["error", "requestId"],
        "properties": {"error": {"type": "object", "required": ["message"]},
                       "requestId": {"type": "string"}}})
    good = b'{"error": {"message": "No."}, "requestId": "req_1"}'
    assert error_shape_problem("application/json", good, "req_1", validator) is None
    assert error_shape_problem("text/html", b"<h1>No</h1>", "req_1", validator) == \
        "content type 'text/html'"
    assert error_shape_problem("application/json", b"{", "req_1", validator) == "not JSON"
    assert error_shape_problem("application/json", b'{"error": {"message": "No."}}', "req_1",
                               validator) == "'requestId' is a required property"
    assert error_shape_problem("application/json", good, "req_2", validator) == \
        "requestId differs from the Request-Id header"


def test_the_table_aligns_and_marks_each_row() -> None:
    from bench.attack.report import Row, at_most, table

    text = table([at_most("1 fuzz", "5xx answers", 0, 0), at_most("3 kills", "lost", 2, 0),
                  Row("2 tenants", "requests", "159")])
    lines = text.splitlines()
    assert lines[0].split() == ["part", "measure", "value", "expected", "result"]
    assert lines[2].split()[-1] == "PASS" and lines[3].split()[-1] == "FAIL"
    assert lines[4].split() == ["2", "tenants", "requests", "159"]
    column = lines[0].index("value")  # every value starts under its heading
    assert [line[column:].split()[0] for line in lines[2:]] == ["0", "2", "159"]


def test_an_unknown_part_is_refused() -> None:
    from bench.attack import main

    with pytest.raises(SystemExit) as exit_:
        main(["--parts", "fuzz,everything"])
    assert exit_.value.code == 2


def test_python_m_bench_exits_with_a_failed_benchmark_status(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m bench attack` exits 1 when the attack has a FAIL row (other benchmarks
    return None, which is 0)."""
    import sys
    import types

    from bench.__main__ import main

    for name, status in (("failing", 1), ("quiet", None)):
        module = types.ModuleType(f"bench.{name}")
        module.main = lambda status=status: status  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, f"bench.{name}", module)
    assert main(["quiet", "failing", "quiet"]) == 1
    assert main(["quiet"]) == 0
    assert capsys.readouterr().out.count("== quiet ==") == 3
