"""The sentences of the scoring code: every rule error (`rules.InvalidDeal`: its `code` and
`case` pick a sentence of `RULE_SENTENCES`, filled with its `params` -- seats, card points,
tricks, limits; an error without them gets its code's general sentence, `RULE_MESSAGES`; an
error of one deal of a match, `params["deal_number"]`, is prefixed "Deal 5: "), and the deal
forms' own sentences. `core.messages.user_message` says a rule error through `rule_message`
(registered in `scoring.apps`). English sentences are the msgids; `locale/bg` holds the
Bulgarian, sentence for sentence, so both languages name the same numbers.
"""

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

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
"""Names of `InvalidDeal.field` values, for the general sentences."""

REASON_SUBJECTS = {
    # Translators: a deal's reason as the subject of an error sentence ("A plain win scores 1
    # game point, not 3 game points."); Bulgarian names the reason as the form labels it.
    "won": _("A plain win"),
    "schneider": _("A schneider"),
    "capot": _("A capot"),
    "false_claim": _("A false claim"),
    "closer_failed": _("A failed close"),
    "opponent_out_after_close": _("Going out after the opponent closed"),
    "last_trick": _("Winning by the last trick"),
    "draw": _("A draw"),
}
"""A deal's reason (`rules.REASONS`) as the subject of a sentence: "A schneider scores..."."""

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
"""The general sentence of each `rules.ERROR_CODES` code: for an error raised without a
`case` (or without the parameters its sentence needs)."""

