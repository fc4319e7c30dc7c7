"""What this format refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError
from scoring.errors import RecordingError


class SwissError(TournamentError):
    """A Swiss cannot take this change: `SwissError(code, **params)`."""

    messages = {
        # Swiss (formats.swiss.services)
        "too_few_swiss_players": _(
            "A Swiss needs at least %(min_players)s players. This one has %(players)s."
        ),
        "too_many_swiss_players": _(
            "A Swiss takes at most %(max_players)s players. This one has %(players)s."
        ),
        "swiss_rounds_missing": _(
            "Set the number of rounds in the tournament's settings before the start."
        ),
        "too_many_swiss_rounds": _(
            "%(players)s players can play at most %(most)s rounds without meeting twice; this "
            "Swiss is set to %(rounds)s. Lower the rounds in the settings."
        ),
        "swiss_not_started": _(
            "The tournament has not started yet; round 1 is paired at the start."
        ),
        "round_not_over": _(
            "Round %(round)s is not over yet: every match needs its result before the next round "
            "is paired. Nothing was changed."
        ),
        "no_rounds_left": _(
            "All %(rounds)s rounds have been paired; the tournament ends when the last one is over."
        ),
        "round_not_latest": _("Only the last round can be paired again; round %(round)s is not."),
        "round_has_deals": _(
            "Deals have been entered in round %(round)s; it can no longer be paired again. "
            "Nothing was changed."
        ),
        "swiss_withdraw_mid_round": _(
            "Round %(round)s is being played: a player withdraws between rounds, once every match "
            "of it is over. Nothing was changed."
        ),
        "swiss_entry_mid_round": _(
            "Round %(round)s is being played: a player joins between rounds, once every match of "
            "it is over. Nothing was changed."
        ),
    }


class RoundPairedFromResult(RecordingError):
    """A result the next round was paired from would reopen or change winner: refused (code
    `next_round_paired`, `round`: the round paired from it), which rolls the undo or
    correction back."""

    messages = {
        "next_round_paired": _(
            "Round %(round)s has been paired from this result; it can no longer be reopened. "
            "Nothing was changed."
        ),
    }

    def __init__(self, *, round: int) -> None:  # noqa: A002 (the sentence's own name)
        super().__init__("next_round_paired", round=round)
