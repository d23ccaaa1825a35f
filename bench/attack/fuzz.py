"""Part 1: schemathesis over every documented operation, over HTTP against the live server."""

from __future__ import annotations

import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.attack.client import error_shape_problem, error_validator
from bench.attack.report import Row, at_most, note, statuses
from bench.attack.world import seed_resources
from bench.server import Server

HTTP_METHODS = {"get", "put", "post", "delete", "patch"}


@dataclass
class Tally:
    calls: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: int = 0
    bad_shape: int = 0
    undocumented: int = 0
    transport: int = 0
    unsatisfiable: list[str] = field(default_factory=list)


def fuzz(server: Server, examples: int, seed_value: int) -> list[Row]:
    """Schemathesis over every documented operation, `examples` positive and as many
    negative cases each, against the live server."""
    import requests
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, seed, settings
    from hypothesis import strategies as st
    from hypothesis.errors import Unsatisfiable
    from schemathesis.generation import GenerationMode

    base = f"http://127.0.0.1:{server.port}"
    ids, _data = seed_resources(server.port, server.key, "fuzz")
    config = schemathesis.Config.from_dict({"generation": {"with-security-parameters": False}})
    schema = schemathesis.openapi.from_url(f"{base}/v1/openapi.json", config=config)
    documented = {(path, method): set(operation.get("responses", {}))
                  for path, item in schema.raw_schema["paths"].items()
                  for method, operation in item.items() if method in HTTP_METHODS}

    @schema.hook
    def before_generate_path_parameters(context: Any, strategy: Any) -> Any:
        """Half of the time, the path names a resource that exists (past the 404)."""
        def real(params: Any) -> Any:
            return {n: ids.get(n, v) for n, v in params.items()} \
                if isinstance(params, dict) else params
        return st.one_of(strategy, strategy.map(real))

    @schema.hook
    def before_generate_body(context: Any, strategy: Any) -> Any:
        def real(body: Any) -> Any:
            return {**body, "templateId": ids["template_id"]} \
                if isinstance(body, dict) and "templateId" in body else body
        return st.one_of(strategy, strategy.map(real))

    validator = error_validator(server.port)
    session = requests.Session()
    tally = Tally()
    from schemathesis.core.result import Ok

    results = list(schema.get_all_operations())  # an operation it cannot read is an Err
    operations = [result.ok() for result in results if isinstance(result, Ok)]

    def send(case: Any) -> None:
        headers = {"Authorization": f"Bearer {server.key}"}
        key = (case.headers or {}).get("Idempotency-Key")
        if isinstance(key, str) and re.fullmatch(r"[ -~]{1,255}", key):
            headers["Idempotency-Key"] = str(uuid.uuid4())  # a generated "0" is not reused
        tally.calls += 1
        try:
            response = case.call(base_url=base, session=session, headers=headers, timeout=60)
        except requests.RequestException as exc:
            tally.transport += 1
            note("fuzz", f"{case.operation.label}: {type(exc).__name__}: {exc}")
            return
        status = response.status_code
        tally.statuses[status] += 1
        label = case.operation.label
        if status >= 500:
            tally.server_errors += 1
            note("fuzz", f"{status} on {label}: {response.text[:300]}")
        if str(status) not in documented[case.operation.path, case.operation.method.lower()]:
            tally.undocumented += 1
            note("fuzz", f"undocumented {status} on {label}: {response.text[:200]}")
        if status >= 400:
            headers = {name: values[0] for name, values in response.headers.items()}
            problem = error_shape_problem(headers.get("content-type", ""),
                                          response.content, headers.get("request-id", ""),
                                          validator)
            if problem:
                tally.bad_shape += 1
                note("fuzz", f"{status} on {label} not in the error shape: {problem}")

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            @seed(seed_value)
            @settings(max_examples=examples, database=None, deadline=None,
                      suppress_health_check=list(HealthCheck), phases=[Phase.generate])
            @given(case=operation.as_strategy(mode))
            def run(case: Any) -> None:
                send(case)

            try:
                run()
            except Unsatisfiable:  # no invalid request exists (GET /v1/me)
                tally.unsatisfiable.append(f"{operation.label} {mode.value}")
    part = "1 fuzz"
    return [
        Row(part, "operations fuzzed", f"{len(operations)} of {len(results)} documented",
            f"{len(documented)}", len(operations) == len(documented)),
        Row(part, f"calls (up to {examples} valid and {examples} invalid per operation)",
            f"{tally.calls:,}"),
        Row(part, "answers by status", statuses(tally.statuses)),
        at_most(part, "5xx answers", tally.server_errors, 0),
        at_most(part, "error answers not in the documented shape", tally.bad_shape, 0),
        at_most(part, "statuses the operation does not document", tally.undocumented, 0),
        at_most(part, "connection errors and timeouts", tally.transport, 0),
        Row(part, "operations with no invalid case to make",
            f"{len(tally.unsatisfiable)} (any string is an ID)"),
    ]
