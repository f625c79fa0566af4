"""Which network addresses Capua may send webhooks to.

A webhook URL is chosen by a user, so without a check it is a way to make the server
POST to itself, to the machines beside it or to a cloud metadata service (server-side
request forgery).  Two checks guard against it:

* when a URL is registered, :func:`check_registration` refuses what is wrong on its
  face (:func:`check_url`: other schemes than http(s), credentials in the URL, a literal
  address or a name like ``localhost`` that can only be internal) and then what its
  name resolves to now, with the very check of send time (a ``localhost`` alias in the
  hosts file, ``127.1``, ``2130706433``, ``0x7f000001``); a name that does not resolve
  yet is accepted, since every send checks it again;
* when a message is sent, :func:`resolve_checked` resolves the host name and refuses
  it if **any** of its addresses is not public; the connection is then made to one of
  the addresses just checked, never by resolving the name again, so a DNS answer that
  changes between the check and the connection (DNS rebinding) cannot slip through.

"Public" is :attr:`ipaddress.IPv4Address.is_global` (and the IPv6 counterpart), which
rules out loopback, private, link-local, carrier-grade NAT, documentation and reserved
ranges; IPv4 addresses embedded in IPv6 (mapped, 6to4, Teredo) are judged as IPv4.
The operator setting ``CAPUA_WEBHOOKS_ALLOW_PRIVATE`` lifts the rule (for a LAN
install, and for tests that receive on loopback); unspecified and multicast addresses
are refused even then, since nothing can be delivered to them.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Callable, Union
from urllib.parse import SplitResult, urlsplit

IPAddress = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]

#: Host names that name this machine or a private network whatever DNS says.
_INTERNAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
_INTERNAL_SUFFIXES = (".localhost", ".local", ".internal", ".localdomain", ".home.arpa")
MAX_URL_LENGTH = 2000


class AddressRefused(Exception):
    """The URL or one of its addresses may not be reached; ``code`` names the kind of
    refusal, ``reason`` which one (``too_long``, ``spaces``, ``unreadable``, ``scheme``,
    ``credentials``, ``no_host``, ``port_zero``, ``fragment``, ``internal_name``,
    ``not_a_host``, ``cannot_receive``, ``not_public``; a name resolving to an address refused
    so: ``resolves_cannot_receive``, ``resolves_not_public``, ``resolves_badly``) and ``values``
    what the sentence names (``host``, ``address``, ``max_length``), for a page to say it
    in its reader's language."""

    def __init__(self, message: str, code: str = "forbidden_address", reason: str = "",
                 **values: object) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.reason = reason
        self.values = values

    def details(self) -> dict:
        """What an API error carries of this refusal beyond its sentence."""
        return {"reason": self.reason, **self.values} if self.reason else {}


@dataclass(frozen=True)
class Target:
    """Where to connect for a checked URL: ``address`` is the IP to dial, ``host`` the
    name for the ``Host`` header and TLS (SNI and certificate check)."""

    scheme: str
    host: str
    port: int
    address: str
    path: str