RULE_SENTENCES = {
    # inconsistent_record: the record itself does not hold together (docs/rules.md §4, before
    # its table)
    ("inconsistent_record", "not_per_seat"): _(
        "%(field)s: give them for player A and player B."
    ),
    ("inconsistent_record", "unknown_seat"): _(
        "%(field)s: they name a player other than A and B (%(seats)s); a match has only "
        "seats A and B."
    ),
    ("inconsistent_record", "missing"): _("%(field)s: the value is missing."),
    ("inconsistent_record", "not_whole"): _("%(field)s: enter a whole number."),
    ("inconsistent_record", "negative"): _(
        "%(field)s: cannot be negative (entered: %(value)s)."
    ),
    ("inconsistent_record", "not_a_seat"): _("%(field)s: choose player A or player B."),
    ("inconsistent_record", "unknown_end"): _(
        "How the deal ended: choose a claim of 66, the stock ran out, or the stock was closed "
        "and played to the end."
    ),
    ("inconsistent_record", "unknown_reason"): _(
        "The reason is unknown; choose one of the reasons offered."
    ),
    ("inconsistent_record", "seat_over_12"): _(
        "The tricks of player %(seat)s (%(tricks)s) exceed the 12 tricks of a deal."
    ),
    ("inconsistent_record", "both_over_12"): _(
        "The tricks of both players add up to %(tricks)s, but a deal has only 12 tricks."
    ),
    ("inconsistent_record", "claimant_missing"): _(
        "A deal that ended with a claim must name the player who claimed 66."
    ),
    ("inconsistent_record", "last_trick_on_claim"): _(
        "A deal that ended with a claim has no winner of the last trick; leave it empty."
    ),
    ("inconsistent_record", "claim_on_played_out"): _(
        "A deal played to the end had no claim; leave the player who claimed 66 empty."
    ),
    ("inconsistent_record", "closer_on_exhausted"): _(
        "In a deal where the stock ran out nobody closed it; leave the player who closed the "
        "stock empty."
    ),
    ("inconsistent_record", "last_trick_missing"): _(
        "A deal where the stock ran out must name the winner of the last trick."
    ),
    ("inconsistent_record", "closer_missing"): _(
        "A closed deal played to the end must name the player who closed the stock."
    ),
    ("inconsistent_record", "last_trick_without_trick"): _(
        "The winner of the last trick, player %(seat)s, has no trick."
    ),
    ("inconsistent_record", "without_close"): _(
        "The opponent's tricks when the stock was closed only apply when someone closed the "
        "stock; name the closer or leave them empty."
    ),
    ("inconsistent_record", "over_limit"): _(
        "The opponent's tricks when the stock was closed (%(opponent_tricks_at_close)s) "
        "cannot exceed %(most)s: under these house rules at most %(played)s tricks are "
        "played before the stock is closed (%(stock)s cards left in it), and the closer, "
        "being on lead, won the last of them."
    ),
    ("inconsistent_record", "over_final"): _(
        "The opponent's tricks when the stock was closed (%(opponent_tricks_at_close)s) "
        "exceed the %(tricks)s trick(s) player %(seat)s had at the end."
    ),
    ("inconsistent_record", "closer_without_trick"): _(
        "The opponent's tricks when the stock was closed must be 0 (entered: "
        "%(opponent_tricks_at_close)s): player %(seat)s, who closed, took no trick, so closed "
        "the stock before the first trick was played."
    ),
    ("inconsistent_record", "needed"): _(
        "The closer failed, and under these house rules the game points depend on the "
        "opponent's tricks when the stock was closed; enter them."
    ),
    # card points (§4, rows 2-4)
    ("card_points_over_120", "seat"): _(
        "The card points of player %(seat)s (%(card_points)s) exceed 120, the card points of "
        "the whole pack."
    ),
    ("card_points_over_120", "both"): _(
        "The card points of both players add up to %(card_points)s, but the whole pack holds "
        "only 120."
    ),
    ("card_points_without_trick", "seat"): _(
        "The card points of player %(seat)s must be 0, because player %(seat)s took no trick "
        "(entered: %(card_points)s)."
    ),
    ("card_points_outside_trick_capacity", "seat"): _(
        "The card points of player %(seat)s (%(card_points)s) cannot come from %(tricks)s "
        "trick(s): %(tricks)s trick(s) hold between %(low)s and %(high)s card points."
    ),
    # marriages (§4, rows 5-6 and 10)
    ("invalid_marriage_sum", "seat"): _(
        "The marriage points of player %(seat)s (%(marriage_points)s) must be 0, 20, 40, 60, "
        "80 or 100: marriages score 20, or 40 in trumps."
    ),
    ("invalid_marriage_sum", "both"): _(
        "The marriage points of both players (%(marriage_points_a)s and "
        "%(marriage_points_b)s) need more marriages than the pack holds: one 40 in trumps and "
        "three 20s."
    ),
    ("marriage_points_without_trick", "seat"): _(
        "The marriage points of player %(seat)s must be 0, because player %(seat)s took no "
        "trick and a marriage can be declared only after winning one (entered: "
        "%(marriage_points)s)."
    ),
    ("marriages_exceed_leads", "leads"): _(
        "The marriage points of player %(seat)s (%(marriage_points)s) need at least "
        "%(marriages)s marriages, each declared on a lead of its own after a won trick, but "
        "player %(seat)s won only %(tricks)s trick(s): at most %(leads)s marriage(s)."
    ),
    ("marriages_exceed_leads", "first_lead"): _(
        "The marriage points of player %(seat)s (%(marriage_points)s) need at least "
        "%(marriages)s marriages, each declared on a lead of its own after a won trick, but "
        "player %(seat)s won only %(tricks)s trick(s) plus the deal's first lead: at most "
        "%(leads)s marriage(s)."
    ),
    ("marriages_exceed_leads", "only_last_trick"): _(
        "The marriage points of player %(seat)s must be 0 (entered: %(marriage_points)s): "
        "player %(seat)s won only the last trick, and nobody leads after the last trick, so "
        "player %(seat)s never had a lead to declare a marriage on."
    ),
    ("marriages_exceed_leads", "last_trick"): _(
        "The marriage points of player %(seat)s (%(marriage_points)s) need at least "
        "%(marriages)s marriages, each declared on a lead of its own after a won trick, but "
        "player %(seat)s won %(tricks)s trick(s), the last of them the deal's last trick, "
        "after which nobody leads: at most %(leads)s marriage(s)."
    ),
    ("marriages_exceed_leads", "last_trick_first_lead"): _(
        "The marriage points of player %(seat)s (%(marriage_points)s) need at least "
        "%(marriages)s marriages, each declared on a lead of its own after a won trick, but "
        "player %(seat)s won %(tricks)s trick(s), the last of them the deal's last trick, "
        "after which nobody leads: at most %(leads)s marriage(s), counting the deal's first "
        "lead."
    ),
    # a deal played to the end (§4, rows 7-9)
    ("played_out_not_120", "card_points"): _(
        "The card points of both players add up to %(card_points)s, but a deal played to the "
        "end shares out all 120."
    ),
    ("played_out_not_120", "tricks"): _(
        "The tricks of both players add up to %(tricks)s, but a deal played to the end has 12."
    ),
    ("played_out_not_120", "claim_after_12"): _(
        "How the deal ended cannot be a claim: all 12 tricks were taken (%(tricks_a)s + "
        "%(tricks_b)s), so the deal was played out, and a played-out deal shares out all 120 "
        "card points (entered: %(card_points)s). Choose how it was played out, or correct the "
        "tricks."
    ),
    ("claimant_without_trick", "seat"): _(
        "The player who claimed 66, player %(seat)s, has no trick, and a player without a "
        "trick cannot claim."
    ),
    # the match (§3, §6)
    ("match_finished", "after_end"): _(
        "Deal %(deal_number)s comes after the match ended: player %(seat)s had already "
        "reached %(game_target)s game points (%(points_a)s:%(points_b)s)."
    ),
    # the quick path: outcome only (§2, §7)
    ("points_do_not_match_reason", "last_trick_not_played"): _(
        "The reason 'last trick' applies only under the house rule where the last trick wins "
        "the deal, which this tournament does not play."
    ),
    ("points_do_not_match_reason", "draw_not_played"): _(
        "The reason 'draw' is impossible here: under this tournament's house rules the last "
        "trick always decides the deal."
    ),
    ("points_do_not_match_reason", "draw_with_winner"): _(
        "A draw has no winner; leave the winner empty."
    ),
    ("points_do_not_match_reason", "winner_missing"): _(
        "%(reason)s needs a winner, player A or player B."
    ),
}
"""The exact sentence of each (code, case) `scoring.rules` raises, naming its `params`.
("points_do_not_match_reason", "game_points" / "game_points_missing") are plural forms, in
`_rule_sentence`."""

