"""Public pages: the list of tournaments and a tournament's overview."""

from django.shortcuts import redirect, render

from tournaments.access import can_organise, tournament_for_reading
from tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.visible_to(request.user).select_related("club")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_detail(request, pk: int):
    tournament = tournament_for_reading(request, pk)
    if tournament.format == Tournament.Format.CLUB_NIGHT:
        return redirect("club_night_detail", pk=pk)
    return render(request, "tournaments/tournament_detail.html", {
        "tournament": tournament,
        "entries": tournament.entries.select_related("player"),
        "rounds": tournament.rounds.all(),
        "can_organise": can_organise(request.user, tournament),
    })
