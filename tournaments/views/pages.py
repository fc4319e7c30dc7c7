"""Public pages: the list of tournaments and a tournament's overview."""

from django.shortcuts import redirect, render

from tournaments import formats
from tournaments.access import can_organise, tournament_for_reading
from tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.visible_to(request.user).select_related("club")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_detail(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    event_format = formats.for_tournament(tournament)
    if event_format.overview_page != "tournaments:detail":
        return redirect(event_format.overview_page, pk=pk)
    rounds = list(tournament.rounds.all())
    labels = event_format.round_labels(len(rounds))
    for round_ in rounds:
        round_.label = labels.get(round_.number, "")
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament,
        "entries": tournament.entries.select_related("player"),
        "rounds": rounds,
        "can_organise": can_organise(request.user, tournament),
    })
