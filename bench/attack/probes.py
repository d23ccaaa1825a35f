"""Part 4: the findings of issue 22, one probe each, against a server with the configured
limits (the bounds probe is in bounds.py)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlencode

from bench.attack.bounds import bounds_probe
from bench.attack.client import CSRF, Answer, Dashboard, call, error_validator
from bench.attack.report import Row, at_most, probe, statuses
from bench.attack.world import new_org, seed_resources, template_body
from bench.server import Server


@probe("4 text", "lone surrogates")
def text_probe(server: Server, a: dict[str, Any], ids: dict[str, str]) -> list[Row]:
    """A lone surrogate ("\\udfff" in JSON) where text enters: 400, never stored."""
    port, key, bad = server.port, a["keys"]["test"], "x\udfff"
    sent = {"holder name": ("POST", "/v1/passes", {
                "templateId": ids["template_id"], "holderName": bad,
                "fieldValues": {"member": "Ada"}}),
            "template name": ("POST", "/v1/templates", template_body(bad)),
            "field value (issue)": ("POST", "/v1/passes", {
                "templateId": ids["template_id"], "fieldValues": {"member": bad}}),
            "field value (update)": ("PATCH", f"/v1/passes/{ids['pass_id']}",
                                     {"fieldValues": {"member": bad}})}
    rows = []
    for name, (method, path, body) in sent.items():
        answer = call(port, method, path, key=key, body=body)
        seen = f"{answer.status} {answer.error_code()}"
        page = (answer.json() or {}).get("distributionUrl")
        if answer.status < 300 and page:  # it was stored: what does the holder page do?
            seen += f"; holder page {call(port, 'GET', page.split(str(port), 1)[1]).status}"
        rows.append(Row("4 text", f"lone surrogate in {name}", seen, "400",
                        answer.status == 400))
    answer = call(port, "POST", "/v1/templates", key=key, body=template_body("   "))
    rows.append(Row("4 text", "template name of only spaces",
                    f"{answer.status} {answer.error_code()}", "400", answer.status == 400))
    return rows


@probe("4 sessions", "copied session cookie after sign-out")
def session_probe(server: Server, a: dict[str, Any]) -> list[Row]:
    """A copy of a signed-in cookie, used after sign-out to create an API key."""
    import requests

    browser = Dashboard(server.port, a["dashboard"]["email"], a["dashboard"]["password"])
    copied = {cookie.name: cookie.value or "" for cookie in browser.http.cookies}
    form = {"name": "stolen", "environment": "test", "csrf_token": browser.token}
    base = browser.base + "/dashboard/test/keys"
    before = requests.get(base, cookies=copied, allow_redirects=False, timeout=60).status_code
    browser.post("/dashboard/logout")
    after = requests.post(base, data=form, cookies=copied, allow_redirects=False, timeout=60)
    where = after.headers.get("Location", "")
    to_sign_in = after.status_code in (302, 303) and "/dashboard/login" in where
    return [Row("4 sessions", "copied cookie, after sign-out: create an API key",
                f"{after.status_code} {where} (before: GET {before})", "3xx to sign-in",
                before == 200 and (to_sign_in or after.status_code == 401))]


def burst(count: int, call_once: Callable[[], Answer]) -> tuple[list[Answer], float]:
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: call_once(), range(count)))
    return answers, time.monotonic() - started


@probe("4 limits", "rate limits across 2 workers")
def limits_probe(server: Server, a: dict[str, Any], data: dict[str, str],
                 fresh: dict[str, Any]) -> list[Row]:
    """Each limit, hit by 8 clients at once across both workers: the requests let through."""
    from webapp.config import DEFAULTS

    port, part, rows = server.port, "4 limits", []
    validator = error_validator(port)
    burst(24, lambda: call(port, "GET", "/v1/me", key=a["keys"]["live"]))  # wake both workers
    per_second = DEFAULTS["RATE_LIMIT_TEST"]
    answers, seconds = burst(4 * per_second,
                             lambda: call(port, "GET", "/v1/me", key=fresh["keys"]["test"]))
    accepted = sum(answer.status == 200 for answer in answers)
    rows.append(at_most(part, f"test key, {4 * per_second} requests in {seconds:.2f} s: "
                        "accepted", accepted, per_second))
    limited = [x for x in answers if x.status == 429]
    shape = [x.shape_problem(validator) for x in limited]
    rows.append(Row(part, "API 429 answers in the error shape",
                    f"{shape.count(None)} of {len(limited)}", "all",
                    bool(limited) and shape.count(None) == len(limited)))
    per_minute = DEFAULTS["RATE_LIMIT_UNAUTHENTICATED"]
    answers, _ = burst(per_minute + 20, lambda: call(port, "GET", "/v1/me", source="127.0.0.4"))
    rows.append(at_most(part, f"/v1 without a key, {per_minute + 20} requests: not 429",
                        sum(x.status != 429 for x in answers), per_minute))
    per_minute = DEFAULTS["RATE_LIMIT_PUBLIC"]
    answers, _ = burst(per_minute + 40, lambda: call(port, "GET", f"/p/{data['shortId']}",
                                                     source="127.0.0.3"))
    rows.append(at_most(part, f"pass page, {per_minute + 40} requests: accepted",
                        sum(x.status == 200 for x in answers), per_minute))
    pages = {x.headers.get_content_type() for x in answers if x.status == 429}
    rows.append(Row(part, "pass page 429 answers", ", ".join(sorted(pages)) or "none",
                    "text/html", pages == {"text/html"}))
    rows.append(sign_in_burst(port))
    return rows


def sign_in_burst(port: int, attempts: int = 16, limit: int = 10) -> Row:
    """Wrong passwords from one address (10 a minute by default): the attempts answered."""
    page = call(port, "GET", "/dashboard/login", source="127.0.0.2")
    cookie = (page.headers.get("Set-Cookie") or "").split(";")[0]
    match = CSRF.search(page.body.decode())
    form = urlencode({"email": "nobody@attack.example", "password": "wrong",
                      "csrf_token": match.group(1) if match else ""})
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
    answers, _ = burst(attempts, lambda: call(port, "POST", "/dashboard/login", headers=headers,
                                              data=form.encode(), source="127.0.0.2"))
    return at_most("4 limits", f"sign-in, {attempts} wrong passwords: not 429",
                   sum(x.status != 429 for x in answers), limit)


@probe("4 edges", "bodies and headers at gunicorn's edge")
def edge_probe(server: Server, a: dict[str, Any]) -> list[Row]:
    """Chunked bodies over the limit, and gunicorn's own 414 and 431 answers."""
    port, key, part, rows = server.port, a["keys"]["test"], "4 edges", []
    validator = error_validator(port)

    def chunks(megabytes: int) -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(megabytes * 16):
            yield b"x" * 65536
        yield b'"}'

    for path, megabytes in (("/v1/templates", 2), ("/v1/assets", 9)):
        answer = call(port, "POST", path, key=key, data=chunks(megabytes),
                      headers={"Content-Type": "application/json"})
        rows.append(Row(part, f"chunked {megabytes} MiB body to POST {path}",
                        f"{answer.status} {answer.error_code()}", "413", answer.status == 413))
    long_target = call(port, "GET", "/v1/me?q=" + "a" * 8_000, key=key)
    big_header = call(port, "GET", "/v1/me", key=key, headers={"X-Filler": "a" * 9_000})
    many = call(port, "GET", "/v1/me", key=key, headers={f"X-H{i}": "1" for i in range(120)})
    for name, answer, status in (("8,000-byte request target", long_target, 414),
                                 ("9,000-byte header", big_header, 431),
                                 ("120 headers", many, 431)):
        problem = answer.shape_problem(validator)
        rows.append(Row(part, f"gunicorn: {name} on /v1",
                        f"{answer.status} {answer.headers.get_content_type()}"
                        + (f" ({problem[:40]})" if problem else " error shape"),
                        f"{status} in the error shape", answer.status == status and not problem))
    return rows


