"""Public pages: the list of tournaments and a tournament's overview."""

from django.shortcuts import redirect, render

from events import registry
from events.access import can_organise, tournament_for_reading
from events.models import Tournament


def home(request):
    tournaments = Tournament.objects.visible_to(request.user).select_related("club")
    return render(request, "events/home.html", {"tournaments": tournaments})


def tournament_detail(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    event_format = registry.for_tournament(tournament)
    if event_format.overview_page != "events:detail":
        return redirect(event_format.overview_page, pk=pk)
    rounds = list(tournament.rounds.all())
    labels = event_format.round_labels(len(rounds))
    for round_ in rounds:
        round_.label = labels.get(round_.number, "")
    return render(request, "events/tournament_detail.html", {
        "tournament": tournament,
        "entries": tournament.entries.select_related("player"),
        "rounds": rounds,
        "can_organise": can_organise(request.user, tournament),
    })
