"""Webhook URLs that name a loopback, private or link-local address in a form other than the
plain one are refused when the endpoint is created or changed (400 `url_not_allowed`), just
as a delivery to them is refused (`address_not_allowed`): one rule, `address_allowed`, and
one reading of the host, the resolver's."""

from __future__ import annotations

import ipaddress

import pytest
from flask import Flask

from tests.conftest import Api, assert_error
from tests.support.receiver import Receiver
from tests.webhooks.conftest import endpoint
from webapp.services.webhooks import http

# Each names 127.0.0.1, ::1, 10.0.0.1, 0.0.0.0 or 169.254.169.254 (cloud metadata).
NUMERIC_FORMS = [
    "http://127.1/x",                       # inet_aton: a.b -> a.0.0.b
    "http://127.0.1/x",                     # a.b.c -> a.b.0.c
    "http://0x7f.1/x",                      # hexadecimal parts
    "http://0x7f.0x0.0x0.0x1/x",
    "http://0x7f000001/x",
    "http://2130706433/x",                  # one 32-bit number
    "http://017700000001/x",                # ... in octal
    "http://0177.0.0.1/x",                  # octal parts
    "http://127.000.000.001/x",
    "http://\uff11\uff12\uff17.0.0.1/x",       # full-width digits (IDNA)
    "http://127\u30020\u30020\u30021/x",     # ideographic full stops (IDNA)
    "http://10.1/x",
    "http://0x0a.0.0.1/x",
    "http://169.254.43518/x",               # 169.254.169.254
    "http://0/x",                           # 0.0.0.0
    "http://0.0.0.0/x",
    "http://[::1]/x",
    "http://[0:0:0:0:0:0:0:1]/x",
    "http://[::ffff:127.0.0.1]/x",          # IPv4-mapped
    "http://[::ffff:7f00:1]/x",
    "http://[::ffff:a9fe:a9fe]/x",
    "http://[::127.0.0.1]/x",               # IPv4-compatible (deprecated)
    "http://[2002:7f00:1::]/x",             # 6to4
    "http://[2002:a00:1::1]/x",
    "http://[2002:a9fe:a9fe::]/x",
    "http://[64:ff9b::7f00:1]/x",           # NAT64
    "http://[64:ff9b::10.0.0.1]/x",
    "http://[fe80::1%25eth0]/x",            # link-local with a zone
]
WITH_A_TRAILING_DOT = ["http://127.0.0.1./x", "http://127.1./x", "http://0x7f.1./x",
                       "http://2130706433./x"]
LOCAL_NAMES = ["http://localhost./x", "http://LOCALHOST/x", "http://api.localhost./x",
               "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/x"]


@pytest.fixture
def private_refused(app: Flask) -> None:
    app.config["WEBHOOKS_ALLOW_PRIVATE_NETWORKS"] = False


@pytest.mark.usefixtures("private_refused")
@pytest.mark.parametrize("url", NUMERIC_FORMS + WITH_A_TRAILING_DOT + LOCAL_NAMES)
def test_creating_an_endpoint_for_a_private_address_in_any_form_is_400(api: Api,
                                                                      url: str) -> None:
    error = assert_error(api.post("/v1/webhook-endpoints", {"url": url}), 400,
                         "invalid_request_error", "url_not_allowed", "url")
    assert error["message"] == (  # the setting that allows it, named
        "The URL names a loopback, private or link-local address, which deliveries may not "
        "reach. (A server that should deliver to its own network sets "
        "WEBHOOKS_ALLOW_PRIVATE_NETWORKS=1.)")


@pytest.mark.usefixtures("private_refused")
@pytest.mark.parametrize("url", ["http://127.1/x", "http://2130706433./x",
                                 "http://[2002:7f00:1::]/x", "http://[64:ff9b::a00:1]/x"])
def test_changing_an_endpoints_url_to_a_private_address_is_400(api: Api, url: str) -> None:
    hook = endpoint(api, "https://hooks.example.com/x")
    assert_error(api.patch(f"/v1/webhook-endpoints/{hook['id']}", {"url": url}), 400,
                 "invalid_request_error", "url_not_allowed", "url")
    assert api.get(f"/v1/webhook-endpoints/{hook['id']}").get_json()["url"] == \
        "https://hooks.example.com/x"