def check_url(url: object, *, allow_private: bool) -> SplitResult:
    """The parsed URL if it may be registered, else :class:`AddressRefused`.

    Names are not resolved here (the answer may change before anything is sent, and
    registration must not wait on DNS); :func:`resolve_checked` does that at send time.
    """
    if not isinstance(url, str) or not url or len(url) > MAX_URL_LENGTH:
        raise AddressRefused(f"a webhook URL is an http(s) address of at most {MAX_URL_LENGTH} characters",
                             code="invalid_url", reason="too_long", max_length=MAX_URL_LENGTH)
    if any(ord(ch) <= 0x20 or ord(ch) == 0x7F for ch in url):
        raise AddressRefused("a webhook URL must not contain spaces or control characters", code="invalid_url",
                             reason="spaces")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise AddressRefused("the webhook URL cannot be read", code="invalid_url",
                             reason="unreadable") from None
    if parts.scheme not in ("http", "https"):
        raise AddressRefused("a webhook URL must start with https:// (or http://)", code="invalid_url",
                             reason="scheme")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("a webhook URL must not carry a user name or password; verify the signature instead",
                             code="invalid_url", reason="credentials")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise AddressRefused("the webhook URL has no host", code="invalid_url", reason="no_host")
    if port == 0:
        raise AddressRefused("the webhook URL has port 0", code="invalid_url", reason="port_zero")
    if parts.fragment:
        raise AddressRefused("a webhook URL has no #fragment", code="invalid_url", reason="fragment")
    literal = _literal_address(host)
    if literal is not None:
        check_address(literal, allow_private=allow_private)
    elif not allow_private and (host in _INTERNAL_NAMES or host.endswith(_INTERNAL_SUFFIXES)):
        raise AddressRefused(f"{host} is an internal name; webhooks go to public addresses only",
                             reason="internal_name", host=host[:100])
    return parts


def check_registration(url: object, *, allow_private: bool) -> SplitResult:
    """The parsed URL if it may be registered: :func:`check_url`, then the addresses its
    host resolves to now, checked as :func:`resolve_checked` checks them before a send.
    Raises :class:`AddressRefused`."""
    parts = check_url(url, allow_private=allow_private)
    try:
        resolve_checked(str(url), allow_private=allow_private)
    except OSError:
        pass  # no answer now: the name is resolved and checked again before every send
    return parts


def check_address(address: IPAddress, *, allow_private: bool) -> None:
    """Refuse ``address`` unless it is public (or private addresses are allowed)."""
    judged = _embedded_ipv4(address) or address
    if judged.is_unspecified or judged.is_multicast:
        raise AddressRefused(f"{address} cannot receive webhooks", reason="cannot_receive", address=str(address))
    if allow_private:
        return
    if not judged.is_global:
        kind = ("loopback" if judged.is_loopback else "link-local" if judged.is_link_local
                else "private" if judged.is_private else "reserved")
        raise AddressRefused(f"{address} is a {kind} address; webhooks go to public addresses only",
                             reason="not_public", address=str(address))


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (the system's resolver)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except UnicodeError:
        raise AddressRefused(f"{host[:100]} is not a host name", code="invalid_url", reason="not_a_host",
                             host=host[:100]) from None
    return list(dict.fromkeys(info[4][0] for info in infos))


#: The resolver :func:`resolve_checked` uses; tests replace it to play DNS answers.
resolver: Callable[[str, int], list[str]] = system_resolver


def resolve_checked(url: str, *, allow_private: bool) -> Target:
    """Check ``url`` again, resolve its host now and check every address it has.

    Raises :class:`AddressRefused` (a refusal: retrying cannot help until DNS or the
    setting changes) or ``OSError`` when the name does not resolve (transient).
    """
    parts = check_url(url, allow_private=allow_private)
    host = (parts.hostname or "").rstrip(".")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    literal = _literal_address(host)
    if literal is not None:
        addresses = [str(literal)]
    else:
        addresses = resolver(host, port)
        if not addresses:
            raise OSError(f"{host} has no address")
    for raw in addresses:
        try:
            address = ipaddress.ip_address(raw.split("%", 1)[0])
        except ValueError:
            raise AddressRefused(f"{host} resolved to an unreadable address {raw!r}", reason="resolves_badly",
                                 host=host[:100]) from None
        try:
            check_address(address, allow_private=allow_private)
        except AddressRefused as err:
            raise AddressRefused(f"{host} resolves to {address}: {err.message}", reason=f"resolves_{err.reason}",
                                 **{**err.values, "host": host[:100]}) from None
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(scheme=parts.scheme, host=host, port=port, address=addresses[0], path=path)


def _literal_address(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address.teredo is not None:
            return address.teredo[1]
    return None
