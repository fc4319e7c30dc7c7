"""The feeds (`feeds:`), read anonymously by calendar programs and club websites: only what
anyone may read appears (`feeds.selectors`), whoever asks; an unknown club, or a player seen
only in private events, is a 404, as on their pages.

- `club_calendar`, `player_calendar`: iCalendar files (`feeds.calendars`) of a club's public
  events and club nights, and of the public events a player is entered in;
- `club_results`: an Atom feed (Django's syndication framework, `Atom1Feed`) of the latest
  finished matches of a club's public events, newest first, each linking to its match page.
"""

from django.contrib.syndication.views import Feed
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.models import Club
from events import registry
from feeds import calendars, selectors
from scoring.models import Match

CALENDAR_TYPE = "text/calendar; charset=utf-8"


def calendar_response(name: str, events, request, filename: str) -> HttpResponse:
    response = HttpResponse(
        calendars.calendar_bytes(name, events, request.build_absolute_uri),
        content_type=CALENDAR_TYPE,
    )
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_safe
def club_calendar(request, club_pk: int):
    club = get_object_or_404(Club, pk=club_pk)
    return calendar_response(club.name, selectors.club_events(club), request,
                             f"club-{club.pk}.ics")


@require_safe
def player_calendar(request, player_pk: int):
    player = get_object_or_404(selectors.public_players(), pk=player_pk)
    return calendar_response(player.name, selectors.player_events(player), request,
                             f"player-{player.pk}.ics")


def match_place(match: Match) -> str:
    """Where the match stands in its event, as the player's page says it: "Event, round 2"
    (and the table when it has one), a club night's "Event, table 3"."""
    pairing = match.pairing
    tournament = pairing.round.tournament
    if registry.for_tournament(tournament).pairs_on_the_spot:
        if pairing.table:
            return _("%(event)s, table %(table)s") % {"event": tournament.name,
                                                       "table": pairing.table}
        return tournament.name
    return _("%(event)s, round %(round)s") % {"event": tournament.name,
                                              "round": pairing.round.number}


class ClubResultsFeed(Feed):
    """A club's finished matches (`selectors.club_results`) as Atom entries titled
    "A – B 11:7 (Event, round 2)": seat A first, with the game points in the same order."""

    feed_type = Atom1Feed

    def get_object(self, request, club_pk: int) -> Club:
        return get_object_or_404(Club, pk=club_pk)

    def title(self, club: Club) -> str:
        return _("%(club)s: results") % {"club": club.name}

    def subtitle(self, club: Club) -> str:
        return _("The latest finished matches of the club's public events, newest first.")

    def link(self, club: Club) -> str:
        return reverse("clubs:club", args=[club.pk])

    def feed_url(self, club: Club) -> str:
        return reverse("feeds:club_results", args=[club.pk])

    def items(self, club: Club) -> list[Match]:
        return selectors.club_results(club)

    def item_title(self, match: Match) -> str:
        return (f"{match.player_a.name} – {match.player_b.name} "
                f"{match.game_points_a}:{match.game_points_b} ({match_place(match)})")

    def item_description(self, match: Match) -> str:
        """A sentence of text, escaped: Atom's summary is HTML."""
        tournament = match.pairing.round.tournament
        return escape(_("%(winner)s won. %(event)s, %(date)s.") % {
            "winner": match.player(match.winner).name, "event": tournament.name,
            "date": date_format(tournament.date, "DATE_FORMAT"),
        })

    def item_link(self, match: Match) -> str:
        return reverse("matches:entry", args=[match.pk])

    def item_pubdate(self, match: Match):
        return match.finished_at

    def item_updateddate(self, match: Match):
        return match.finished_at


@require_safe
def club_results(request, club_pk: int):
    return ClubResultsFeed()(request, club_pk=club_pk)
