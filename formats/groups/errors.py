"""What this format refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError
from scoring.errors import RecordingError


class GroupsError(TournamentError):
    """A group stage cannot take this change: `GroupsError(code, **params)`."""

    messages = {
        # Groups, then a knockout (formats.groups.services)
        "not_groups": _("This event has no group stage."),
        "groups_not_set": _(
            "Set the number of groups and how many players of each group go on to the knockout "
            "(the settings)."
        ),
        "groups_too_small": _(
            "%(players)s players cannot make %(groups)s groups of at least %(min_size)s players; "
            "choose fewer groups or add players."
        ),
        "groups_too_large": _(
            "%(players)s players in %(groups)s groups would make a group of more than "
            "%(max_size)s players; choose more groups."
        ),
        "bad_group_advance": _(
            "From %(low)s to %(high)s players of each group may go on to the knockout."
        ),
        "knockout_already_drawn": _("The knockout has already been drawn."),
        "group_matches_unfinished": _(
            "Group matches not over yet: %(count)s. Starting the knockout now closes them "
            "unplayed (they count for nothing); confirm to go on."
        ),
    }


class GroupStageOver(RecordingError):
    """A group match would reopen or change winner after the knockout was drawn from the
    group standings: refused (code `group_stage_over`), which rolls the undo or correction
    back."""

    messages = {
        "group_stage_over": _(
            "The knockout has been drawn from the group standings; the group results are final. "
            "Nothing was changed."
        ),
    }

    def __init__(self) -> None:
        super().__init__("group_stage_over")
