"""What this format refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError
from scoring.errors import RecordingError


class KnockoutError(TournamentError):
    """A knockout cannot take this change: `KnockoutError(code, **params)`."""

    messages = {
        "bracket_changed": _(
            "The bracket changed at this very moment (another organiser?); nothing was changed. "
            "Try again."
        ),
        "not_knockout": _("Only a knockout is drawn as a bracket."),
        "too_few_knockout_players": _(
            "A knockout needs at least %(min_players)s players. This one has %(players)s."
        ),
        "too_many_knockout_players": _(
            "A knockout takes at most %(max_players)s players. This one has %(players)s."
        ),
        "third_place_needs_four": _(
            "A third-place match needs at least %(min_players)s players, and this knockout has "
            "%(players)s; switch it off in the settings."
        ),
        "source_not_round_robin": _("Seeds come from the standings of a round robin."),
        "source_not_finished": _(
            "That round robin has not finished yet; its standings may still change."
        ),
    }


class BracketChanged(RecordingError):
    """A deal's change met a bracket another organiser changed at the same moment."""

    messages = {"bracket_changed": KnockoutError.messages["bracket_changed"]}

    def __init__(self) -> None:
        super().__init__("bracket_changed")
