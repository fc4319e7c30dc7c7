"""A club's page (its seasons, events and players) and a season's ladder. Public.

The ladder counts the finished and forfeited matches of the club's public events dated within
the season (`standings_selectors.season_results`), ranked by `standings.ladder.season_ladder`.
"""

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from club.models import Club, Season
from events.access import can_organise_club
from events.models import Tournament
from ratings import selectors as ratings_selectors
from ratings.periods import PROVISIONAL_MATCHES
from standings import ladder
from standings import selectors as standings_selectors
from standings.tables import SeasonTable, season_rows


@require_safe
def club_detail(request, club_pk: int):
    club = get_object_or_404(Club, pk=club_pk)
    return render(request, "club/club_detail.html", {
        "club": club,
        "seasons": club.seasons.all(),
        "events": Tournament.objects.visible_to(request.user).filter(club=club),
        "players": club.players.visible_to(request.user).order_by("name"),
        "organises": can_organise_club(request.user, club),
    })


@require_safe
def season_detail(request, club_pk: int, season_pk: int):
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_pk,
                               club_id=club_pk)
    players, results = standings_selectors.season_results(season)
    order = sorted(players, key=lambda pk: (players[pk].name.casefold(), pk))
    table = ladder.season_ladder(results, season.min_matches, order)
    ratings = ratings_selectors.ratings_of(players)
    return render(request, "club/season_detail.html", {
        "season": season,
        "club": season.club,
        "ranked": SeasonTable(season_rows(table.ranked, players, ratings)),
        "unranked": SeasonTable(season_rows(table.unranked, players, ratings))
        if table.unranked else None,
        "events": standings_selectors.season_events(season),
        "matches": len(results),
        "forfeits": sum(result.forfeit for result in results),
        "provisional_matches": PROVISIONAL_MATCHES,
    })


@require_safe
def season_crosstable(request, club_pk: int, season_pk: int):
    """The season's cross-table: every meeting of each two players in it, rows in ladder
    order; the club's organisers get the button that prints it (`printing:season_request`)."""
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_pk,
                               club_id=club_pk)
    return render(request, "club/season_crosstable.html", {
        "season": season, "club": season.club,
        "table": standings_selectors.season_cross_table(season),
        "can_organise": can_organise_club(request.user, season.club),
    })
