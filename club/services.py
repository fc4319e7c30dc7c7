"""Writes to the register of players: every write goes through a service.

One rule for finding a player by name: the player called exactly `name` in `club` (or, for
`club=None`, among players of no club). The database holds at most one per name and club
(`Player`'s constraints `player_unique_name_per_club`, `player_unique_name_without_club`), so
a name never means two players. The pairing form, the players page, the demo and the CSV
import all look players up here.

A name no player is called exactly may still be one of theirs typed another way ("иван
петров", "Ivan Petrov" for Иван Петров): `players_like` finds the players whose name has the
same key (`club.name_matching`), and the players page, the pairing form and the import propose
them instead of making a second player.
"""

from collections import defaultdict
from collections.abc import Iterable

from django.db import IntegrityError, transaction

from club.models import Club, Player
from club.name_matching import name_key
from core.access import sees_everything


def players_named(names: Iterable[str], *, club: Club | None) -> dict[str, Player]:
    """The register's players called one of `names` in `club` (None: players of no club), by
    name; names with no player are missing from the answer. One query."""
    return {player.name: player for player in Player.objects.filter(club=club, name__in=names)}


def players_like(names: Iterable[str], *, club: Club | None,
                 user=None) -> dict[str, list[Player]]:
    """For each of `names` that no player of `club` (None: players of no club) is called
    exactly, the players of `club` whose name or name in Latin letters has the same key
    (`club.name_matching.name_key`): the players the name may mean. By name, each list by
    name; names with none, and names a player is called exactly (the exact name is that
    player, as always), are missing from the answer.

    `user` (a `User` or `AnonymousUser`), when given, sees each player proposed
    (`Player.objects.visible_to`): a proposal never names a player hidden from them. Without
    one (the import run from the command line) every player of `club` counts.

    The keys are worked out here, over the club's players, not stored: two queries and some
    5 microseconds a name, a few milliseconds for a club of a few hundred players. A stored
    key would have to follow every write of a name (the admin, the import's bulk inserts, the
    history table) and be filled again by a migration whenever the rules of the key change.
    """
    names = set(names)
    if not names:
        return {}
    register = list(Player.objects.filter(club=club).only("pk", "name", "name_latin", "club"))
    if user is not None and not sees_everything(user):
        seen = set(Player.objects.visible_to(user).filter(club=club).values_list("pk", flat=True))
    else:
        seen = {player.pk for player in register}
    texts = names | {text for player in register for text in (player.name, player.name_latin)}
    key = {text: name_key(text) for text in texts}
    by_key: dict[str, list[Player]] = defaultdict(list)
    for player in sorted(register, key=lambda player: (player.name, player.pk)):
        if player.pk in seen:
            for player_key in {key[player.name], key[player.name_latin]} - {""}:
                by_key[player_key].append(player)
    exact = {player.name for player in register}
    return {name: list(by_key[key[name]]) for name in names - exact if key[name] in by_key}


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
