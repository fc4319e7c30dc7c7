"""What the passes refuse, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError


class PassError(TournamentError):
    """A step with a player's pass that cannot be taken now: `PassError(code, **params)`."""

    messages = {
        "no_club": _(
            "%(name)s belongs to no club; a pass opens the events of the player's club."
        ),
        "code_wrong": _(
            "That is not the personal code of %(name)s. Tries left: %(left)s."
        ),
        "code_tries_used": _(
            "The personal code was mistyped too many times at this match; ask the organiser "
            "to settle the result."
        ),
        "code_missing": _("Type the 4-digit personal code of %(name)s."),
        "sign_needs_pass": _(
            "The players of this match have passes, so the result is signed from a pass (or "
            "by the organiser), not from the table's link."
        ),
        "not_a_club_night": _("Only at a club night do players say they are here."),
        "night_over": _("This club night is over."),
        "claims_from_address": _(
            "This network already waits for the organiser for %(count)s players. Ask the "
            "organiser to confirm them first."
        ),
        "claims_of_player": _(
            "%(name)s already waits for the organiser on another phone. Ask the organiser."
        ),
        "claim_player_missing": _("Choose your name from the list."),
        "claim_decided": _(
            "This request of %(name)s was already answered or has expired; nothing was changed."
        ),
        "claim_pass_revoked": _(
            "The pass of %(name)s is revoked. Renew it on the player's page first, then "
            "approve."
        ),
    }
