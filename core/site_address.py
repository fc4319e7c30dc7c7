"""Whether a phone can open the site's address (`SITE_URL`): the one the scorecards' QR codes,
the printed links and the players' links carry. A loopback address (`127.0.0.1`, `::1`,
`localhost`) or `0.0.0.0` is the computer's own, and a phone that scans it opens nothing;
`loopback_warning` (core/templatetags/site_address.py) then says so on every page that shows
or prints the links, naming the command that serves the club's network."""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings

DEFAULT_SITE_URL = "http://127.0.0.1:8000"
"""What the settings give when `SITE_URL` is not set (the development server's address)."""


def site_url() -> str:
    """The site's address as printed: `SITE_URL`, or the development server's."""
    return getattr(settings, "SITE_URL", "") or DEFAULT_SITE_URL


def is_loopback(url: str) -> bool:
    """Whether `url`'s host is this computer alone: `localhost` (or a name under it), a
    loopback address (127.0.0.0/8, ::1) or the unspecified one (0.0.0.0, ::)."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified
