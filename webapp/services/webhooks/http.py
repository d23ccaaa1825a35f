"""POSTing a webhook: one small interface, `post(...) -> Outcome`, and its SSRF guard.

The host is resolved here, every address is checked, and the connection goes to the
checked address (Host header and TLS SNI keep the name), so a DNS answer that changes
between the check and the connect (DNS rebinding) cannot steer us elsewhere. Redirects are
never followed; proxies from the environment are never used.

    Outcome.error_code:
      invalid_url          the URL cannot be delivered to
      address_not_allowed  the host resolves to loopback, private, link-local, ... addresses
      dns_failed           the host does not resolve
      timeout              no answer within the timeout
      connection_failed    refused, reset, or TLS failure
      redirect             a 3xx answer (redirects count as failures)
      http_status          any other non-2xx answer
"""

from __future__ import annotations

import atexit
import ipaddress
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import httpx

USER_AGENT = "PassService-Webhooks/1.0"
_MAX_BODY = 64 * 1024  # of the receiver's answer we read (and then drop)
_CLIENTS_MAX = 64
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # NAT64's well-known prefix (RFC 6052)
_NUMERIC = frozenset("0123456789abcdefx.")  # what the IPv4 forms of inet_aton are made of

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Outcome:
    """What one POST came to."""

    status: int | None
    error_code: str | None
    error_message: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        return self.error_code is None


def address_allowed(address: IPAddress, allow_private: bool) -> bool:
    """Public unicast always; loopback and private ranges only when the installation allows.
    The one rule for both an endpoint's URL (at creation) and each delivery's addresses.

    Link-local (cloud metadata at 169.254.169.254), multicast, unspecified and reserved
    addresses are never allowed. An IPv6 address that carries an IPv4 one (IPv4-mapped
    `::ffff:127.0.0.1`, 6to4 `2002:7f00:1::`, NAT64 `64:ff9b::7f00:1`) is judged as that
    IPv4 address: the packets end up there.
    """
    address = _carried_ipv4(address) or address
    if address.is_multicast or address.is_unspecified or address.is_link_local:
        return False
    if address.is_loopback:  # before `reserved`: ::1 lies in IPv6's reserved ::/8
        return allow_private
    if address.is_reserved:
        return False
    if address.is_global:
        return True
    return allow_private


def _carried_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address.ipv4_mapped or address.sixtofour


def numeric_address(host: str) -> IPAddress | None:
    """The address a host written as a number stands for, as the resolver reads it: IPv6,
    dotted IPv4, and the older IPv4 forms `inet_aton` takes (`127.1`, `0x7f.1`,
    `2130706433`, `0177.0.0.1`); None for a name."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0] if ":" in host else host)
    except ValueError:
        pass
    # Only number characters: glibc's inet_aton also takes "127.0.0.1 junk", the resolver not.
    if not host or not set(host.lower()) <= _NUMERIC:
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def resolver_host(host: str) -> str | None:
    """The host as the resolver is asked for it (IDNA, as `socket.getaddrinfo` encodes it:
    full-width digits are digits); None when it cannot be (an empty or too long label)."""
    if ":" in host:  # an IPv6 literal
        return host
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return None


def url_problem(url: str, *, require_https: bool) -> str | None:
    """Why an endpoint URL is not acceptable (checked at creation), else None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "The URL is not valid."
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "The URL must be an absolute http(s) URL."
    if require_https and parts.scheme != "https":
        return "Live webhook endpoints must use https."
    if parts.username is not None or parts.password is not None:
        return "The URL must not contain a user name or password."
    if parts.fragment:
        return "The URL must not contain a fragment."
    if port == 0:
        return "The URL's port is not valid."
    if resolver_host(parts.hostname) is None:
        return "The URL's host is not a valid name."
    return None


def literal_host_blocked(url: str, allow_private: bool) -> bool:
    """Whether the URL's host is, however it is written, an address that `address_allowed`
    refuses or `localhost` (no DNS lookup; a trailing dot changes nothing)."""
    host = (resolver_host(urlsplit(url).hostname or "") or "").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return not allow_private
    address = numeric_address(host)
    return address is not None and not address_allowed(address, allow_private)


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float,
         allow_private: bool) -> Outcome:
    """POST `body` to `url` at a checked address; never raises."""
    started = time.perf_counter()

    def done(status: int | None, code: str | None, message: str | None) -> Outcome:
        elapsed = int((time.perf_counter() - started) * 1000)
        return Outcome(status, code, message[:300] if message else None, elapsed)

    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return done(None, "invalid_url", "The URL is not valid.")
    if parts.scheme not in ("http", "https") or not host:
        return done(None, "invalid_url", "The URL must be an absolute http(s) URL.")
    name = resolver_host(host)
    if name is None:  # (getaddrinfo would raise UnicodeError)
        return done(None, "invalid_url", "The URL's host is not a valid name.")
    try:
        addresses = _resolve(name, port)
    except OSError:
        return done(None, "dns_failed", f"{host} does not resolve.")
    blocked = [a for a in addresses if not address_allowed(a, allow_private)]
    if blocked or not addresses:
        return done(None, "address_not_allowed",
                    f"{host} resolves to an address deliveries may not reach ({blocked[0]})."
                    if blocked else f"{host} has no address.")
    target = addresses[0]
    ip_host = f"[{target}]" if target.version == 6 else str(target)
    netloc = f"{ip_host}:{port}"
    direct = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
    host_header = parts.netloc.rsplit("@", 1)[-1]
    extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
    client = _client(parts.scheme, host, netloc)
    try:
        with client.stream("POST", direct, content=body,
                           headers={**headers, "Host": host_header, "User-Agent": USER_AGENT},
                           timeout=httpx.Timeout(timeout), extensions=extensions) as response:
            _drain(response)
            status = response.status_code
    except httpx.TimeoutException:
        return done(None, "timeout", f"No answer within {timeout:g} s.")
    except (httpx.HTTPError, OSError, ValueError) as exc:
        return done(None, "connection_failed", type(exc).__name__)
    if 200 <= status < 300:
        return done(status, None, None)
    if 300 <= status < 400:
        return done(status, "redirect", f"Answered {status}; redirects are not followed.")
    return done(status, "http_status", f"Answered {status}.")


def _resolve(host: str, port: int) -> list[IPAddress]:
    address = numeric_address(host)
    if address is not None:
        return [address]
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    seen: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in seen:
            seen.append(address)
    return seen


def _drain(response: httpx.Response) -> None:
    """Read a little of the answer so the connection can be reused; drop the rest."""
    read = 0
    for chunk in response.iter_raw():
        read += len(chunk)
        if read > _MAX_BODY:
            break


_clients: OrderedDict[tuple[str, str, str], httpx.Client] = OrderedDict()
_lock = threading.Lock()


def _client(scheme: str, host: str, netloc: str) -> httpx.Client:
    """A keep-alive client per (scheme, name, address): a connection made for one name is
    never reused for another, so TLS is always checked against the name we send."""
    key = (scheme, host, netloc)
    with _lock:
        client = _clients.get(key)
        if client is not None:
            _clients.move_to_end(key)
            return client
        client = httpx.Client(follow_redirects=False, trust_env=False,
                              limits=httpx.Limits(max_connections=8,
                                                  max_keepalive_connections=4))
        _clients[key] = client
        while len(_clients) > _CLIENTS_MAX:
            _clients.popitem(last=False)[1].close()
        return client


@atexit.register
def _close_clients() -> None:
    """Close the kept-alive connections as the process ends (not left to the collector)."""
    with _lock:
        while _clients:
            _clients.popitem()[1].close()
