"""A whole paper scorecard entered at once (`matches:scorecard`), for a match with no deals:
the grid of deals (`scoring.scorecard_entry`), its running score worked out as it is
typed (`static/js/scorecard.js`, from the legend's game points the page carries), and one
`scoring.services.match_scorecard_record` call that saves every deal or none.

GET shows an empty grid; "More rows" (a POST with `more`) shows the same grid longer. A bad
row re-renders the grid as typed with each bad row's message and 422; a match that cannot
take a scorecard (deals entered meanwhile, a final score, closed by a withdrawal, an event
that keeps final scores only) answers 409. Nothing is written in either case.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.messages import user_message
from events.access import pairing_for_organiser
from scoring import rules, scorecard_entry, services
from scoring.errors import RecordingError, ScorecardError
from scoring.models import Match
from scoring.reason_codes import codes_of, legend

PAGE = "tableside/match_scorecard.html"


@login_required
@require_http_methods(["GET", "POST"])
def scorecard(request, match_pk: int):
    pairing = pairing_for_organiser(request, match_pk)
    match = pairing.match
    if request.method == "GET":
        if refusal := _refusal(pairing, match):
            return _page(request, pairing, scorecard_entry.blank_grid(), refusal, status=409)
        return _page(request, pairing, scorecard_entry.blank_grid())
    house_rules = match.house_rules()
    if "more" in request.POST:
        grid = scorecard_entry.read_grid(request.POST, house_rules, match.first_dealer)
        count = scorecard_entry.row_count(request.POST) + scorecard_entry.MORE_ROWS
        grid = scorecard_entry.Grid(rows=[
            *[scorecard_entry.GridRow(r.number, r.winner, r.points, r.code) for r in grid.rows],
            *[scorecard_entry.GridRow(n) for n in range(len(grid.rows) + 1, count + 1)],
        ][:scorecard_entry.MAX_ROWS])
        return _page(request, pairing, grid)
    if refusal := _refusal(pairing, match):
        grid = scorecard_entry.read_grid(request.POST, house_rules, match.first_dealer)
        return _page(request, pairing, grid, refusal, status=409)
    grid = scorecard_entry.read_grid(request.POST, house_rules, match.first_dealer)
    if not grid.valid:
        return _page(request, pairing, grid, status=422)
    try:
        deals = services.match_scorecard_record(match=match, scores=grid.scores, by=request.user)
    except rules.InvalidDeal as error:
        return _page(request, pairing, grid, user_message(error), status=422)
    except RecordingError as error:
        status = 422 if error.code == "scorecard_not_finished" else 409
        return _page(request, pairing, grid, user_message(error), status=status)
    messages.success(request, _(
        "The scorecard is saved: %(count)s deals, %(points_a)s:%(points_b)s."
    ) % {"count": len(deals), "points_a": match.game_points_a, "points_b": match.game_points_b})
    return redirect("matches:entry", match_pk=match.pk)


def offered(tournament, match: Match, organiser: bool, deals: int) -> bool:
    """Whether the match page offers "Enter a finished scorecard": to its organisers, for a
    match with no deals that is not over, in an event that keeps every deal."""
    return organiser and not deals and not match.is_over and not tournament.final_score_only


def _refusal(pairing, match: Match) -> str:
    """Why this match cannot take a scorecard now ("" when it can)."""
    if pairing.round.tournament.final_score_only:
        return user_message(RecordingError("final_score_only"))
    if match.status in Match.CLOSED:
        return user_message(RecordingError(
            "match_forfeited" if match.status == Match.Status.FORFEITED else "match_unplayed"
        ))
    if match.deals.exists() or match.is_over:
        return user_message(ScorecardError("scorecard_match_started"))
    return ""


def _page(request, pairing, grid, error: str = "", status: int = 200):
    match = pairing.match
    house_rules = match.house_rules()
    items = legend(house_rules)
    for item in items:
        item["codes"] = " ".join(codes_of(item["reason"]))
        item["points_list"] = " ".join(str(p) for p in item["points"])
    return render(request, PAGE, {
        "pairing": pairing, "tournament": pairing.round.tournament, "round": pairing.round,
        "match": match, "house_rules": house_rules, "grid": grid, "legend": items,
        "error": error, "errors": grid.errors if status == 422 else [],
    }, status=status)