@probe("4 webhooks", "loopback written another way")
def webhook_probe(server: Server, a: dict[str, Any]) -> list[Row]:
    rows = []
    for url in ("http://127.1/", "http://0x7f.1/", "http://2130706433/",
                "http://017700000001/", "http://[2002:7f00:1::]/", "http://[::ffff:127.0.0.1]/"):
        answer = call(server.port, "POST", "/v1/webhook-endpoints", key=a["keys"]["test"],
                      body={"url": url})
        rows.append(Row("4 webhooks", f"create an endpoint at {url}",
                        f"{answer.status} {answer.error_code()}", "400", answer.status == 400))
    return rows


@probe("4 apple log", "Apple /log endpoint")
def apple_log_probe(server: Server) -> list[Row]:
    """200 requests of 15 lines of 1,000 characters (the first attack: 21.6 MB of log)."""
    body = {"logs": ["x" * 1_000] * 15}
    size = server.log.stat().st_size
    answers, _ = burst(200, lambda: call(server.port, "POST", "/wallet/apple/v1/log",
                                         body=body, source="127.0.0.5"))
    time.sleep(0.5)  # the workers' last lines
    written = server.log.stat().st_size - size
    seen = statuses(Counter(answer.status for answer in answers))
    return [at_most("4 apple log", f"log bytes, 200 requests of 15 KB ({seen})",
                    written, 1_200_000)]


@probe("4 headers", "security headers")
def headers_probe(server: Server) -> list[Row]:
    answer = call(server.port, "GET", "/dashboard/login")
    wanted = {"Content-Security-Policy": "frame-ancestors 'none'",
              "X-Content-Type-Options": "nosniff", "Referrer-Policy": "",
              "Cache-Control": "no-store"}
    missing = [name for name, part in wanted.items()
               if answer.headers.get(name) is None or part not in answer.headers[name]]
    return [Row("4 headers", "security headers of the sign-in page",
                "missing: " + ", ".join(missing) if missing else "all 4", "all 4", not missing)]


def probes(server: Server) -> list[Row]:
    """The findings of issue 22 against a server with the configured limits."""
    a, b, fresh = (new_org(server, name) for name in ("Probe A", "Probe B", "Probe limits"))
    ids, data = seed_resources(server.port, a["keys"]["test"], "probe-a")
    return (bounds_probe(server, a, b) + text_probe(server, a, ids) + session_probe(server, a)
            + limits_probe(server, a, data, fresh) + edge_probe(server, a)
            + webhook_probe(server, a) + apple_log_probe(server) + headers_probe(server))
