"""Public pages: the list of tournaments and a tournament's overview."""

from django.shortcuts import redirect, render

from tournaments.access import can_organise, tournament_for_reading
from tournaments.labels import round_labels
from tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.visible_to(request.user).select_related("club")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_detail(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    if tournament.format == Tournament.Format.CLUB_NIGHT:
        return redirect("club_night_detail", pk=pk)
    rounds = list(tournament.rounds.all())
    if tournament.is_knockout:
        labels = round_labels(len(rounds)) if rounds else {}
        for round_ in rounds:
            round_.label = labels[round_.number]
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament,
        "entries": tournament.entries.select_related("player"),
        "rounds": rounds,
        "can_organise": can_organise(request.user, tournament),
    })
