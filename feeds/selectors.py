"""What the feeds show: only what an anonymous visitor may read, since a calendar program or
a club's website reads a feed without logging in. The events come through
`Tournament.objects.visible_to` (the public ones), the same rule as the pages."""

from django.contrib.auth.models import AnonymousUser
from django.db.models import F, QuerySet

from club.models import Club, Player
from events.models import Tournament
from scoring.models import Match

RESULTS_IN_FEED = 50
"""How many finished matches the results feed of a club carries, newest first."""


def public_events() -> QuerySet[Tournament]:
    """The events anyone may read (`Tournament.objects.visible_to` an anonymous visitor)."""
    return Tournament.objects.visible_to(AnonymousUser())


def public_players() -> QuerySet[Player]:
    """The players anyone may read (`Player.objects.visible_to` an anonymous visitor): a player
    seen only in private events is not one of them."""
    return Player.objects.visible_to(AnonymousUser())


def club_events(club: Club) -> QuerySet[Tournament]:
    """The club's public events of every format (club nights too) and status, by date, then
    in the order they were created."""
    return public_events().filter(club=club).order_by("date", "pk")


def player_events(player: Player) -> QuerySet[Tournament]:
    """The public events `player` is entered in (a withdrawal keeps the entry, so those too),
    of any club, by date, then in the order they were created."""
    return public_events().filter(entries__player=player).distinct().order_by("date", "pk")


def club_results(club: Club) -> list[Match]:
    """The latest `RESULTS_IN_FEED` finished matches (a winner and a score; not forfeits) of
    the club's public events, newest first (`finished_at`, then the later match first), each
    with its players and `pairing.round.tournament` read in the same query."""
    events = public_events().filter(club=club).values("pk")
    return list(
        Match.objects.filter(status=Match.Status.FINISHED,
                             pairing__round__tournament__in=events)
        .select_related("player_a", "player_b", "pairing__round__tournament")
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")[:RESULTS_IN_FEED]
    )
