"""What makes a page live: it names its stream (`live.views.streams`) with the version it was
drawn at (`follow_event`, `follow_match`, read from the object the page shows), and when the
stream says `changed` its live region fetches its part again — the same address with htmx's
`HX-Request`, which the view answers with the part alone (`part_or_page`).

    @shared_part("event")
    def standings(request, pk):
        tournament = tournament_for_reading(request, pk)
        follow_event(request, tournament)
        ...
        return render(request, part_or_page(request, PAGE, PART), context)

A part that many screens fetch at one version is rendered once (`shared_part`): a part fetched
by a visitor who is not signed in is kept in Django's cache under the page's address, its
language and the version, for `SHARED_SECONDS`; a new version is a new key, so nothing is ever
stale and nothing needs forgetting. A part holding a form (a CSRF token) is never kept.
"""

from dataclasses import dataclass
from functools import wraps
from urllib.parse import quote

from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import get_language

from events.models import Tournament
from passes.models import PlayerPass
from scoring.models import Match

SHARED_SECONDS = 300


@dataclass(frozen=True)
class Live:
    """What a live page's templates read (`request.live`): its stream's address, with the
    version the page was drawn at (`version`; None for a job's page). Every answer to such a
    request names the version in `X-Live-Version` (`LiveVersionMiddleware`): the page then
    knows it shows that version, and does not fetch again for its own change."""

    stream: str
    version: int | None = None


def _follow(request, stream: str, version: int, *, pushed: bool = True) -> None:
    address = f"{stream}?v={version}"
    if pushed and not request.user.is_authenticated:  # the stream may push the part itself
        address += "&part=" + quote(request.get_full_path(), safe="/")
    request.live = Live(stream=address, version=version)


class LiveVersionMiddleware:
    """Adds `X-Live-Version` to the answer of a request whose page follows a stream
    (`request.live`), unless the view named it already."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        live = getattr(request, "live", None)
        if live is not None and live.version is not None:
            response.headers.setdefault("X-Live-Version", str(live.version))
        return response


def follow_event(request, tournament: Tournament) -> None:
    """Make this request's page follow `tournament`'s stream from its version as read."""
    _follow(request, reverse("live:event_stream", args=[tournament.pk]), tournament.version)


def follow_match(request, match: Match) -> None:
    """Make this request's page follow `match`'s stream from its version as read."""
    _follow(request, reverse("live:match_stream", args=[match.pk]), match.version)


def follow_job(request, stream: str) -> None:
    """Make a running background job's page follow its stream (`streams.ticking`)."""
    request.live = Live(stream=stream)


def follow_link(request, token: str, match: Match) -> None:
    """Make the players' page of link `token` follow its match from its version as read."""
    _follow(request, reverse("live:link_stream", args=[token]), match.version, pushed=False)


def follow_pass(request, token: str, player_pass, event_ids: list[int]) -> None:
    """Make the pass page of `token` follow its stream (`live:pass_stream`): the pass itself
    and the events `event_ids` it shows, from their versions as read now (`pass_version`).
    Personal: the stream says `changed`, never pushes a part."""
    _follow(request, reverse("live:pass_stream", args=[token]),
            pass_version(player_pass.pk, event_ids), pushed=False)


def follow_pass_match(request, token: str, match: Match) -> None:
    """Make the match page opened from pass `token` follow the match
    (`live:pass_match_stream`), from its version as read: the match's link never shows in the
    page."""
    _follow(request, reverse("live:pass_match_stream", args=[token, match.pk]), match.version,
            pushed=False)


def follow_claim(request, claim) -> None:
    """Make the waiting page of self check-in follow its claim (`live:claim_stream`, the
    claim's secret in its cookie), from its version as read. Personal: never a pushed part."""
    _follow(request, reverse("live:claim_stream"), claim.version, pushed=False)


def pass_version(pass_pk: int, event_ids: list[int]) -> int:
    """The version a pass page is drawn at: the sum of its pass's version and of the events'
    it shows (each only grows, so the sum moves on whenever one does). Two queries."""
    total = PlayerPass.objects.filter(pk=pass_pk).values_list("version", flat=True).first() or 0
    versions = Tournament.objects.filter(pk__in=event_ids).values_list("version", flat=True)
    return total + sum(versions)


def asks_for_part(request) -> bool:
    """Whether this request is a live region fetching its part again (an htmx GET)."""
    return bool(request.htmx) and request.method in ("GET", "HEAD")


def part_or_page(request, page: str, part: str) -> str:
    """The template to render: `part` when the live region asked for itself again, else the
    whole `page` (which includes `part`)."""
    return part if asks_for_part(request) else page


PUBLIC = {
    "event": (Tournament.objects.filter(is_public=True), "pk"),
    "match": (Match.objects.filter(pairing__round__tournament__is_public=True), "match_pk"),
}
"""What a visitor who is not signed in may see, by kind."""


def shared_part(kind: str):
    """View decorator (see the module docstring): `kind` "event" (the view takes `pk`) or
    "match" (`match_pk`). Only a part asked for by a visitor who is not signed in is shared,
    and only of a public event; it costs one query, the version (none of a private event's:
    the view answers, as it answers everyone)."""
    visible, argument = PUBLIC[kind]

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not asks_for_part(request) or request.user.is_authenticated:
                return view(request, *args, **kwargs)
            pk = kwargs[argument]
            version = visible.filter(pk=pk).values_list("version", flat=True).first()
            if version is None:
                return view(request, *args, **kwargs)
            key = f"live-part:{kind}:{pk}:{version}:{get_language()}:{request.get_full_path()}"
            body = cache.get(key)
            if body is not None:
                response = HttpResponse(body)
                response["X-Live-Version"] = str(version)
                return response
            response = view(request, *args, **kwargs)
            if (response.status_code == 200
                    and not response.streaming and b"csrfmiddlewaretoken" not in response.content):
                cache.set(key, response.content, SHARED_SECONDS)
            return response
        wrapped.shared_part = (kind, argument)  # what `live.pushed` may render to push
        return wrapped
    return decorator
