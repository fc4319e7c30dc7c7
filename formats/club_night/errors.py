"""What this format refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from events.errors import TournamentError


class ClubNightError(TournamentError):
    """A club night cannot take this change: `ClubNightError(code, **params)`."""

    messages = {
        # Club nights (formats.club_night.services)
        "not_club_organiser": _("Only the club's organisers may hold its club nights."),
        "not_club_night": _("This event is not a club night."),
        "night_closed": _("This club night is closed."),
        "same_player": _("A player cannot play against themselves."),
        "bad_table": _("Tables are numbered from 1."),
        # Translators: a player is paired while their match at another table is unfinished.
        "player_busy": _(
            "%(name)s is still playing at table %(table)s. Finish that match before pairing "
            "them again."
        ),
        "table_busy": _("Table %(table)s is still in use (%(players)s)."),
        # Translators: asked before a pairing at a table another event of the club uses now.
        "table_elsewhere": _(
            "Table %(table)s is in use tonight by another event of the club, %(event)s: "
            "%(players)s. Start the match at table %(table)s all the same only if that match "
            "is not played there; otherwise choose another table."
        ),
        "table_elsewhere_private": _(
            "Table %(table)s is in use tonight by another event of the club. Start the match "
            "at table %(table)s all the same only if that match is not played there; otherwise "
            "choose another table."
        ),
        "match_has_deals": _("Deals have been entered; this match can no longer be taken back."),
        "pairing_removed": _("This pairing was already taken back."),
    }
