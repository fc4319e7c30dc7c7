"""Sentences of the register that are not errors: the question asked when a typed name may
mean a player already in the register (`services.players_like`), on the event's players page
and the club night's pairing form."""

from django.utils.translation import gettext

from club.models import Club, Player


def names_listed(players: list[Player]) -> str:
    """The players' names, e.g. "Иван Петров, Ivan Petrov"."""
    return ", ".join(player.name for player in players)


def like_question(typed: str, players: list[Player], *, club: Club | None) -> str:
    """The question for the name `typed` that may mean one of `players` (at least one) of
    `club`'s register (None: the players of no club), e.g. "Иван Петров is already in the
    register of Клуб Пловдив — use this player?"."""
    values = {"typed": typed, "name": players[0].name, "names": names_listed(players),
              "club": club.name if club is not None else ""}
    if len(players) == 1 and club is not None:
        return gettext(
            "%(name)s is already in the register of %(club)s — use this player?"
        ) % values
    if len(players) == 1:
        return gettext(
            "%(name)s is already in the register, among the players of no club — use this "
            "player?"
        ) % values
    if club is not None:
        return gettext(
            "Players with a name like “%(typed)s” are already in the register of %(club)s: "
            "%(names)s — use one of them?"
        ) % values
    return gettext(
        "Players with a name like “%(typed)s” are already in the register, among the players "
        "of no club: %(names)s — use one of them?"
    ) % values


def use_player(player: Player) -> str:
    """The button that takes the register's player for the typed name."""
    return gettext("Use %(name)s") % {"name": player.name}


def add_new_player(typed: str) -> str:
    """The button that adds a new player with exactly the typed name all the same."""
    return gettext("Add a new player “%(name)s”") % {"name": typed}
