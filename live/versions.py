"""Live pages: what an unchanged poll costs, and how a page knows it has not changed.

The match page, the players' page at the table, a round, the standings, the bracket, a club
night, the projector and the control room poll their live part every few seconds (htmx,
`static/js/live.js`). Each poll sends the ETag of the part it shows (`If-None-Match`; the first
poll the one the page was drawn with, its `data-etag`); while nothing changed the answer is a
bodiless 304 after one query, the "version" functions below, instead of a page rendered afresh.

Two versions, each the newest row of the change histories its pages read:

- A match's (the match page, `match_etag`, and its players' page, `players_etag`, whose one
  query, `table_version`, also finds the link by its token's hash and reads the event's entry
  mode and language, so that a phone's unchanged poll needs nothing else) is scoped
  to that match, so a deal at another table leaves it alone and a phone's unchanged poll stays
  a 304 while the rest of the club plays. Its terms, and why each is there:
  the match's own history rows (status, game points, winner: a deal, an undo, a correction,
  a forfeit or a match closed by a withdrawal all save it); its deals' history (a deal, an undo,
  a correction: each adds a row under the match's id, a deletion too; the match history the
  organiser reads is built from them); its players' table events (`MatchEvent`: a signature,
  a dispute, an approval, a link renewed, a deal waiting for confirmation, confirmed or
  rejected; every write to its `MatchTable` appends one, except the sign-off cleared by an
  organiser's undo or correction, which saves the match and a deal too); its pairing's own
  columns (table number, seats, round: a pairing keeps no history, so the query reads the
  row it joins anyway); the history of its two players (a renamed player), of its event
  (name, language, entry mode, house rules, format) and of its event's entries (a
  withdrawal makes the organiser's "final" and a closed match differ); and, site-wide, the
  newest rating (the chances shown before the match ends; ratings are recomputed as a whole,
  with new rows, only when an event ends, so the site-wide term costs a render a finished
  event, not one a deal). Each term reads an index: the historical tables' `id` and
  foreign-key columns are indexed by django-simple-history, a match's deals' history by
  `match_id`.
- An event's (a round, the standings, the bracket, a club night, the projector, the control
  room) is the whole site's: the newest row of every history the pages read (matches, deals,
  entries, events, players), the newest pairing, rating and table event, and the count of
  commits that wrote any of these (`live.commits`: PostgreSQL hands out ids at
  insert, so a deal committed after a later one adds no newest id): no change can be
  missed by it. Such a page shows every match of its event, so while the event is played
  nearly every deal changes it anyway; a version scoped to the event would spare renders only
  while other events play at the same time, at the price of reading the history of every
  match of the event on each poll (not one index entry per table, as here), so it is left
  site-wide.

The ETag (`pure.fingerprints.fingerprint`) adds what else makes
the answer differ: the page and its objects, the query string, the language and the visitor
(organisers see more; the players' page is the same whoever is logged in, so it names its seat
instead and reads no session). The same query also checks that the visitor may see the event
(404 otherwise, as the page itself answers), so an unchanged poll costs one query for a
spectator and for a phone (and the user's for a logged-in organiser).

Only htmx polls (the `HX-Request` header) are conditional; a page loaded in full always renders,
so its flash messages are never held back by a 304 (it costs the version query more, for its
`data-etag`).
"""

import contextlib
import functools
import time
from dataclasses import dataclass
from functools import wraps

from django.db import connection
from django.http import Http404
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import quote_etag

from club.models import Player
from core.access import sees_everything
from core.fingerprints import fingerprint
from events.models import Entry, Pairing, Round, Tournament
from live import commits as live_commits
from ratings.models import PlayerRating
from scoring.models import Deal, Match
from tableside.models import MatchEvent, MatchTable

POLL_SECONDS = 4  # every live part's htmx trigger (`every 4s`): a change shows within 5 s


_VERSIONED = (Match, Deal, Entry, Tournament, Player)  # the models whose history counts


def _match_terms(match_id: str, event_id: str) -> list[str]:
    """The terms of a match's version (see the module's docstring), as SQL expressions over
    the aliases `m` (the match), `p` (its pairing) and `t` (its event); `match_id` and
    `event_id` are the columns that name them."""
    quote = connection.ops.quote_name

    def newest(model, column: str, where: str = "") -> str:
        return f"(SELECT MAX({quote(column)}) FROM {quote(model._meta.db_table)}{where})"

    def history_of(model, column: str, value: str) -> str:
        return newest(model.history.model, "history_id", f" WHERE {quote(column)} = {value}")

    return [
        history_of(Match, "id", match_id),
        history_of(Deal, "match_id", match_id),
        newest(MatchEvent, "id", f" WHERE {quote('match_id')} = {match_id}"),
        *(f"p.{quote(column)}" for column in ("id", "round_id", "table", "entry_a_id",
                                                "entry_b_id")),
        *(history_of(Player, "id", f"m.{quote(seat)}") for seat in ("player_a_id",
                                                                    "player_b_id")),
        history_of(Tournament, "id", event_id),
        history_of(Entry, "tournament_id", event_id),
        newest(PlayerRating, "id"),
    ]


