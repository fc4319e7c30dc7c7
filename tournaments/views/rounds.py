"""A round: its pairings with tables, the bye, each match's status and score. A knockout's
rounds carry their names (quarterfinal, semifinal, final) and show byes and walkovers."""

from django.shortcuts import get_object_or_404, render

from tournaments import formats, table_entry
from tournaments.access import can_organise, tournament_for_reading
from tournaments.live import live, tournament_etag
from tournaments.selectors import pairings_of_round


@live(tournament_etag("round"))
def round_detail(request, pk: int, number: int):
    tournament = tournament_for_reading(request, pk)
    round_ = get_object_or_404(tournament.rounds, number=number)
    rounds = list(tournament.rounds.all())
    event_format = formats.for_tournament(tournament)
    labels = event_format.round_labels(len(rounds))
    for other in rounds:
        other.label = labels.get(other.number, "")
    round_.label = labels.get(round_.number, "")
    pairings = list(pairings_of_round(round_))
    return render(request, "tournaments/round_detail.html", {
        "tournament": tournament,
        "round": round_,
        "rounds": rounds,
        "pairings": pairings,
        "provisional": table_entry.provisional_matches(
            tournament, [p.match for p in pairings if p.match_id]),
        "can_organise": can_organise(request.user, tournament),
        "groups": event_format.has_groups,
    })
