"""The one place an error's code and parameters become a sentence in the user's language.

`user_message(error)` speaks for every error a user can fix:

* `scoring.rules.InvalidDeal` -- a deal that breaks the rules. Its `code` and `case` (which
  check failed) pick a sentence of `RULE_SENTENCES`, filled with its `params` (seats, card
  points, tricks, limits); an error without them gets its code's general sentence
  (`RULE_MESSAGES`). An error of one deal of a match (`params["deal_number"]`) is prefixed
  "Deal 5: ".
* `club.errors.UserError` and its subclasses (`RecordingError`, `TournamentError`,
  `PrintError`) -- `USER_MESSAGES[code]` filled with `params`.

English sentences are the msgids; `locale/bg` holds the Bulgarian, sentence for sentence, so
both languages name the same numbers. `tests/club/test_messages.py` renders every code with
representative parameters in both languages.

Why here: `club` is the lowest layer, so the scoring and tournament views, the importer, the
management commands and the print jobs all reach this one function. The module imports no
other app: it knows the errors by their attributes (`code`, `params`, and for rule errors
`field` and `case`), and the codes as plain strings.
"""

from contextlib import nullcontext

from django.utils import translation
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

# --------------------------------------------------------------------------------------------
# Rule errors (scoring.rules.InvalidDeal)
# --------------------------------------------------------------------------------------------

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
    # inconsistent_record: the record itself does not hold together (RULES.md §4, row 1)
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


