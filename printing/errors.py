"""What a print request refuses, and the sentence of each refusal."""

from django.utils.translation import gettext_lazy as _

from core.errors import UserError


class PrintError(UserError):
    """A request that cannot be printed: `PrintError(code, **params)`."""

    messages = {
        "unknown_kind": _("Cannot print '%(kind)s'; choose one of: %(kinds)s."),
        "unknown_language": _("No language '%(language)s'; choose one of: %(languages)s."),
        "round_missing": _("Say which round to print."),
        "no_such_round": _("This tournament has no round %(round)s."),
        "round_without_matches": _("Round %(round)s has no match to print."),
        "no_bracket": _("Only a knockout that has started has a bracket to print."),
        "no_cross_table": _("Only a round robin has a cross-table to print."),
        "no_group_stage": _(
            "Only an event whose groups are drawn has group round sheets to print."
        ),
    }