@functools.cache
def _version_sql(scope: str) -> str:
    """The one SELECT of a version (see the module's docstring), written once per process:
    building it with the ORM on every poll cost more than running it. `scope`: "tournament"
    (parameters: user id, event id; the site-wide version, each MAX the last entry of a
    primary-key index), "match" (user id, match id; the match's version, each term an
    index lookup under the match, its players or its event) or "table" (a players' link's
    `token_hash`; the match's version through its `MatchTable`). Columns: whether the event is
    public and whether the user organises it ("table": the match's id, the event's entry mode
    and language), then the version's terms."""
    quote = connection.ops.quote_name
    organisers = Tournament.organisers.through._meta.db_table
    event = quote(Tournament._meta.db_table)

    def select(versions: list[str]) -> str:
        return (
            f"SELECT t.{quote('is_public')}, EXISTS (SELECT 1 FROM {quote(organisers)} o "
            f"WHERE o.{quote('tournament_id')} = t.{quote('id')} AND o.{quote('user_id')} = %s), "
            + ", ".join(versions)
        )

    if scope == "tournament":
        def newest(model, column: str) -> str:
            return f"(SELECT MAX({quote(column)}) FROM {quote(model._meta.db_table)})"
        versions = [newest(model.history.model, "history_id") for model in _VERSIONED]
        versions += [newest(Pairing, "id"), newest(PlayerRating, "id"),
                     newest(MatchEvent, "id")]
        return f"{select(versions)} FROM {event} t WHERE t.{quote('id')} = %s"

    versions = _match_terms(f"m.{quote('id')}", f"t.{quote('id')}")
    pairing, round_ = quote(Pairing._meta.db_table), quote(Round._meta.db_table)
    joins = (
        f"JOIN {quote(Match._meta.db_table)} m ON m.{quote('id')} = p.{quote('match_id')} "
        f"JOIN {round_} r ON r.{quote('id')} = p.{quote('round_id')} "
        f"JOIN {event} t ON t.{quote('id')} = r.{quote('tournament_id')} "
    )
    if scope == "table":
        return (
            f"SELECT m.{quote('id')}, t.{quote('entry_mode')}, t.{quote('language')}, "
            + ", ".join(versions)
            + f" FROM {quote(MatchTable._meta.db_table)} mt "
            f"JOIN {pairing} p ON p.{quote('match_id')} = mt.{quote('match_id')} {joins}"
            f"WHERE mt.{quote('token_hash')} = %s"
        )
    return f"{select(versions)} FROM {pairing} p {joins}WHERE p.{quote('match_id')} = %s"


def _version(request, scope: str, pk: int) -> tuple:
    """(organiser, the versions) for the visitor of `request` (`events.access.
    can_organise` in SQL); Http404 for an unknown object or a private event's, unless the
    visitor organises it (`Tournament.objects.visible_to`)."""
    user = request.user
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(scope), [user.pk if user.is_authenticated else None, pk])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    is_public, organiser, *versions = row
    organiser = sees_everything(user) or bool(organiser)
    if not (is_public or organiser):
        raise Http404
    return (organiser, *versions)


def tournament_version(request, pk: int) -> tuple:
    """One query: whether `request.user` organises event `pk` and the versions (see the
    module's docstring), then the count of commits (`live.commits`, a cache read).
    Raises Http404 when the event is unknown or not the visitor's to see."""
    return (*_version(request, "tournament", pk), live_commits.commits_counted())


def match_version(request, match_pk: int) -> tuple:
    """As `tournament_version`, for the match `match_pk` (through its pairing's event);
    Http404 like `events.access.pairing_for_reading`."""
    return _version(request, "match", match_pk)


@dataclass(frozen=True)
class TableVersion:
    """What one query tells of a players' link (`table_version`): its match's id, the
    event's `EntryMode` value and language code, and the match's version."""

    match_id: int
    entry_mode: str
    language: str
    version: tuple