# --------------------------------------------------------------------------------------------
# Refusals of the services (club.errors.UserError)
# --------------------------------------------------------------------------------------------

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
    "confirmation_required": _(
        "This change undoes results that followed from this match. Check what will be "
        "cleared and confirm."
    ),
    "player_withdrawn": _(
        "A player of this match has withdrawn; its result can no longer be reopened. Nothing "
        "was changed."
    ),
    "next_round_paired": _(
        "Round %(round)s has been paired from this result; it can no longer be reopened. "
        "Nothing was changed."
    ),
    "group_stage_over": _(
        "The knockout has been drawn from the group standings; the group results are final. "
        "Nothing was changed."
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
"""`scoring.services.RecordingError` codes (and `bracket_changed` of `tournaments.knockout`)."""

TOURNAMENT_MESSAGES = {
    "already_started": _("The tournament has started; its players and draw are fixed."),
    "already_finished": _(
        "The tournament has finished; its results are final and nobody can withdraw any more."
    ),
    "already_entered": _("%(name)s is already in this tournament."),
    "too_many_players": _(
        "A round robin takes at most %(max_players)s players. This one has %(players)s."
    ),
    "too_few_players": _(
        "A round robin needs at least %(min_players)s players. This one has %(players)s."
    ),
    "draw_not_a_permutation": _("List every player of the tournament exactly once."),
    "not_round_robin": _("Only round robins are scheduled this way."),
    "rules_frozen": _("Deals have been entered; the house rules can no longer change."),
    "already_withdrawn": _("This player has already withdrawn."),
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
    "not_started": _("The tournament has not started; remove the player instead."),
    "source_not_round_robin": _("Seeds come from the standings of a round robin."),
    "source_not_finished": _(
        "That round robin has not finished yet; its standings may still change."
    ),
    "bad_seed_count": _("Take from %(low)s to %(high)s players from the standings."),
    "bracket_changed": RECORDING_MESSAGES["bracket_changed"],
    # Groups, then a knockout (tournaments.groups)
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
    # Club nights (tournaments.club_nights)
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
    "match_has_deals": _("Deals have been entered; this match can no longer be taken back."),
    "pairing_removed": _("This pairing was already taken back."),
    # Swiss (tournaments.swiss)
    "too_few_swiss_players": _(
        "A Swiss needs at least %(min_players)s players. This one has %(players)s."
    ),
    "too_many_swiss_players": _(
        "A Swiss takes at most %(max_players)s players. This one has %(players)s."
    ),
    "swiss_rounds_missing": _(
        "Set the number of rounds in the tournament's settings before the start."
    ),
    "too_many_swiss_rounds": _(
        "%(players)s players can play at most %(most)s rounds without meeting twice; this "
        "Swiss is set to %(rounds)s. Lower the rounds in the settings."
    ),
    "swiss_not_started": _("The tournament has not started yet; round 1 is paired at the start."),
    "round_not_over": _(
        "Round %(round)s is not over yet: every match needs its result before the next round "
        "is paired. Nothing was changed."
    ),
    "no_rounds_left": _(
        "All %(rounds)s rounds have been paired; the tournament ends when the last one is over."
    ),
    "round_not_latest": _("Only the last round can be paired again; round %(round)s is not."),
    "round_has_deals": _(
        "Deals have been entered in round %(round)s; it can no longer be paired again. "
        "Nothing was changed."
    ),
    "swiss_withdraw_mid_round": _(
        "Round %(round)s is being played: a player withdraws between rounds, once every match "
        "of it is over. Nothing was changed."
    ),
    "swiss_entry_mid_round": _(
        "Round %(round)s is being played: a player joins between rounds, once every match of "
        "it is over. Nothing was changed."
    ),
}
"""`tournaments.services.TournamentError` codes (services, knockout, club nights)."""

PRINT_MESSAGES = {
    "unknown_kind": _("Cannot print '%(kind)s'; choose one of: %(kinds)s."),
    "unknown_language": _("No language '%(language)s'; choose one of: %(languages)s."),
    "round_missing": _("Say which round to print."),
    "no_such_round": _("This tournament has no round %(round)s."),
    "round_without_matches": _("Round %(round)s has no match to print."),
    "no_bracket": _("Only a knockout that has started has a bracket to print."),
    "no_cross_table": _("Only a round robin has a cross-table to print."),
    "no_group_stage": _("Only an event whose groups are drawn has group round sheets to print."),
}
"""`tournaments.printing.jobs.PrintError` codes."""

TABLE_MESSAGES = {
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
}
"""`tournaments.table_entry.TableError` codes (players entering at the table)."""

SCORECARD_MESSAGES = {
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
"""`tournaments.scorecard_entry.ScorecardError` codes (a row of the finished-scorecard grid)."""

USER_MESSAGES = {
    **RECORDING_MESSAGES, **TOURNAMENT_MESSAGES, **PRINT_MESSAGES, **TABLE_MESSAGES,
    **SCORECARD_MESSAGES,
}
"""Every `club.errors.UserError` code: one sentence per code, whichever service raises it."""


class _Shown(dict):
    """Parameters for a sentence: a missing one shows as "?" rather than failing the page."""

    def __missing__(self, key):
        return "?"


def user_message(error) -> str:
    """The sentence, in the active language, for an error the user can fix: a
    `scoring.rules.InvalidDeal` or a `club.errors.UserError` (any subclass). The numbers
    the error carries (`params`) are named in every language. Raises `KeyError` for a code
    no catalogue knows (a bug: the tests render every code)."""
    if hasattr(error, "field") and hasattr(error, "case"):
        return rule_message(error)
    params = _Shown({k: v for k, v in error.params.items() if v is not None})
    return str(USER_MESSAGES[error.code]) % params


def failure_message(error, language: str | None = None) -> str:
    """What a background job that failed (a print job) stores for its status page, in
    `language` (a code of `settings.LANGUAGES`; None: the active one): the sentence of an
    error the user can fix (`user_message`), else one fixed sentence -- never the
    exception's type or text, which belong in the log."""
    with translation.override(language) if language else nullcontext():
        if isinstance(getattr(error, "code", None), str) and hasattr(error, "params"):
            try:
                return user_message(error)
            except KeyError:  # a code of some library's exception, not ours
                pass
        return gettext(
            "The PDF could not be made because of an error on the server; it has been "
            "logged. Try again, or tell the site's administrator."
        )
