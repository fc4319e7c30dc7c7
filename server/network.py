"""Serving the site on a club's own network from the organiser's laptop (`manage.py serve_club`).

Pure helpers, without Django: which of the laptop's addresses the phones on the club's wifi can
reach, the environment the server runs with, and the secret key kept between nights.
"""

import ipaddress
import os
import secrets
import socket
from collections.abc import Iterable, Mapping
from pathlib import Path

# Any private-range address: connecting a UDP socket to it only asks the kernel which
# interface would route there (nothing is sent), and that interface's address is the one
# the rest of the local network sees.
PROBE_ADDRESS = ("10.255.255.255", 1)
LOOPBACK = "127.0.0.1"


def routed_address(probe: tuple[str, int] = PROBE_ADDRESS) -> str | None:
    """The address of the interface that routes outward, or None without any route.

    `socket.connect` on a UDP socket sends no packet: it only picks the route, so this works on
    a closed network without internet and costs no traffic."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
        try:
            probe_socket.connect(probe)
            return probe_socket.getsockname()[0]
        except OSError:
            return None


def interface_addresses() -> list[str]:
    """The IPv4 addresses the laptop's host name resolves to (the fallback when no route is
    known); an empty list when it resolves to none."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return list(dict.fromkeys(info[4][0] for info in infos))


def _usable(address: str) -> ipaddress.IPv4Address | None:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if parsed.version != 4 or parsed.is_loopback or parsed.is_link_local:
        return None
    if parsed.is_unspecified or parsed.is_multicast:
        return None
    return parsed


def pick_lan_address(routed: str | None, addresses: Iterable[str]) -> str:
    """The address phones on the club's network should open, as a dotted IPv4 string.

    `routed`: what `routed_address()` found (None when it failed); `addresses`: every address
    of the laptop's interfaces (`interface_addresses()`), in their order. The routed address
    wins when it is usable (IPv4, not loopback, link-local, unspecified or multicast); else the
    first private-range address of the list (a wifi network hands those out), else the first
    usable one, else 127.0.0.1 (no network: only this laptop reaches the site)."""
    if routed and _usable(routed):
        return routed
    usable = [parsed for parsed in map(_usable, addresses) if parsed is not None]
    for parsed in usable:
        if parsed.is_private:
            return str(parsed)
    return str(usable[0]) if usable else LOOPBACK


def site_url(address: str, port: int, *, tls: bool = False) -> str:
    """`http://ADDRESS:PORT`: plain HTTP, as a club's closed network has no certificate; or
    `https://ADDRESS:PORT` when the club serves with a certificate for `address` (`tls`)."""
    return f"{'https' if tls else 'http'}://{address}:{port}"


def club_environment(base: Mapping[str, str], *, address: str, port: int,
                     secret_key: str, tls: bool = False) -> dict[str, str]:
    """The environment the server runs with: `base` (the command's own environment) with
    DEBUG off, HTTPS off (plain HTTP on a closed network) unless `tls` (the server holds a
    certificate for `address`), `secret_key`, `SITE_URL` at `address:port` (what the
    scorecards' QR codes open) and `address` added to ALLOWED_HOSTS (besides the laptop's own
    names and any hosts `base` already allows)."""
    env = dict(base)
    hosts = [host for host in env.get("ALLOWED_HOSTS", "").split(",") if host]
    for host in (address, "127.0.0.1", "localhost", "[::1]"):
        if host not in hosts:
            hosts.append(host)
    env.update({
        "DEBUG": "false",
        "HTTPS": "true" if tls else "false",
        "SECRET_KEY": secret_key,
        "SITE_URL": site_url(address, port, tls=tls),
        "ALLOWED_HOSTS": ",".join(hosts),
    })
    return env


def kept_secret_key(path: Path) -> str:
    """The secret key stored in `path`, made (50 random URL-safe bytes) and written there,
    readable by its owner only, the first time: the same key every night keeps the organisers'
    sessions and the forms open on the phones valid across restarts."""
    if path.exists():
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(key + "\n")
    return key
