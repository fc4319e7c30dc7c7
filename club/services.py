"""Writes to the register of players: every write goes through a service.

One rule for finding a player by name: the player called exactly `name` in `club` (or, for
`club=None`, among players of no club). The database holds at most one per name and club
(`Player`'s constraints `player_unique_name_per_club`, `player_unique_name_without_club`), so
a name never means two players. The pairing form, the players page, the demo and the CSV
import all look players up here.
"""

from collections.abc import Iterable

from django.db import IntegrityError, transaction

from club.models import Club, Player


def players_named(names: Iterable[str], *, club: Club | None) -> dict[str, Player]:
    """The register's players called one of `names` in `club` (None: players of no club), by
    name; names with no player are missing from the answer. One query."""
    return {player.name: player for player in Player.objects.filter(club=club, name__in=names)}


def player_for_name(*, name: str, club: Club | None) -> Player:
    """The register's player called `name` in `club` (or among players of no club), or a new
    one: how a newcomer typed in at a form joins the register.

    Safe when two organisers type the same new name at once: the database holds one player
    per name and club, players of no club included; the one whose insert loses the race
    reads the winner's row instead. The insert runs in a savepoint, so the caller's
    transaction goes on.
    """
    player = players_named([name], club=club).get(name)
    if player is not None:
        return player
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, club=club)
    except IntegrityError:
        return Player.objects.get(name=name, club=club)