def table_version(token_hash: str) -> TableVersion | None:
    """One query: the match of the players' link whose `MatchTable.token_hash` is
    `token_hash`, its event's entry mode and language, and the match's version (see the
    module's docstring); None when no match of an event has that link (a wrong or renewed
    token). Whether the mode lets players in is the caller's question
    (`table_entry.players_may_enter`)."""
    with connection.cursor() as cursor:
        cursor.execute(_version_sql("table"), [token_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    match_id, mode, language, *version = row
    return TableVersion(match_id, mode, language, tuple(version))


def players_etag(request, table: TableVersion, seat: str, language: str) -> str:
    """The ETag (unquoted) of the players' page of `table`'s match as seen from `seat`
    ("A"/"B") in `language` (the link's, `views.table.link_language`). The secret link is the
    visitor's right to see the match and the page is the same whoever is logged in, so no
    visibility check is made and the user is not part of it (the poll reads no session)."""
    return fingerprint("players", (table.match_id, seat), table.version,
                       request.get_full_path(), language, None)


def _page_etag(request, page: str, version: tuple, *objects) -> str:
    user = request.user.pk if request.user.is_authenticated else None
    return fingerprint(page, objects, version, request.get_full_path(), request.LANGUAGE_CODE,
                       user)


def clock_minute() -> int:
    """The minutes since the epoch: what a `per_minute` page's ETag adds to the versions."""
    return int(time.time()) // 60


def tournament_etag(page: str, *, per_minute: bool = False, organisers_only: bool = False):
    """The ETag function of an event's live page `page` (views taking `pk` and perhaps more
    keyword arguments, e.g. a round's `number`): the page's fingerprint (unquoted), or None.
    Raises Http404 as `tournament_version`.

    `per_minute`: the page shows times counted from now ("12 minutes"), so its ETag changes
    with each minute of the clock too, and an unchanged poll is a 304 within that minute.
    `organisers_only`: a visitor who does not organise the event gets no ETag (the view
    renders, and refuses them)."""
    def etag_of(request, pk: int, **kwargs) -> str | None:
        version = tournament_version(request, pk)
        if organisers_only and not version[0]:
            return None
        if per_minute:
            version = (*version, clock_minute())
        return _page_etag(request, page, version, pk, kwargs)
    return etag_of


def match_etag(request, match_pk: int) -> str | None:
    """The match page's ETag function, as `tournament_etag`."""
    return _page_etag(request, "match", match_version(request, match_pk), match_pk)


def live(etag_func):
    """View decorator, Django's `etag` with `etag_func` for htmx polls, and more:

    - an htmx poll whose If-None-Match is the page's ETag is a 304 with no body
      (`not_modified`); else the view renders. The answer carries the ETag, `Cache-Control: private,
      no-cache` (a browser asks again every time) and `Vary: HX-Request` (the poll's answer is
      not the page);
    - a page loaded in full always renders (never a 304, no ETag header, so its flash messages
      are never held back), but its live region carries the ETag its first poll would have
      (`request.live_etag`, written by the `live_region` tag as `data-etag`; `static/js/live.js`
      sends it), so that poll too is a 304 while nothing changed. Any refusal of the ETag
      function (Http404) is left to the view there."""
    def quoted_etag(request, *args, **kwargs) -> str | None:
        return quoted(etag_func(request, *args, **kwargs))

    def decorator(view):
        def etag_of(request, *args, **kwargs) -> str | None:
            return poll_etag(request, quoted_etag, *args, **kwargs)

        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.htmx:
                with contextlib.suppress(Http404):
                    request.live_etag = quoted(etag_func(request, *args, **kwargs))
                return view(request, *args, **kwargs)
            etag = request.live_etag = etag_of(request, *args, **kwargs)
            response = not_modified(request, etag)
            if response is not None:
                return response
            response = view(request, *args, **kwargs)
            if etag and request.method in ("GET", "HEAD"):
                response.headers.setdefault("ETag", etag)
            if response.has_header("ETag"):
                poll_headers(response)
            return response
        return wrapped
    return decorator


def poll_etag(request, etag_func, *args, **kwargs):
    """What `etag_func(request, *args, **kwargs)` gives (a live page's quoted ETag or None;
    the players' page's with its language), worked out once a request and kept on it
    (`request.poll_etag`). Raises what
    `etag_func` raises (Http404), keeping nothing."""
    try:
        return request.poll_etag
    except AttributeError:
        request.poll_etag = etag_func(request, *args, **kwargs)
        return request.poll_etag


def not_modified(request, etag: str | None):
    """The bodiless 304 of a poll whose If-None-Match is `etag` (quoted; None: the page has
    none), with its ETag and the headers of every live answer (`poll_headers`); else None
    (or the 412 of an If-Match that `etag` fails, as Django's `etag` decorator answers)."""
    if etag is None:
        return None
    response = get_conditional_response(request, etag=etag)
    if response is None:
        return None
    if request.method in ("GET", "HEAD"):
        response.headers.setdefault("ETag", etag)
    return poll_headers(response)


def poll_headers(response):
    """`response` with what every answer of a poll carries: `Cache-Control: private,
    no-cache` (a browser asks again every time) and `Vary: HX-Request` (the poll's answer is
    not the page)."""
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("HX-Request",))
    return response


def quoted(etag: str | None) -> str | None:
    """`etag` as an ETag header writes it (`"..."`); None stays None."""
    return quote_etag(etag) if etag is not None else None