@pytest.mark.parametrize("url", NUMERIC_FORMS)
def test_a_delivery_refuses_what_creation_refuses(url: str) -> None:
    """Refused before any connection. (A name with a trailing dot is looked up, and the
    answer checked by the same rule.)"""
    outcome = http.post(url, b"{}", {}, timeout=2, allow_private=False)
    assert outcome.error_code == "address_not_allowed"
    assert outcome.status is None


@pytest.mark.parametrize("url", ["http://127.1:{port}/hooks", "http://0x7f.1:{port}/hooks",
                                 "http://2130706433:{port}/hooks",
                                 "http://[::ffff:127.0.0.1]:{port}/hooks"])
def test_where_private_addresses_are_allowed_every_form_is_accepted_and_delivered_to(
        app: Flask, api: Api, receiver: Receiver, url: str) -> None:
    url = url.format(port=receiver.port)
    assert endpoint(api, url)["url"] == url
    assert http.post(url, b"{}", {}, timeout=2, allow_private=True).status == 200
    assert len(receiver.wait_for(1)) == 1


@pytest.mark.parametrize("url", ["http://169.254.43518/x", "http://[::ffff:a9fe:a9fe]/x",
                                 "http://[2002:a9fe:a9fe::]/x", "http://[64:ff9b::a9fe:a9fe]/x",
                                 "http://[::127.0.0.1]/x", "http://0/x"])
def test_link_local_and_unspecified_forms_are_refused_even_where_private_is_allowed(
        api: Api, url: str) -> None:
    assert_error(api.post("/v1/webhook-endpoints", {"url": url}), 400,
                 "invalid_request_error", "url_not_allowed", "url")


@pytest.mark.usefixtures("private_refused")
@pytest.mark.parametrize("url", [
    "https://93.184.216.34/x", "https://[2606:2800:220:1::1]/x",
    "https://[2002:5db8:d822::1]/x",        # 6to4 of a public address
    "https://[64:ff9b::5db8:d822]/x",       # NAT64 of a public address
    "https://[::ffff:93.184.216.34]/x",
    "https://123.example/x", "https://cafe.be/x", "https://deadbeef/x", "https://0x7f.example/x",
    "https://hooks.example.com./x", "https://b\u00fccher.example/x",
])
def test_public_addresses_and_names_are_accepted(api: Api, url: str) -> None:
    assert endpoint(api, url)["url"] == url


@pytest.mark.parametrize("url", ["http://a..b/x", f"http://{'x' * 64}.example/x",
                                 "http://./x"])
def test_a_host_the_resolver_cannot_take_is_400_and_a_failed_attempt_not_a_crash(
        api: Api, url: str) -> None:
    assert_error(api.post("/v1/webhook-endpoints", {"url": url}), 400,
                 "invalid_request_error", "url_invalid", "url")
    outcome = http.post(url, b"{}", {}, timeout=2, allow_private=False)
    assert outcome.error_code == "invalid_url"


@pytest.mark.parametrize(("address", "private_ok", "allowed"), [
    ("2002:7f00:1::", False, False), ("2002:7f00:1::", True, True),
    ("2002:a00:1::1", False, False), ("2002:a9fe:a9fe::", True, False),
    ("2002:5db8:d822::1", False, True),
    ("64:ff9b::7f00:1", False, False), ("64:ff9b::7f00:1", True, True),
    ("64:ff9b::a9fe:a9fe", True, False), ("64:ff9b::5db8:d822", False, True),
    ("::ffff:a9fe:a9fe", True, False), ("::127.0.0.1", True, False),
])
def test_an_ipv6_address_carrying_an_ipv4_one_is_judged_as_that_address(
        address: str, private_ok: bool, allowed: bool) -> None:
    assert http.address_allowed(ipaddress.ip_address(address), private_ok) is allowed


@pytest.mark.parametrize(("host", "address"), [
    ("127.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("2130706433", "127.0.0.1"),
    ("0177.0.0.1", "127.0.0.1"), ("10.1", "10.0.0.1"), ("::1", "::1"),
    ("fe80::1%25eth0", "fe80::1"), ("0", "0.0.0.0"),
    ("deadbeef", None), ("cafe.be", None), ("127.0.0.1.", None), ("127.0.0.1 x", None),
    ("4294967296", None), ("", None),
])
def test_numeric_hosts_are_read_as_the_resolver_reads_them(host: str,
                                                           address: str | None) -> None:
    expected = None if address is None else ipaddress.ip_address(address)
    assert http.numeric_address(host) == expected
