"""The live pages' streams: one server-sent-events connection per open live page, which says
`changed` (with the new version as its id and data) each time what the page shows has moved
on; the page then fetches its live part again (htmx's `sse` extension, `live.pages`). To a
visitor who is not signed in the stream pushes the part itself instead (`part`, rendered once
per version for every such screen: `live.pushed`), gzipped as one stream when the browser
accepts it.

- `/t/<id>/live/`: an event's pages (a round, the standings, a bracket, the groups, a club
  night, the control room, the projector), following `Tournament.version`;
- `/m/<id>/live/`: a match page, following `Match.version`;
- `/p/<token>/live/`: the players' page of a match's secret link, the same;
- `/join/claim/live/`: the waiting page of self check-in, following its claim (the phone's
  cookie names it), `CheckInClaim.version`.

A stream checks what its page checks (404 for what the visitor may not see) when it opens and
again at a change, at most every `RECHECK_SECONDS`; a stream whose page the visitor may no
longer see (a private event, a renewed link) says `gone` and ends, and the page reloads. It
opens with the version the page was drawn at (`?v=`, or the browser's `Last-Event-ID` when it
reconnects by itself) and says `changed` at once when that is behind, so a phone that slept or a
page that lost the server catches up by itself. A comment line every `KEEP_ALIVE_SECONDS` keeps
proxies and the phone's network from closing a quiet connection; after `STREAM_SECONDS` the
stream ends and the browser reconnects (`retry`), so no connection outlives a change of access
unseen.
"""

import asyncio
import contextlib
import time
import zlib
from collections.abc import AsyncIterator

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from events.access import pairing_for_reading
from events.models import Tournament
from live import pushed
from live.threads import in_thread
from live.watcher import watcher
from passes import check_in
from passes import selectors as pass_selectors
from passes import services as pass_services
from tableside import link_guesses, table_entry

KEEP_ALIVE_SECONDS = 20
RECHECK_SECONDS = 15
"""A stream checks its visitor again at a change at most this often: each check is a query in
a thread, and a hundred spectators' streams would each make one at every deal of the event.
What a stream says is only that something changed; the part the page then fetches is checked
in full by its view, so nothing shows that the visitor may no longer see."""
COMPRESSION_LEVEL = 6
STREAM_SECONDS = 600
RETRY_MILLISECONDS = 2000


def _seen(request) -> int | None:
    value = request.headers.get("Last-Event-ID") or request.GET.get("v", "")
    return int(value) if value.isdigit() and len(value) < 20 else None


def _event_visible(user, pk: int) -> bool:
    return Tournament.objects.visible_to(user).filter(pk=pk).exists()


def _match_visible(request, match_pk: int) -> bool:
    try:
        pairing_for_reading(request, match_pk)
    except (Http404, PermissionDenied):
        return False
    return True


def _link_match(token: str) -> int | None:
    table = table_entry.table_for_token(token)
    if table is None or not table_entry.players_may_enter(table.entry_mode):
        return None
    return table.match_id


