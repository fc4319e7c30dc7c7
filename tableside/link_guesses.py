"""Guessing the players' links: `GUESS_LIMIT` wrong tokens from one address in
`GUESS_WINDOW` seconds, and the address is refused (429) for the rest of that time. Counted in
the site's cache (shared by the web processes), by the address the server saw
(`REMOTE_ADDR`, the visitor's own behind a trusted proxy)."""

from django.core.cache import cache

GUESS_LIMIT = 30
GUESS_WINDOW = 600
"""Wrong tokens allowed per client address per 10 minutes (seconds) before 429."""


def client_address(request) -> str | None:
    """The client's address as the server saw it (`REMOTE_ADDR`)."""
    return request.META.get("REMOTE_ADDR") or None


def _key(request) -> str:
    return f"players:wrong-tokens:{client_address(request)}"


def refused(request) -> bool:
    """Whether this address has tried too many wrong links lately."""
    return cache.get(_key(request), 0) >= GUESS_LIMIT


def count_miss(request) -> None:
    """Count one wrong link from this address (the window starts at the first)."""
    key = _key(request)
    if not cache.add(key, 1, GUESS_WINDOW):
        try:
            cache.incr(key)
        except ValueError:  # expired meanwhile
            cache.add(key, 1, GUESS_WINDOW)


def wrong_link(request) -> int:
    """The answer's status to a token that opens nothing (a link, a pass, a join code or a
    claim): 429 while this address is refused, else 404 with the miss counted."""
    if refused(request):
        return 429
    count_miss(request)
    return 404
