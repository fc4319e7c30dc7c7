"""Pages of the tournaments app. Views are adapters: access check, selector, render."""

from django.shortcuts import get_object_or_404, render

from tournaments.models import Tournament


def home(request):
    tournaments = Tournament.objects.visible_to(request.user).select_related("club")
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_detail(request, pk: int):
    tournament = get_object_or_404(Tournament.objects.visible_to(request.user), pk=pk)
    entries = tournament.entries.select_related("player")
    return render(
        request,
        "tournaments/tournament_detail.html",
        {"tournament": tournament, "entries": entries},
    )
