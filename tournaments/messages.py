"""Translated sentences for `services.TournamentError` codes (services speak English)."""

from django.utils.translation import gettext_lazy as _

from tournaments.services import MAX_ROUND_ROBIN_PLAYERS, MIN_PLAYERS

MESSAGES = {
    "already_started": _("The tournament has started; its players and draw are fixed."),
    "already_entered": _("This player is already in the tournament."),
    "too_many_players": _("A round robin takes at most %(max)s players."),
    "too_few_players": _("A round robin needs at least %(min)s players."),
    "draw_not_a_permutation": _("List every player of the tournament exactly once."),
    "not_round_robin": _("Only round robins are scheduled this way."),
    "rules_frozen": _("Deals have been entered; the house rules can no longer change."),
    "already_withdrawn": _("This player has already withdrawn."),
}


def tournament_error_message(error) -> str:
    return str(MESSAGES[error.code]) % {"max": MAX_ROUND_ROBIN_PLAYERS, "min": MIN_PLAYERS}
