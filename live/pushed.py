"""Parts pushed down the stream: a visitor who is not signed in (a spectator, the projector)
is sent the live part itself at each change, rendered once per version for every such screen,
instead of being told `changed` and fetching it.

A page names its part to its stream (`?part=`, the page's own address); the stream pushes it
only when that address is a shared part (`live.pages.shared_part`) of the very event or match
it follows. The part is rendered by the site itself: an htmx GET of that address, as a visitor
who is not signed in makes it, through every middleware and the view's own checks, so what is
pushed is byte for byte what the page would have fetched; the view keeps it in the cache for
the other processes (`shared_part`), and `Parts` keeps one render per version in this process
for every stream that waits for it.

A render that is not a plain 200 part (an error, a part holding a form) is not pushed: the
stream says `changed` and the page fetches as a signed-in visitor's page does; 404 or 410 (the
event made private, the match removed) ends the stream with `gone`.
"""

import asyncio
import hashlib
import io
import logging
import re
from collections import OrderedDict
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.urls import Resolver404, resolve

from core.text import refused_character
from live.threads import in_thread

logger = logging.getLogger(__name__)

MAX_PATH = 300
KEPT_VERSIONS = 64
"""Renders kept in this process (the newest): one a followed page, a version or two each."""
GONE = "gone"
CLAIM_SECONDS = 3
"""How long the other processes wait for the one drawing a version, at most."""
CLAIM_LOOK_SECONDS = 0.02
DRAWING, DRAWN = "drawing", "drawn"
LINE_ENDS = re.compile(r"\r\n|\r|\n")
"""What ends a line in a stream (and nothing else: a part may hold U+2028)."""


def part_address(kind: str, pk: int, path: str) -> str | None:
    """`path` (a page's address, query string included) if it is a shared part of `kind`
    ("event" or "match") `pk`, else None."""
    if (not path.startswith("/") or len(path) > MAX_PATH or path.startswith("//")
            or refused_character(path) is not None):
        return None
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    shared = getattr(match.func, "shared_part", None)
    if shared is None or shared[0] != kind or match.kwargs.get(shared[1]) != pk:
        return None
    return path


_handler: WSGIHandler | None = None


def render(path: str, host: str, scheme: str, language: str) -> tuple[int, str]:
    """The part at `path` as a visitor who is not signed in fetches it, in `language`: (status,
    body), run through the site's own handler (sync)."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    address = urlsplit(path)
    name, _, port = host.partition(":")
    request = WSGIRequest({
        "REQUEST_METHOD": "GET", "PATH_INFO": address.path, "QUERY_STRING": address.query,
        "SERVER_NAME": name, "SERVER_PORT": port or ("443" if scheme == "https" else "80"),
        "HTTP_HOST": host, "HTTP_HX_REQUEST": "true",
        "HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}={language}", "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(), "wsgi.url_scheme": scheme,
    })
    response = _handler.get_response(request)
    body = b"" if response.streaming else response.content
    return response.status_code, body.decode()


class Parts:
    """One render of each (address, language, version) in this process, shared by every stream
    that waits for it (`part`)."""

    def __init__(self) -> None:
        self.renders: OrderedDict[tuple, asyncio.Task] = OrderedDict()

    async def part(self, path: str, host: str, scheme: str, language: str,
                   version: int) -> bytes | str | None:
        """The stream's `part` message for `version` (`message`, encoded); GONE when the page no
        longer opens; None when the part is not to be pushed (the page fetches it instead)."""
        key = (path, host, scheme, language, version)
        task = self.renders.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(
                self._render(path, host, scheme, language, version))
            self.renders[key] = task
            while len(self.renders) > KEPT_VERSIONS:
                self.renders.popitem(last=False)
        return await asyncio.shield(task)  # a stream that closes leaves the render to the rest

    async def _render(self, path: str, host: str, scheme: str, language: str,
                      version: int) -> bytes | str | None:
        try:
            claim = "live-push:" + hashlib.sha256(
                f"{path} {host} {scheme} {language} {version}".encode()).hexdigest()
            mine = await in_thread(cache.add)(claim, DRAWING, CLAIM_SECONDS)
            if not mine:
                await drawn_elsewhere(claim)
            status, body = await in_thread(render)(path, host, scheme, language)
            if mine:
                await in_thread(cache.set)(claim, DRAWN, CLAIM_SECONDS)
        except Exception:
            logger.exception("A live part could not be rendered to push: %s", path)
            return None
        if status in (404, 410):
            return GONE
        if status != 200 or "csrfmiddlewaretoken" in body:
            return None
        return message(version, body).encode()  # encoded once for every stream


async def drawn_elsewhere(claim: str) -> None:
    """Return when the server process that claimed a version's render (`claim`, a key of
    Django's cache, which the processes share) has drawn it, or after CLAIM_SECONDS. The part
    then waits in the cache (`shared_part`): each version is drawn once for every process, not
    once in each."""
    deadline = asyncio.get_running_loop().time() + CLAIM_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(CLAIM_LOOK_SECONDS)
        if await in_thread(cache.get)(claim) != DRAWING:
            return


_parts: dict[asyncio.AbstractEventLoop, Parts] = {}


def parts() -> Parts:
    """The renders of the running event loop (one per server process)."""
    loop = asyncio.get_running_loop()
    if loop not in _parts:
        _parts[loop] = Parts()
    return _parts[loop]


def message(version: int, body: str) -> str:
    """The stream's `part` message: the part's HTML, a `data:` field a line."""
    data = "".join(f"data: {line}\n" for line in LINE_ENDS.split(body))
    return f"id: {version}\nevent: part\n{data}\n"
