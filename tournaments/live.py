"""Live pages: what an unchanged poll costs, and how a page knows it has not changed.

The match page, a round, the standings, the bracket, a club night and the projector poll their
read-only part every few seconds (htmx, `static/js/live.js`). Each poll sends the ETag of the
part it shows (`If-None-Match`); while nothing changed the answer is a bodiless 304 after one
query, the "version" functions below, instead of a page rendered afresh.

A version is the newest row of every change history the pages read (matches, deals, entries,
events, players), the newest pairing and rating: a new deal, an undo, a correction, a
withdrawal, a match paired at a club night or a renamed player each add a row, so the number
moves. It is the whole site's, not one event's: a change anywhere makes every poller render its
page once more, which a club's handful of events in play can afford, and no change can be
missed by a narrower query. The ETag (`pure.fingerprints.fingerprint`) adds what else makes
the answer differ: the page and its objects, the query string, the language and the visitor
(organisers see more). The same query also checks that the visitor may see the event (404
otherwise, as the page itself answers), so an unchanged poll costs one query for a spectator.

Only htmx polls (the `HX-Request` header) are conditional; a page loaded in full always renders,
so its flash messages are never held back by a 304.
"""

from functools import wraps

from django.db.models import Exists, OuterRef, Subquery, Value
from django.http import Http404
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import etag

from club.access import sees_everything
from club.models import Player
from scoring.models import Deal, Match
from tournaments.models import Entry, Pairing, PlayerRating, Tournament
from tournaments.pure.fingerprints import fingerprint

POLL_SECONDS = 4  # every live part's htmx trigger (`every 4s`): a change shows within 5 s


def _newest(queryset, field: str) -> Subquery:
    return Subquery(queryset.order_by(f"-{field}").values(field)[:1])


def _version_annotations() -> dict:
    """The newest id of each change history and table the live pages read (see the module's
    docstring), as subqueries of one SELECT: each an index's last entry."""
    histories = {
        f"v_{model._meta.model_name}": _newest(model.history.all(), "history_id")
        for model in (Match, Deal, Entry, Tournament, Player)
    }
    return {
        **histories,
        "v_pairing": _newest(Pairing.objects.all(), "pk"),
        "v_rating": _newest(PlayerRating.objects.all(), "pk"),
    }


def _organiser_of(user, tournament_ref: str):
    """Whether `user` organises the tournament `tournament_ref` names (an `OuterRef` path),
    as an expression; `tournaments.access.can_organise` in SQL."""
    if sees_everything(user):
        return Value(True)
    if not user.is_authenticated:
        return Value(False)
    organisers = Tournament.organisers.through.objects
    return Exists(organisers.filter(tournament_id=OuterRef(tournament_ref), user_id=user.pk))


def _visible(row: dict | None) -> dict:
    """`row` (`is_public`, `organiser`, the versions) of an object the visitor may see; Http404
    for none, or a private event's for a visitor who does not organise it."""
    if row is None or not (row.pop("is_public") or row["organiser"]):
        raise Http404
    return row


def tournament_version(request, pk: int) -> dict:
    """One query: the versions (see the module's docstring) and whether `request.user`
    organises event `pk`. Raises Http404 when the event is unknown or not the visitor's to see
    (`Tournament.objects.visible_to`)."""
    rows = Tournament.objects.filter(pk=pk).annotate(
        organiser=_organiser_of(request.user, "pk"), **_version_annotations()
    ).values("is_public", "organiser", *_version_annotations())
    return _visible(rows.first())


def match_version(request, match_pk: int) -> dict:
    """As `tournament_version`, for the match `match_pk` (through its pairing's event);
    Http404 like `tournaments.access.pairing_for_reading`."""
    rows = Pairing.objects.filter(match_id=match_pk).annotate(
        is_public=Subquery(Tournament.objects.filter(pk=OuterRef("round__tournament_id"))
                           .values("is_public")[:1]),
        organiser=_organiser_of(request.user, "round__tournament_id"),
        **_version_annotations(),
    ).values("is_public", "organiser", *_version_annotations())
    return _visible(rows.first())


def _page_etag(request, page: str, version: dict, *objects) -> str:
    user = request.user.pk if request.user.is_authenticated else None
    return fingerprint(page, objects, sorted(version.items()), request.get_full_path(),
                       request.LANGUAGE_CODE, user)


def tournament_etag(page: str):
    """The ETag function of an event's live page `page` (views taking `pk` and perhaps more
    keyword arguments, e.g. a round's `number`): None for a request that is not an htmx poll
    (rendered as usual), else the page's fingerprint. Raises Http404 as `tournament_version`."""
    def etag_of(request, pk: int, **kwargs) -> str | None:
        if not request.htmx:
            return None
        return _page_etag(request, page, tournament_version(request, pk), pk, kwargs)
    return etag_of


def match_etag(request, match_pk: int) -> str | None:
    """The match page's ETag function, as `tournament_etag`."""
    if not request.htmx:
        return None
    return _page_etag(request, "match", match_version(request, match_pk), match_pk)


def live(etag_func):
    """View decorator: Django's `etag` with `etag_func` (a 304 with no body when the poll's
    If-None-Match is the page's ETag), and on an answer that carries an ETag, `Cache-Control:
    private, no-cache` (a browser asks again every time) and `Vary: HX-Request` (the poll's
    answer is not the page)."""
    def decorator(view):
        conditional = etag(etag_func)(view)

        @wraps(view)
        def wrapped(request, *args, **kwargs):
            response = conditional(request, *args, **kwargs)
            if response.has_header("ETag"):
                patch_cache_control(response, private=True, no_cache=True)
                patch_vary_headers(response, ("HX-Request",))
            return response
        return wrapped
    return decorator
