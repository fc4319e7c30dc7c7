"""What the table side refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError


class TableError(TournamentError):
    """A change at the table that cannot be made now: `TableError(code, **params)`."""

    messages = {
        "players_may_not_enter": _("In this event only the organisers enter the results."),
        "result_final": _(
            "The result is final (signed or approved); only an organiser can change it now."
        ),
        "deal_pending": _(
            "Deal %(number)s waits for the opponent's confirmation; confirm or drop it first."
        ),
        "no_pending_deal": _(
            "Deal %(number)s is not waiting for confirmation any more; check the score above."
        ),
        "confirm_own_deal": _(
            "You entered deal %(number)s yourself; your opponent confirms it."
        ),
        "sign_before_end": _(
            "The match is not over yet (%(points_a)s:%(points_b)s, the game is to %(target)s); "
            "the result is signed at the end."
        ),
        "sign_twice": _("You have already signed the result %(points_a)s:%(points_b)s."),
        "sign_not_needed": _("In this event the result needs no signatures."),
        "dispute_text_missing": _("Say briefly what is wrong with the result."),
        "dispute_not_offered": _(
            "In this event the players do not sign the result, so it cannot be disputed here; "
            "tell the organiser."
        ),
        "sign_other_seat": _(
            "This phone is %(name)s's seat; each player signs for themselves."
        ),
        "approve_not_needed": _(
            "This result needs no approval: no signature is awaited and nobody disputes it."
        ),
        "result_signed": _(
            "The result is signed, so the players can no longer change it here; ask to undo "
            "the last deal from your pass (the signer allows it), or ask the organiser."
        ),
        "undo_needs_pass": _(
            "After a signature a deal is undone only from the players' passes (the signer "
            "allows it) or by the organiser, not from the table's link."
        ),
        "undo_waiting": _(
            "%(name)s has already asked to undo deal %(number)s; it waits for the answer."
        ),
        "undo_no_pass": _(
            "The signature of %(name)s stands, and without a pass they cannot allow the undo; "
            "ask the organiser."
        ),
        "undo_request_gone": _(
            "No request to undo deal %(number)s waits any more; check the score above."
        ),
        "undo_answer_missing": _("Allow the undo, or refuse it."),
        "undo_own_request": _(
            "You asked for this undo yourself; only %(name)s can allow it, from their pass or "
            "with their personal code."
        ),
        "result_disputed": _(
            "The result is disputed, so the players can no longer change it; only the "
            "organiser changes it now."
        ),
        "seat_taken": _(
            "The seat of %(name)s is already taken on another phone. If that is a mistake, ask "
            "the organiser to free it."
        ),
        "seat_other_held": _(
            "This phone already holds the seat of %(name)s, and one phone plays one seat. If "
            "that is a mistake, ask the organiser to free it."
        ),
        "seat_not_held": _(
            "This phone no longer holds a seat in this match; open the match's link again to "
            "choose yours, or ask the organiser."
        ),
    }
