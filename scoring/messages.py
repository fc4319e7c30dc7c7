"""Translated sentences for the errors an organiser can cause while scoring.

`scoring.rules` speaks English and carries stable codes; this maps each code (and the field it
names) to a sentence in the user's language. Every code of `rules.ERROR_CODES` and of
`services.RecordingError` has one; tests hold that.
"""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring import rules

FIELD_LABELS = {
    "end": _("how the deal ended"),
    "card_points": _("card points"),
    "marriage_points": _("marriage points"),
    "tricks": _("tricks"),
    "claim_by": _("player who claimed 66"),
    "closed_by": _("player who closed the stock"),
    "last_trick_by": _("winner of the last trick"),
    "opponent_tricks_at_close": _("opponent's tricks when the stock was closed"),
    "winner": _("winner"),
    "game_points": _("game points"),
    "reason": _("reason"),
    "first_dealer": _("first dealer"),
    "deals": _("deals"),
}

RULE_MESSAGES = {
    "inconsistent_record": _("%(field)s: the deal record does not hold together; check it."),
    "card_points_over_120": _(
        "%(field)s: no player, and not both together, can hold more than the 120 card points "
        "of the pack."
    ),
    "card_points_without_trick": _("%(field)s: a player who took no trick has no card points."),
    "card_points_outside_trick_capacity": _(
        "%(field)s: the card points do not fit the number of tricks taken."
    ),
    "invalid_marriage_sum": _(
        "%(field)s: marriages score 20, or 40 in trumps, so a player has 0, 20, 40, 60, 80 or "
        "100, and the pack holds only one 40 and three 20s."
    ),
    "marriage_points_without_trick": _(
        "%(field)s: a marriage can be declared only after winning a trick."
    ),
    "played_out_not_120": _(
        "%(field)s: a deal played to the end shares out all 120 card points in 12 tricks."
    ),
    "claimant_without_trick": _("%(field)s: a player without a trick cannot claim 66."),
    "marriages_exceed_leads": _(
        "%(field)s: each marriage is declared on a lead of its own after a won trick, so a "
        "player has no more marriages than won tricks."
    ),
    "match_finished": _(
        "The match is already won: it ends the moment a player reaches the game target."
    ),
    "points_do_not_match_reason": _(
        "%(field)s: these game points are not possible for this reason under the house rules."
    ),
}

NUMBERED_RULE_MESSAGES = {
    ("played_out_not_120", "end"): _(
        "%(field)s: all 12 tricks were taken (%(tricks_a)s + %(tricks_b)s), so the deal was "
        "played out and did not end with a claim; a played-out deal shares out all 120 card "
        "points (entered: %(card_points)s)."
    ),
    ("played_out_not_120", "card_points"): _(
        "%(field)s: both players' card points add up to %(card_points)s, but a deal played to "
        "the end shares out all 120."
    ),
    ("played_out_not_120", "tricks"): _(
        "%(field)s: both players' tricks add up to %(tricks)s, but a deal played to the end "
        "has 12."
    ),
    ("marriages_exceed_leads", "marriage_points"): _(
        "%(field)s: %(marriage_points)s marriage points are at least %(marriages)s marriages, "
        "each declared on a lead of its own after a won trick; player %(seat)s won "
        "%(tricks)s trick(s), so had at most %(leads)s lead(s) to declare on."
    ),
    ("inconsistent_record", "opponent_tricks_at_close"): _(
        "%(field)s: %(opponent_tricks_at_close)s is more than %(most)s: under these house rules "
        "at most %(played)s tricks are played before the stock is closed, and the closer, "
        "being on lead, won the last of them."
    ),
}
"""Sentences that name the numbers of the record, by (code, field without the seat); used
when the error carries those numbers (`InvalidDeal.params`), else `RULE_MESSAGES`."""

RECORDING_MESSAGES = {
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
    "bracket_changed": _(
        "The bracket changed at this very moment (another organiser?); nothing was changed. "
        "Try again."
    ),
    "player_withdrawn": _(
        "A player of this match has withdrawn; its result can no longer be reopened. Nothing "
        "was changed."
    ),
    "confirmation_required": _(
        "This change undoes results that followed from this match. Check what will be "
        "cleared and confirm."
    ),
}

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


def field_label(field: str | None) -> str:
    """`"card_points.A"` -> "card points (seat A)"; `"deals[4]"` -> "deal 5"."""
    if not field:
        return str(_("deal"))
    if field.startswith("deals["):
        index = field[len("deals["):].split("]", 1)[0]
        return str(_("deal %(number)s") % {"number": int(index) + 1})
    name, _sep, seat = field.partition(".")
    label = str(FIELD_LABELS.get(name, name.replace("_", " ")))
    return str(_("%(label)s (seat %(seat)s)") % {"label": label, "seat": seat}) if seat else label


def user_message(error: Exception) -> str:
    """The translated sentence for an `rules.InvalidDeal` or `services.RecordingError`.

    In English the rules module's own sentence is used: it is the most specific one.
    """
    if isinstance(error, rules.InvalidDeal):
        if (get_language() or "").startswith("en"):
            return error.message
        base = (error.field or "").partition(".")[0]
        numbered = NUMBERED_RULE_MESSAGES.get((error.code, base)) if error.params else None
        if numbered is not None:
            text = str(numbered % {**error.params, "field": field_label(error.field)})
        else:
            text = str(RULE_MESSAGES[error.code] % {"field": field_label(error.field)})
        return text[0].upper() + text[1:]
    return str(RECORDING_MESSAGES[error.code] % error.params)
