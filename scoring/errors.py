"""What the recording services refuse, and the sentence of each refusal: a code and the
numbers it names, never a sentence, until `core.messages.user_message` says it."""

from django.utils.translation import gettext_lazy as _

from core.errors import UserError


class RecordingError(UserError):
    """The match cannot take this change now: `RecordingError(code, **params)`."""

    messages = {
        "deal_already_entered": _(
            "Deal %(number)s was already entered by someone else; the match is now at deal "
            "%(next_number)s. Check the list below before entering again."
        ),
        "match_forfeited": _("This match was forfeited; no deals can be entered."),
        "match_unplayed": _(
            "This match will not be played: a player withdrew from the tournament. No deals can "
            "be entered."
        ),
        "no_deal_to_undo": _("This match has no deal to undo."),
        "undo_not_last": _(
            "Deal %(number)s is no longer the last deal (the last is deal %(last_number)s); "
            "nothing was undone."
        ),
        "deal_number_out_of_range": _(
            "There is no deal %(number)s to enter (deals entered in this match: %(count)s, so the "
            "next is deal %(next_number)s); nothing was saved. Check the list below."
        ),
        "undo_number_out_of_range": _(
            "There is no deal %(number)s to undo (deals entered in this match: %(count)s); "
            "nothing was undone. Check the list below."
        ),
        "correction_reason_missing": _("Say why the deal is corrected; the reason is kept."),
        "match_already_finished": _("This match is already over and cannot be forfeited."),
        "match_removed": _(
            "This match no longer exists: a correction earlier in the bracket removed it."
        ),
        "confirmation_required": _(
            "This change undoes results that followed from this match. Check what will be "
            "cleared and confirm."
        ),
        "scorecard_not_finished": _(
            "The scorecard is not finished: after its %(count)s deals the score is "
            "%(points_a)s:%(points_b)s and nobody has %(target)s game points. Add the missing "
            "deals; nothing was saved."
        ),
        "match_has_result": _(
            "This match already has its final score; take it back first. Nothing was saved."
        ),
        "final_score_impossible": _(
            "A match cannot end %(points_a)s:%(points_b)s: the winner has %(target)s to "
            "%(highest)s game points (the last deal scores at most 3) and the other player less "
            "than %(target)s."
        ),
        "final_score_impossible_carry": _(
            "A match cannot end %(points_a)s:%(points_b)s: the winner has %(target)s game points "
            "or more and the other player less than %(target)s."
        ),
        "no_final_score": _("This match has no final score to take back; nothing was changed."),
        "final_score_only": _(
            "This event keeps only the final score of each match: enter the final score, not "
            "deals. Nothing was saved."
        ),
        "final_score_not_kept": _(
            "This event keeps every deal: enter the deals, or the whole scorecard at once. "
            "Nothing was saved."
        ),
    }


class ConfirmationRequired(RecordingError):
    """The change would undo results that followed from this match (a knockout winner who
    has already started their next match). Nothing was written; `.consequences` lists, as
    plain sentences in the active language, what would be undone. Doing it again with
    `confirmed=True` goes ahead."""

    def __init__(self, consequences: list[str]) -> None:
        super().__init__("confirmation_required", count=len(consequences))
        self.consequences = list(consequences)


class ScorecardError(UserError):
    """A row of the finished-scorecard grid that is not a deal yet (`number`: its deal
    number): an unknown code or winner, game points that are not a number, an empty row
    before a filled one; or a grid with no deal at all (`scorecard_empty`)."""

    messages = {
        "scorecard_empty": _("The scorecard is empty: fill in its deals, one row each."),
        "scorecard_row_empty": _(
            "Deal %(number)s: the row is empty, but later rows are filled. Fill it in, or move "
            "the deals up."
        ),
        "scorecard_unknown_code": _(
            "Deal %(number)s: “%(typed)s” is not a code of the legend (%(codes)s)."
        ),
        "scorecard_unknown_winner": _(
            "Deal %(number)s: the winner is A or B (the seat on the card), not “%(winner)s”."
        ),
        "scorecard_bad_points": _(
            "Deal %(number)s: game points are a number from 0 to 3, not “%(points)s”."
        ),
        "scorecard_match_started": _(
            "This match already has deals or a result: a whole scorecard is entered only into a "
            "match with none. Enter the next deals on the match page."
        ),
    }