PLURAL_RULE_CASES = ("game_points", "game_points_missing")
"""Cases of `points_do_not_match_reason` whose sentence depends on the number of game points
allowed ("1 game point", "2 game points"): built with `ngettext` in `_rule_sentence`."""


def _game_points_sentence(case: str, count: int) -> str:
    if case == "game_points":
        return ngettext(
            "%(reason)s scores %(allowed)s game point, not %(game_points)s game points.",
            "%(reason)s scores %(allowed)s game points, not %(game_points)s.",
            count,
        )
    return ngettext(
        "%(reason)s scores %(allowed)s game point.",
        "%(reason)s scores %(allowed)s game points.",
        count,
    )


def _one_of(numbers) -> str:
    """(2, 3) -> "2 or 3"; (1, 2, 3) -> "1, 2 or 3"; (3,) -> "3"."""
    numbers = [str(number) for number in numbers]
    if len(numbers) == 1:
        return numbers[0]
    # Translators: the last of several numbers a value may take: "1, 2 or 3".
    return gettext("%(items)s or %(last)s") % {
        "items": ", ".join(numbers[:-1]), "last": numbers[-1],
    }


def field_label(field: str | None, params: dict | None = None) -> str:
    """The field an `InvalidDeal` names, in words: `"card_points.A"` -> "card points (seat
    A)"; a deal of a match (`params["deal_number"]` 5) -> "deal 5"; no field -> "deal"."""
    if params and params.get("deal_number") is not None:
        return str(_("deal %(number)s") % {"number": params["deal_number"]})
    if not field:
        return str(_("deal"))
    name, _sep, seat = field.partition(".")
    label = str(FIELD_LABELS.get(name, name.replace("_", " ")))
    return str(_("%(label)s (seat %(seat)s)") % {"label": label, "seat": seat}) if seat else label


def _rule_sentence(error) -> str | None:
    """The exact sentence of a rule error, or None when it has no case or lacks (or has a
    None for) a parameter its sentence names."""
    case = getattr(error, "case", "")
    if not case:
        return None
    params = {name: value for name, value in error.params.items() if value is not None}
    if "reason" in params:
        subject = REASON_SUBJECTS.get(params["reason"])
        if subject is None:
            return None
        params["reason"] = str(subject)
    if error.code == "points_do_not_match_reason" and case in PLURAL_RULE_CASES:
        allowed = params.get("allowed") or ()
        if not allowed:
            return None
        params["allowed"] = _one_of(allowed)
        template = _game_points_sentence(case, 1 if tuple(allowed) == (1,) else 2)
    else:
        template = RULE_SENTENCES.get((error.code, case))
        if template is None:
            return None
    try:
        return str(template) % {**params, "field": field_label(error.field)}
    except (KeyError, TypeError, ValueError):
        return None


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def rule_message(error) -> str:
    """The sentence for a `scoring.rules.InvalidDeal` (see the module docstring)."""
    text = _rule_sentence(error)
    deal_number = error.params.get("deal_number")
    if text is None:
        generic = RULE_MESSAGES[error.code]
        return _capitalised(str(generic) % {"field": field_label(error.field, error.params)})
    if deal_number is not None and error.code != "match_finished":
        # Translators: an error of one deal of a match: "Deal 5: A schneider scores ...".
        text = gettext("Deal %(number)s: %(message)s") % {
            "number": deal_number, "message": text,
        }
    return _capitalised(text)


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
