"""Translated sentences for `services.TournamentError` codes (services speak English)."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.formats.knockout import Knockout
from tournaments.formats.round_robin import RoundRobin

MESSAGES = {
    "already_started": _("The tournament has started; its players and draw are fixed."),
    "already_entered": _("This player is already in the tournament."),
    "too_many_players": _("A round robin takes at most %(max)s players."),
    "too_few_players": _("A round robin needs at least %(min)s players."),
    "draw_not_a_permutation": _("List every player of the tournament exactly once."),
    "not_round_robin": _("Only round robins are scheduled this way."),
    "rules_frozen": _("Deals have been entered; the house rules can no longer change."),
    "already_withdrawn": _("This player has already withdrawn."),
    "not_knockout": _("Only a knockout is drawn as a bracket."),
    "too_few_knockout_players": _("A knockout needs at least %(min_knockout)s players."),
    "too_many_knockout_players": _("A knockout takes at most %(max_knockout)s players."),
    "third_place_needs_four": _(
        "A third-place match needs at least 4 players; switch it off in the settings."
    ),
    "not_started": _("The tournament has not started; remove the player instead."),
    "already_finished": _(
        "The tournament has finished; its results are final and nobody can withdraw any more."
    ),
    "source_not_round_robin": _("Seeds come from the standings of a round robin."),
    "source_not_finished": _(
        "That round robin has not finished yet; its standings may still change."
    ),
    "bad_seed_count": _("Take from %(low)s to %(high)s players from the standings."),
    "bracket_changed": _(
        "The bracket changed at this very moment (another organiser?); nothing was changed. "
        "Try again."
    ),
    # Club nights (tournaments.club_nights)
    "not_club_organiser": _("Only the club's organisers may hold its club nights."),
    "not_club_night": _("This event is not a club night."),
    "night_closed": _("This club night is closed."),
    "same_player": _("A player cannot play against themselves."),
    "bad_table": _("Tables are numbered from 1."),
    # Translators: a player is paired while their match at another table is unfinished.
    "player_busy": _(
        "%(name)s is still playing at table %(table)s. Finish that match before pairing "
        "them again."
    ),
    "table_busy": _("Table %(table)s is still in use (%(players)s)."),
    "match_has_deals": _("Deals have been entered; this match can no longer be taken back."),
    "pairing_removed": _("This pairing was already taken back."),
}


def tournament_error_message(error) -> str:
    return str(MESSAGES[error.code]) % {
        "max": RoundRobin.max_players, "min": RoundRobin.min_players,
        "max_knockout": Knockout.max_players, "min_knockout": Knockout.min_players,
        **error.params,
    }


def where_playing(elsewhere) -> str:
    """Where a match of another event is played, e.g. "Table 3 · Зимен турнир 2026" (the event
    alone for a match with no table): a table number never goes without its event's name, so
    a club night's table 3 and a round robin's table 3 are told apart. `elsewhere` is a
    `selectors.MatchElsewhere`."""
    if elsewhere.table is None:
        return elsewhere.tournament.name
    # Translators: a table of another event, e.g. "Table 3 · Зимен турнир 2026".
    return gettext("Table %(table)s · %(event)s") % {
        "table": elsewhere.table, "event": elsewhere.tournament.name,
    }


def elsewhere_warning(name: str, elsewhere) -> str:
    """The warning after a club-night pairing of a player who also has an unfinished match of
    another event (`selectors.matches_elsewhere`); the pairing is made all the same."""
    return gettext(
        "%(name)s also has an unfinished match in another event: %(where)s. The pairing is "
        "made all the same; make sure the player is not expected there."
    ) % {"name": name, "where": where_playing(elsewhere)}