def _gone() -> StreamingHttpResponse:
    """A stream that says `gone` and ends: the page it belongs to no longer opens."""
    async def lines() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        yield "event: gone\ndata: gone\n\n"

    response = StreamingHttpResponse(lines(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def _response(key: tuple[str, int], seen: int | None, allowed,
              push=None, request=None) -> StreamingHttpResponse:
    lines = _messages(key, seen, allowed, push)
    compressed = push is not None and "gzip" in request.headers.get("Accept-Encoding", "")
    response = StreamingHttpResponse(gzipped(lines) if compressed else lines,
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    if push is not None:
        response["Vary"] = "Accept-Encoding"
        if compressed:
            response["Content-Encoding"] = "gzip"
    return response


async def gzipped(lines: AsyncIterator[str | bytes]) -> AsyncIterator[bytes]:
    """`lines` as one gzip stream, flushed after each message so it leaves at once. The parts a
    stream pushes differ little from one version to the next, so each costs a few hundred bytes
    on the wire. (Django's GZipMiddleware compresses each message of an async stream apart.)"""
    compressor = zlib.compressobj(COMPRESSION_LEVEL, zlib.DEFLATED, 31)
    async for line in lines:
        data = line if isinstance(line, bytes) else line.encode()
        yield compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


async def _messages(key: tuple[str, int], seen: int | None, allowed,
                    push=None) -> AsyncIterator[str | bytes]:
    """The stream's lines (see the module docstring); `allowed()` says (awaited) whether the
    visitor may still see the page; `push(version)`, if given, the part to push instead of
    `changed` (`live.pushed`)."""
    live = watcher()
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    closes = time.monotonic() + STREAM_SECONDS
    recheck = time.monotonic() + RECHECK_SECONDS  # the view has just checked
    async with live.following(key):
        while (left := closes - time.monotonic()) > 0:
            version = await live.changed(key, seen, timeout=min(KEEP_ALIVE_SECONDS, left))
            if version is None:
                yield ": keep-alive\n\n"
                continue
            if version < 0 or (time.monotonic() >= recheck and not await allowed()):
                yield "event: gone\ndata: gone\n\n"
                return
            recheck = time.monotonic() + RECHECK_SECONDS
            seen = version
            part = await push(version) if push is not None else None
            if part == pushed.GONE:
                yield "event: gone\ndata: gone\n\n"
                return
            if part is not None:
                yield part
            else:
                yield f"id: {version}\nevent: changed\ndata: {version}\n\n"


def _pusher(request, user, kind: str, pk: int):
    """What pushes the part of the page this stream belongs to (`live.pushed`), for a visitor
    who is not signed in and a page whose part may be pushed; else None."""
    path = pushed.part_address(kind, pk, request.GET.get("part", ""))
    if user.is_authenticated or path is None:
        return None
    host, scheme, language = request.get_host(), request.scheme, request.LANGUAGE_CODE
    renders = pushed.parts()
    return lambda version: renders.part(path, host, scheme, language, version)


@require_GET
async def event_stream(request, pk: int):
    """The stream of event `pk`'s live pages; 404 for an event the visitor may not see."""
    user = await request.auser()
    check = in_thread(_event_visible)
    if not await check(user, pk):
        raise Http404
    return _response(("event", pk), _seen(request), lambda: check(user, pk),
                     _pusher(request, user, "event", pk), request)


@require_GET
async def match_stream(request, match_pk: int):
    """The stream of match `match_pk`'s page; 404 as the match page."""
    user = await request.auser()  # the user is read here, not in the worker thread
    check = in_thread(_match_visible)
    if not await check(request, match_pk):
        raise Http404
    return _response(("match", match_pk), _seen(request), lambda: check(request, match_pk),
                     _pusher(request, user, "match", match_pk), request)


@require_GET
async def link_stream(request, token: str):
    """The stream of the players' page of link `token`. A link renewed since, or whose match a
    change upstream removed (`table_entry.retired_link`), says `gone` at once (the page loads
    again and says why) and is not counted; any other that opens no match is 404, counted as a
    wrong link as on the page, or 429 after too many from this address."""
    check = in_thread(_link_match)
    match_id = await check(token)
    if match_id is None:
        if await in_thread(table_entry.retired_link)(token) is not None:
            return _gone()
        if await in_thread(link_guesses.wrong_link)(request) == 429:
            return HttpResponse(status=429)
        raise Http404

    async def allowed() -> bool:
        return await check(token) == match_id

    return _response(("match", match_id), _seen(request), allowed)



def _pass_keys(token: str) -> list[tuple[str, int]] | None:
    """What the pass page of `token` follows: its pass and the events it shows; None for a
    token that opens no pass (wrong, renewed, revoked)."""
    player_pass = pass_services.pass_for_token(token)
    if player_pass is None:
        return None
    events = pass_selectors.followed_events(player_pass.player)
    return [("pass", player_pass.pk), *(("event", pk) for pk in events)]


@require_GET
async def pass_stream(request, token: str):
    """The stream of a player's pass page (`passes:page`): it follows the pass and the events
    the page shows, and says `changed` (the page fetches its part) whenever any moves on; the
    id is the sum of their versions (`live.pages.pass_version`). When the pass no longer opens
    (renewed, revoked) it says `gone` and the page loads again, telling the player to ask the
    organiser. A token that opens no pass is 404 and counted as a wrong link, or 429."""
    check = in_thread(_pass_keys)
    keys = await check(token)
    if keys is None:
        if await in_thread(link_guesses.wrong_link)(request) == 429:
            return HttpResponse(status=429)
        raise Http404
    response = StreamingHttpResponse(_pass_messages(token, keys, _seen(request), check),
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response


def _open_claim(secret: str | None) -> int | None:
    claim = check_in.claim_for_secret(secret)
    return claim.pk if claim is not None else None


@require_GET
async def claim_stream(request):
    """The stream of the waiting page of self check-in (`passes:claim`): the claim the phone's
    cookie holds (`check_in.CLAIM_COOKIE`); it says `changed` when the organiser approves or
    refuses it, and `gone` once it no longer opens (handed over, expired). Without an open
    claim: 404, counted as a wrong link, or 429."""
    secret = request.COOKIES.get(check_in.CLAIM_COOKIE)
    check = in_thread(_open_claim)
    claim_pk = await check(secret)
    if claim_pk is None:
        if await in_thread(link_guesses.wrong_link)(request) == 429:
            return HttpResponse(status=429)
        raise Http404

    async def allowed() -> bool:
        return await check(secret) == claim_pk

    return _response(("claim", claim_pk), _seen(request), allowed)


def _pass_plays(token: str, match_pk: int) -> bool:
    """Whether `token` opens a pass whose player plays match `match_pk`."""
    player_pass = pass_services.pass_for_token(token)
    return player_pass is not None and \
        pass_selectors.match_of_pass(player_pass.player, match_pk) is not None


@require_GET
async def pass_match_stream(request, token: str, match_pk: int):
    """The stream of the match page opened from a pass (`players:pass_match`): the match's, as
    the match's link's. A pass renewed or revoked since, or whose player does not play the
    match, is 404 (a wrong pass counted, as on the page); once open, it says `gone` when the
    pass no longer opens it."""
    check = in_thread(_pass_plays)
    if not await check(token, match_pk):
        wrong_pass = await in_thread(pass_services.pass_for_token)(token) is None
        if wrong_pass and await in_thread(link_guesses.wrong_link)(request) == 429:
            return HttpResponse(status=429)
        raise Http404
    return _response(("match", match_pk), _seen(request), lambda: check(token, match_pk))


async def _pass_messages(token: str, keys: list, seen: int | None,
                         check) -> AsyncIterator[str]:
    """`_messages` over several keys: `changed` when the sum of their versions moves on; the
    pass checked again at each change (a renewed or revoked pass: `gone`), and the keys
    followed anew when the events shown change."""
    live = watcher()
    yield f"retry: {RETRY_MILLISECONDS}\n\n"
    closes = time.monotonic() + STREAM_SECONDS
    while closes - time.monotonic() > 0:
        async with contextlib.AsyncExitStack() as stack:
            for key in keys:
                await stack.enter_async_context(live.following(key))
            while (left := closes - time.monotonic()) > 0:
                versions = {key: live.versions.get(key, -1) for key in keys}
                if versions[keys[0]] < 0:
                    yield "event: gone\ndata: gone\n\n"
                    return
                current = sum(versions.values())
                if current != seen:
                    now_keys = await check(token)
                    if now_keys is None:
                        yield "event: gone\ndata: gone\n\n"
                        return
                    seen = current
                    yield f"id: {current}\nevent: changed\ndata: {current}\n\n"
                    if now_keys != keys:
                        keys = now_keys
                        break
                    continue
                waits = [asyncio.ensure_future(
                    live.changed(key, version, timeout=min(KEEP_ALIVE_SECONDS, left)))
                    for key, version in versions.items()]
                done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                for wait in pending:
                    wait.cancel()
                if all(wait.result() is None for wait in done):
                    yield ": keep-alive\n\n"
            else:
                return


TICK_SECONDS = 1.0
"""How often a running job's page is told to look again (`ticking`)."""


def ticking(still_running) -> StreamingHttpResponse:
    """The stream of a background job's page (a print job, an import): `changed` every
    `TICK_SECONDS` while `await still_running()` says yes, then `gone` (the page loads again,
    showing the file or what went wrong). The job's own progress is on its row or in the cache,
    which only the job writes, so the server looks each second for the one organiser
    watching it, for the seconds it runs; nothing is asked of the browser."""

    async def lines() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MILLISECONDS}\n\n"
        while await still_running():
            await asyncio.sleep(TICK_SECONDS)
            yield "event: changed\ndata: \n\n"
        yield "event: gone\ndata: gone\n\n"

    response = StreamingHttpResponse(lines(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"
    return response

