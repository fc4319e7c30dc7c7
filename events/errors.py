"""What the event services refuse, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from core.errors import UserError
from scoring.errors import RecordingError


class TournamentError(UserError):
    """The event cannot take this change: `TournamentError(code, **params)`, `.params` the
    names and numbers the sentence names."""

    messages = {
        "already_started": _("The tournament has started; its players and draw are fixed."),
        "already_finished": _(
            "The tournament has finished; its results are final and nobody can withdraw any more."
        ),
        "already_entered": _("%(name)s is already in this tournament."),
        "too_many_players": _(
            "A round robin takes at most %(max_players)s players. This one has %(players)s."
        ),
        "too_few_players": _(
            "A round robin needs at least %(min_players)s players. This one has %(players)s."
        ),
        "draw_not_a_permutation": _("List every player of the tournament exactly once."),
        "not_round_robin": _("Only round robins are scheduled this way."),
        "rules_frozen": _("Deals have been entered; the house rules can no longer change."),
        "already_withdrawn": _("This player has already withdrawn."),
        "not_started": _("The tournament has not started; remove the player instead."),
        "bad_seed_count": _("Take from %(low)s to %(high)s players from the standings."),
    }


class ResultFinal(RecordingError):
    """A finished match of a player who has withdrawn would reopen or change winner (an undo,
    a correction): refused, code `player_withdrawn`. Raised inside the recording transaction
    (from the round-robin format's `on_match_reopened`, when `has_withdrawn_player`), it
    rolls the undo or correction back."""

    messages = {
        "player_withdrawn": _(
            "A player of this match has withdrawn; its result can no longer be reopened. Nothing "
            "was changed."
        ),
    }

    def __init__(self) -> None:
        super().__init__("player_withdrawn")
