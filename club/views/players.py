"""A player's page: their matches across every event, newest first, and their record against
each opponent. Public, but only matches of events the viewer may see
(`standings_selectors.player_pairings`); a player seen only in private events is a 404 to
all but their
organisers (`Player.objects.visible_to`)."""

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from club.models import Player
from events import registry
from events.access import can_organise_club
from ratings import selectors as ratings_selectors
from standings import ladder
from standings import selectors as standings_selectors
from standings.tables import HeadToHeadTable
from standings.tie_breaks import MatchResult

MATCHES_PER_PAGE = 50


def _history(player: Player, pairings) -> tuple[list[dict], list[MatchResult], dict]:
    """One row per match from the player's side; the over ones as results; opponents by id."""
    rows, results, opponents = [], [], {}
    for pairing in pairings:
        match, tournament = pairing.match, pairing.round.tournament
        mine_a = pairing.entry_a.player_id == player.pk
        opponent = (pairing.entry_b if mine_a else pairing.entry_a).player
        opponents[opponent.pk] = opponent
        own, other = (match.game_points_a, match.game_points_b) if mine_a else (match.game_points_b,
                                                                     match.game_points_a)
        rows.append({
            "pairing": pairing, "match": match, "tournament": tournament,
            "club_night": registry.for_tournament(tournament).pairs_on_the_spot,
            "opponent": opponent, "own": own, "other": other,
            "won": match.is_decided and match.winner == ("A" if mine_a else "B"),
            "forfeit": match.status == match.Status.FORFEITED,
        })
        if match.is_decided:
            results.append(MatchResult(
                player.pk, opponent.pk, own, other, "A" if rows[-1]["won"] else "B",
                forfeit=rows[-1]["forfeit"],
            ))
    return rows, results, opponents


@require_safe
def player_detail(request, player_pk: int):
    player = get_object_or_404(
        Player.objects.visible_to(request.user).select_related("club"), pk=player_pk
    )
    pairings = standings_selectors.player_pairings(player, request.user)
    rows, results, opponents = _history(player, pairings)
    record = ladder.head_to_head(player.pk, results)
    h2h = HeadToHeadTable([{
        "opponent": opponents[row.opponent].name, "opponent_pk": row.opponent,
        "played": row.played, "won": row.won, "lost": row.lost,
        "gp_for": row.game_points_for, "gp_against": row.game_points_against,
    } for row in record])
    # The record and head-to-head count every match; the list shows them 50 at a time. A page
    # number that is not one (or past the end) gives the first (or last) page, never an error.
    matches_page = Paginator(rows, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "club/player_detail.html", {
        "player": player, "rows": matches_page.object_list, "matches_page": matches_page,
        "h2h": h2h if record else None,
        "played": len(results), "won": sum(r.winner == "A" for r in results),
        "rating_history": ratings_selectors.rating_points(player),
        "rating_record": ratings_selectors.player_rating(player),
        "organises_club": player.club is not None and can_organise_club(request.user,
                                                                        player.club),
    })
