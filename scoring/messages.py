"""Sentences of the deal forms, and the names the scoring code has always used for the error
sentences, which live in `club.messages` (the one module that turns an error's code and
parameters into a sentence; `user_message` speaks for `rules.InvalidDeal` and
`services.RecordingError` alike).
"""

from django.utils.translation import gettext_lazy as _

from club.messages import (  # noqa: F401 - the scoring code's names for the catalogue
    FIELD_LABELS,
    RECORDING_MESSAGES,
    RULE_MESSAGES,
    field_label,
    user_message,
)
from club.messages import RULE_SENTENCES as NUMBERED_RULE_MESSAGES  # noqa: F401

# A deal form or the undo button posted without its deal number, or with one that is not a
# whole number: a page from an older version of the site, or a hand-made request.
DEAL_NUMBER_MISSING = _(
    "The form did not say which deal it is for, so nothing was changed. Reload the page and "
    "try again."
)


# The quick form's draw button pressed with a winner chosen too (new deals only: a correction's
# "Make it a draw" replaces the winner the form was filled with).
DRAW_WITH_WINNER = _(
    "A draw has no winner, but %(name)s was chosen as the winner too; nothing was saved. Tap "
    "the draw button again for a draw, or choose the winner and save."
)
