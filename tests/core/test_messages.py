"""One error model (core/errors.py, core/messages.py, each app's errors.py): every code a
user can cause has a
sentence in Bulgarian and in English, and both name the numbers the error carries.

The codes are found in the sources (every `InvalidDeal` check of scoring/rules.py, every
`RecordingError` / `TournamentError` / `PrintError` code the services raise), so a new code
without a sentence -- or without a row in the tables below -- fails here. The numbers each
row expects are worked out by hand from the record (docs/rules.md §4), not read from the output.
"""

import ast
import importlib
import pickle
import re
from pathlib import Path

import pytest
from django.utils import translation

from core.errors import UserError
from core.messages import failure_message, user_message
from events.errors import TournamentError
from printing.errors import PrintError
from scoring import rules
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.rules import DealRecord, DealScore, HouseRules, InvalidDeal

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("bg", "en")
CYRILLIC = re.compile("[а-яА-Я]")
MISSING = re.compile(r"(^|[\s(„“'])\?")


def record(end="claim", cp=(66, 30), mp=(0, 0), tricks=(6, 3), **fields):
    card_points = cp if not isinstance(cp, tuple) else {"A": cp[0], "B": cp[1]}
    return DealRecord(
        end=end, card_points=card_points, marriage_points={"A": mp[0], "B": mp[1]},
        tricks={"A": tricks[0], "B": tricks[1]}, **fields,
    )


def deal_error(deal, house_rules=None):
    def raise_it():
        rules.score_deal(deal, house_rules)
    return raise_it


def quick_error(winner, game_points, reason, house_rules=None):
    def raise_it():
        rules.quick_result(winner, game_points, reason, house_rules)
    return raise_it


def match_error(deals, first_dealer="A"):
    def raise_it():
        rules.score_match(deals, HouseRules(), first_dealer)
    return raise_it


CLOSE_AT_FIVE = HouseRules(close_when="stock_not_empty")
BY_TRICKS_AT_CLOSE = HouseRules(failed_close="tricks_at_close")
PENDING = HouseRules(first_trick_marriage="pending")
LAST_TRICK_WINS = HouseRules(last_trick="wins_deal")
CAPOT_A = DealScore("A", 3, None, "capot")

# (code, case) -> (how to cause it, the numbers / seats both sentences must name)
RULE_CASES = {
    ("inconsistent_record", "not_per_seat"): (deal_error(record(cp=[66, 30], claim_by="A")), []),
    ("inconsistent_record", "unknown_seat"): (
        deal_error(record(cp={"A": 66, "B": 30, "C": 5}, claim_by="A")), ["(C)"]),
    ("inconsistent_record", "missing"): (deal_error(record(cp={"A": 66}, claim_by="A")), ["B"]),
    ("inconsistent_record", "not_whole"): (
        deal_error(record(cp={"A": "66", "B": 30}, claim_by="A")), ["A"]),
    ("inconsistent_record", "negative"): (
        deal_error(record(cp={"A": 66, "B": -4}, claim_by="A")), ["B", "-4"]),
    ("inconsistent_record", "unknown_end"): (deal_error(record("resigned", claim_by="A")), []),
    ("inconsistent_record", "not_a_seat"): (deal_error(record(claim_by="C")), []),
    ("inconsistent_record", "seat_over_12"): (
        deal_error(record(cp=(120, 0), tricks=(13, 0), claim_by="A")), ["A", "13"]),
    ("inconsistent_record", "both_over_12"): (
        deal_error(record(cp=(70, 50), tricks=(7, 6), claim_by="A")), ["13"]),
    ("inconsistent_record", "claimant_missing"): (deal_error(record()), []),
    ("inconsistent_record", "last_trick_on_claim"): (
        deal_error(record(claim_by="A", last_trick_by="A")), []),
    ("inconsistent_record", "claim_on_played_out"): (
        deal_error(record("exhausted", (60, 60), tricks=(6, 6), claim_by="A",
                          last_trick_by="A")), []),
    ("inconsistent_record", "closer_on_exhausted"): (
        deal_error(record("exhausted", (60, 60), tricks=(6, 6), closed_by="A",
                          last_trick_by="A")), []),
    ("inconsistent_record", "last_trick_missing"): (
        deal_error(record("exhausted", (60, 60), tricks=(6, 6))), []),
    ("inconsistent_record", "closer_missing"): (
        deal_error(record("closed_played_out", (60, 60), tricks=(6, 6))), []),
    ("inconsistent_record", "last_trick_without_trick"): (
        deal_error(record("exhausted", (120, 0), tricks=(12, 0), last_trick_by="B")), ["B"]),
    ("inconsistent_record", "without_close"): (
        deal_error(record(claim_by="A", opponent_tricks_at_close=2)), []),
    # stock_not_empty: at most 5 tricks before the close (2 cards left), so 4 for the opponent
    ("inconsistent_record", "over_limit"): (
        deal_error(record("closed_played_out", (60, 60), tricks=(6, 6), closed_by="A",
                          opponent_tricks_at_close=5), CLOSE_AT_FIVE), ["5", "4", "2"]),
    # B had 3 tricks at the close but only 2 at the end
    ("inconsistent_record", "over_final"): (
        deal_error(record("closed_played_out", (100, 20), tricks=(10, 2), closed_by="A",
                          opponent_tricks_at_close=3)), ["3", "2", "B"]),
    # A took no trick, so closed on the deal's first lead: B had none then
    ("inconsistent_record", "closer_without_trick"): (
        deal_error(record("closed_played_out", (0, 120), tricks=(0, 12), closed_by="A",
                          opponent_tricks_at_close=2), BY_TRICKS_AT_CLOSE), ["2", "A"]),
    ("inconsistent_record", "needed"): (
        deal_error(record("closed_played_out", (50, 70), tricks=(5, 7), closed_by="A"),
                   BY_TRICKS_AT_CLOSE), []),
    ("inconsistent_record", "unknown_reason"): (quick_error("A", 1, "resigned"), []),
    ("card_points_over_120", "seat"): (
        deal_error(record(cp=(130, 0), tricks=(7, 0), claim_by="A")), ["A", "130"]),
    ("card_points_over_120", "both"): (
        deal_error(record(cp=(70, 60), tricks=(7, 5), claim_by="A")), ["130"]),
    ("card_points_without_trick", "seat"): (
        deal_error(record(cp=(66, 10), tricks=(6, 0), claim_by="A")), ["B", "10"]),
    # one trick holds 0 to 22 card points (two aces: 11 + 11)
    ("card_points_outside_trick_capacity", "seat"): (
        deal_error(record(cp=(66, 30), tricks=(6, 1), claim_by="A")), ["B", "30", "22"]),
    ("invalid_marriage_sum", "seat"): (
        deal_error(record(mp=(30, 0), claim_by="A")), ["A", "30"]),
    # 80 = 40 + 20 + 20 and 40 = 20 + 20 or the 40: either way two 40s or four 20s
    ("invalid_marriage_sum", "both"): (
        deal_error(record(mp=(80, 40), claim_by="A")), ["80", "40"]),
    ("marriage_points_without_trick", "seat"): (
        deal_error(record(cp=(66, 0), mp=(0, 20), tricks=(6, 0), claim_by="A")), ["B", "20"]),
    # 60 = two marriages, two leads; B won one trick
    ("marriages_exceed_leads", "leads"): (
        deal_error(record(cp=(66, 10), mp=(0, 60), tricks=(6, 1), claim_by="A")),
        ["B", "60", "2", "1"]),
    # 80 = three marriages; one trick and the first lead are two leads
    ("marriages_exceed_leads", "first_lead"): (
        deal_error(record(cp=(66, 10), mp=(0, 80), tricks=(6, 1), claim_by="A"), PENDING),
        ["B", "80", "3", "1", "2"]),
    # B won only the 12th trick (two nines), after which nobody leads: no marriage
    ("marriages_exceed_leads", "only_last_trick"): (
        deal_error(record("exhausted", (120, 0), mp=(0, 20), tricks=(11, 1),
                          last_trick_by="B")), ["B", "20"]),
    # 60 = two marriages; B's 2 tricks, the last one the 12th, give one lead
    ("marriages_exceed_leads", "last_trick"): (
        deal_error(record("exhausted", (120, 0), mp=(0, 60), tricks=(10, 2),
                          last_trick_by="B")), ["B", "60", "2", "1"]),
    # 80 = three marriages; B's 2 tricks (the last the 12th) and the first lead give two
    ("marriages_exceed_leads", "last_trick_first_lead"): (
        deal_error(record("exhausted", (120, 0), mp=(0, 80), tricks=(10, 2),
                          last_trick_by="B"), PENDING), ["B", "80", "3", "2"]),
    ("played_out_not_120", "card_points"): (
        deal_error(record("exhausted", (60, 59), tricks=(6, 6), last_trick_by="A")), ["119"]),
    ("played_out_not_120", "tricks"): (
        deal_error(record("exhausted", (60, 60), tricks=(6, 5), last_trick_by="A")), ["11"]),
    ("played_out_not_120", "claim_after_12"): (
        deal_error(record(cp=(20, 20), tricks=(6, 6), claim_by="A")), ["6 + 6", "40"]),
    ("claimant_without_trick", "seat"): (
        deal_error(record(cp=(30, 0), tricks=(3, 0), claim_by="B")), ["B"]),
    # four capots: A has 12 of 11 game points after deal 4
    ("match_finished", "after_end"): (
        match_error([CAPOT_A] * 4 + [DealScore("B", 1, None, "won")]),
        ["5", "A", "11", "12:0"]),
    ("points_do_not_match_reason", "last_trick_not_played"): (
        quick_error("A", 1, "last_trick"), []),
    ("points_do_not_match_reason", "draw_not_played"): (
        quick_error(None, 0, "draw", LAST_TRICK_WINS), []),
    ("points_do_not_match_reason", "draw_with_winner"): (quick_error("A", 0, "draw"), []),
    ("points_do_not_match_reason", "winner_missing"): (quick_error(None, 2, "schneider"), []),
    ("points_do_not_match_reason", "game_points"): (
        quick_error("A", 1, "schneider"), ["2", "1"]),
    ("points_do_not_match_reason", "game_points_missing"): (
        quick_error("A", None, "schneider"), ["2"]),
}


def raised_rule_cases() -> set[tuple[str, str]]:
    """Every (code, case) scoring/rules.py can raise, read from its calls."""
    tree = ast.parse((ROOT / "scoring" / "rules.py").read_text(encoding="utf-8"))
    found = set()

    def strings(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.IfExp):
            return strings(node.body) + strings(node.orelse)
        return []

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name, args = node.func.id, node.args
        keywords = {keyword.arg: keyword.value for keyword in node.keywords}
        if name == "_inconsistent" and len(args) >= 2:
            found |= {("inconsistent_record", case) for case in strings(args[1])}
        elif name == "_mismatch" and len(args) >= 2:
            found |= {("points_do_not_match_reason", case) for case in strings(args[1])}
        elif name == "InvalidDeal" and "case" in keywords and args:
            for code in strings(args[0]):
                found |= {(code, case) for case in strings(keywords["case"])}
    return found


def test_every_check_of_the_rules_has_a_row_here():
    assert raised_rule_cases() == set(RULE_CASES)
    assert {code for code, _case in RULE_CASES} == set(rules.ERROR_CODES)


def in_language(language, error):
    with translation.override(language):
        return user_message(error)


def assert_names(text, numbers):
    for number in numbers:
        assert number in text
    assert "None" not in text and "%(" not in text
    assert not MISSING.search(text)  # a parameter the sentence lacked shows as a lone "?"


@pytest.mark.parametrize("key", list(RULE_CASES), ids="/".join)
def test_every_rule_error_names_its_numbers_in_both_languages(key):
    cause, numbers = RULE_CASES[key]
    with pytest.raises(InvalidDeal) as caught:
        cause()
    error = caught.value
    assert (error.code, error.case) == key
    bulgarian, english = in_language("bg", error), in_language("en", error)
    assert_names(bulgarian, numbers)
    assert_names(english, numbers)
    assert CYRILLIC.search(bulgarian) and not CYRILLIC.search(english)


@pytest.mark.parametrize("code", rules.ERROR_CODES)
def test_every_rule_code_has_a_general_sentence_in_both_languages(code):
    error = InvalidDeal(code, "card_points.A")  # no case, no numbers: the general sentence
    bulgarian, english = in_language("bg", error), in_language("en", error)
    assert CYRILLIC.search(bulgarian) and not CYRILLIC.search(english)
    assert "None" not in bulgarian + english


def test_a_schneider_entered_with_one_game_point_says_it_scores_two_in_both_languages():
    error = pytest.raises(InvalidDeal, rules.quick_result, "A", 1, "schneider").value
    assert in_language("en", error) == "A schneider scores 2 game points, not 1."
    assert in_language("bg", error) == (
        "Шнайдерът (66, загубилият е под прага) носи 2 игрови точки, а не 1."
    )


def test_the_schneider_sentence_names_no_threshold_a_house_rule_may_change():
    # With the schneider below 31 (docs/rules.md §7) a sentence naming 33 would be wrong.
    error = pytest.raises(InvalidDeal, rules.quick_result, "A", 1, "schneider",
                          rules.HouseRules(schneider_below=31)).value
    for language in ("bg", "en"):
        assert "33" not in in_language(language, error)
    assert in_language("bg", error) == (
        "Шнайдерът (66, загубилият е под прага) носи 2 игрови точки, а не 1."
    )


def test_a_failed_close_by_tricks_names_both_choices():
    error = pytest.raises(
        InvalidDeal, rules.quick_result, "A", 1, "closer_failed", BY_TRICKS_AT_CLOSE
    ).value
    assert in_language("en", error) == "A failed close scores 2 or 3 game points, not 1."
    assert in_language("bg", error) == (
        "Причината „затворилият не успя“ носи 2 или 3 игрови точки, а не 1."
    )


def test_a_plain_win_keeps_the_singular():
    error = pytest.raises(InvalidDeal, rules.quick_result, "B", 3, "won").value
    assert in_language("en", error) == "A plain win scores 1 game point, not 3 game points."
    assert in_language("bg", error) == (
        "Обикновената победа с 66 носи 1 игрова точка, а не 3."
    )


def test_an_error_of_one_deal_of_a_match_names_the_deal():
    deals = [CAPOT_A, DealScore("A", 3, None, "schneider")]
    error = pytest.raises(InvalidDeal, rules.score_match, deals).value
    assert (error.field, error.params["deal_number"]) == ("deals[1]", 2)
    assert rules.deal_index(error.field) == 1
    assert in_language("en", error) == "Deal 2: A schneider scores 2 game points, not 3."
    assert in_language("bg", error) == (
        "Раздаване 2: Шнайдерът (66, загубилият е под прага) носи 2 игрови точки, а не 3."
    )


def test_the_deal_after_the_end_in_both_languages():
    error = pytest.raises(InvalidDeal, match_error([CAPOT_A] * 5)).value
    assert in_language("en", error) == (
        "Deal 5 comes after the match ended: player A had already reached 11 game points "
        "(12:0)."
    )
    assert in_language("bg", error) == (
        "Раздаване 5 идва след края на мача: играч A вече е стигнал 11 игрови точки (12:0)."
    )


# --------------------------------------------------------------------------------------------
# The services' refusals
# --------------------------------------------------------------------------------------------

# code -> (representative params, what both sentences must name)
USER_CASES = {
    # scoring.services.RecordingError
    "deal_already_entered": ({"number": 5, "next_number": 7, "entered_by": "ana"}, ["5", "7"]),
    "match_forfeited": ({}, []),
    "match_unplayed": ({}, []),
    "no_deal_to_undo": ({}, []),
    "undo_not_last": ({"number": 4, "last_number": 6}, ["4", "6"]),
    "deal_number_out_of_range": ({"number": 9, "count": 3, "next_number": 4}, ["9", "3", "4"]),
    "undo_number_out_of_range": ({"number": 9, "count": 3}, ["9", "3"]),
    "correction_reason_missing": ({}, []),
    "match_already_finished": ({}, []),
    "player_withdrawn": ({}, []),
    "match_removed": ({}, []),
    "bracket_changed": ({}, []),
    "confirmation_required": ({"count": 2}, []),
    # events.services / knockout / club_nights: TournamentError
    "already_started": ({}, []),
    "already_entered": ({"name": "Иван Петров"}, ["Иван Петров"]),
    "too_many_players": ({"max_players": 16, "players": 16}, ["16"]),
    "too_few_players": ({"min_players": 3, "players": 2}, ["3", "2"]),
    "draw_not_a_permutation": ({}, []),
    "not_round_robin": ({}, []),
    "rules_frozen": ({}, []),
    "already_withdrawn": ({"name": "Иван Петров"}, []),
    "not_knockout": ({}, []),
    "too_few_knockout_players": ({"min_players": 2, "players": 1}, ["2", "1"]),
    "too_many_knockout_players": ({"max_players": 128, "players": 130}, ["128", "130"]),
    "third_place_needs_four": ({"min_players": 4, "players": 3}, ["4", "3"]),
    "not_started": ({}, []),
    "already_finished": ({}, []),
    "source_not_round_robin": ({}, []),
    "source_not_finished": ({}, []),
    "bad_seed_count": ({"low": 2, "high": 7}, ["2", "7"]),
    "not_club_organiser": ({}, []),
    "not_club_night": ({}, []),
    "night_closed": ({}, []),
    "same_player": ({}, []),
    "bad_table": ({}, ["1"]),
    "player_busy": ({"name": "Мария Георгиева", "table": 2}, ["Мария Георгиева", "2"]),
    "table_busy": ({"table": 3, "players": "Анна – Борис"}, ["3", "Анна – Борис"]),
    "table_elsewhere": ({"table": 3, "event": "Зимен турнир", "players": "Анна – Борис"},
                        ["3", "Зимен турнир", "Анна – Борис"]),
    "table_elsewhere_private": ({"table": 3}, ["3"]),
    "match_has_deals": ({}, []),
    "pairing_removed": ({}, []),
    # formats.swiss.services (and the Swiss format's refusal to reopen a result)
    "too_few_swiss_players": ({"min_players": 3, "players": 2}, ["3", "2"]),
    "too_many_swiss_players": ({"max_players": 200, "players": 200}, ["200"]),
    "swiss_rounds_missing": ({}, []),
    "too_many_swiss_rounds": ({"players": 5, "most": 4, "rounds": 6}, ["5", "4", "6"]),
    "swiss_not_started": ({}, ["1"]),
    "round_not_over": ({"round": 3}, ["3"]),
    "no_rounds_left": ({"rounds": 5}, ["5"]),
    "round_not_latest": ({"round": 2}, ["2"]),
    "round_has_deals": ({"round": 4}, ["4"]),
    "swiss_withdraw_mid_round": ({"round": 2}, ["2"]),
    "swiss_entry_mid_round": ({"round": 2}, ["2"]),
    "next_round_paired": ({"round": 3}, ["3"]),
    # formats.groups.services
    "group_stage_over": ({}, []),
    "not_groups": ({}, []),
    "groups_not_set": ({}, []),
    "groups_too_small": ({"players": 5, "groups": 2, "min_size": 3}, ["5", "2", "3"]),
    "groups_too_large": ({"players": 17, "groups": 2, "max_size": 8}, ["17", "2", "8"]),
    "bad_group_advance": ({"low": 1, "high": 3}, ["1", "3"]),
    "knockout_already_drawn": ({}, []),
    "group_matches_unfinished": ({"count": 2}, ["2"]),
    # printing.jobs.PrintError
    "no_group_stage": ({}, []),
    "unknown_kind": ({"kind": "poster", "kinds": "scorecards, round, standings"},
                     ["poster", "scorecards, round, standings"]),
    "unknown_language": ({"language": "de", "languages": "bg, en"}, ["de", "bg, en"]),
    "round_missing": ({}, []),
    "no_such_round": ({"round": 9}, ["9"]),
    "round_without_matches": ({"round": 2}, ["2"]),
    "no_bracket": ({}, []),
    "no_cross_table": ({}, []),
    # tableside.table_entry.TableError (players at the table)
    "players_may_not_enter": ({}, []),
    "result_final": ({}, []),
    "deal_pending": ({"number": 4}, ["4"]),
    "no_pending_deal": ({"number": 6}, ["6"]),
    "confirm_own_deal": ({"number": 3}, ["3"]),
    "sign_before_end": ({"points_a": 7, "points_b": 9, "target": 11}, ["7:9", "11"]),
    "sign_twice": ({"points_a": 11, "points_b": 7}, ["11:7"]),
    "sign_not_needed": ({}, []),
    "dispute_not_offered": ({}, []),
    "dispute_text_missing": ({}, []),
    "sign_other_seat": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "approve_not_needed": ({}, []),
    "result_signed": ({}, []),
    "result_disputed": ({}, []),
    "seat_taken": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "seat_other_held": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "seat_not_held": ({}, []),
    "undo_needs_pass": ({}, []),
    "undo_waiting": ({"name": "Мария Георгиева", "number": 9}, ["Мария Георгиева", "9"]),
    "undo_no_pass": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "undo_request_gone": ({"number": 9}, ["9"]),
    "undo_own_request": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "undo_answer_missing": ({}, []),
    # passes.errors.PassError (the players' passes)
    "no_club": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "code_wrong": ({"name": "Мария Георгиева", "left": 3}, ["Мария Георгиева", "3"]),
    "code_tries_used": ({}, []),
    "code_missing": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "sign_needs_pass": ({}, []),
    "not_a_club_night": ({}, []),
    "night_over": ({}, []),
    "claims_from_address": ({"count": 3}, ["3"]),
    "claims_of_player": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "claim_player_missing": ({}, []),
    "claim_decided": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    "claim_pass_revoked": ({"name": "Мария Георгиева"}, ["Мария Георгиева"]),
    # scoring.services.RecordingError: whole scorecards and final scores
    "scorecard_not_finished": ({"points_a": 9, "points_b": 7, "target": 11, "count": 8},
                               ["8", "9:7", "11"]),
    "match_has_result": ({}, []),
    "final_score_impossible": (
        {"points_a": 14, "points_b": 3, "target": 11, "highest": 13}, ["14:3", "11", "13"]),
    "final_score_impossible_carry": (
        {"points_a": 11, "points_b": 11, "target": 11}, ["11:11", "11"]),
    "no_final_score": ({}, []),
    "final_score_only": ({}, []),
    "final_score_not_kept": ({}, []),
    # scoring.scorecard_entry.ScorecardError (the finished-scorecard grid)
    "scorecard_empty": ({}, []),
    "scorecard_row_empty": ({"number": 4}, ["4"]),
    "scorecard_unknown_code": ({"number": 3, "typed": "XZ", "codes": "1, 2, 3, FC, CF, OO, ="},
                               ["3", "XZ", "1, 2, 3, FC, CF, OO, ="]),
    "scorecard_unknown_winner": ({"number": 2, "winner": "C"}, ["2", "C"]),
    "scorecard_bad_points": ({"number": 5, "points": "x"}, ["5", "x"]),
    "scorecard_match_started": ({}, []),
}

APPS = ("core", "club", "scoring", "events", "standings", "ratings", "formats", "passes",
        "tableside", "live", "printing", "exchange", "server")
RAISING_MODULES = sorted(
    str(path.relative_to(ROOT)) for app in APPS
    for path in (ROOT / app).rglob("*.py") if "migrations" not in path.parts
)
"""Every module of ours: a refusal raised anywhere needs its row and sentence."""
RAISED = re.compile(
    r'(?:RecordingError|TournamentError|PrintError|TableError|ScorecardError|KnockoutError'
    r'|GroupsError|ClubNightError|SwissError|PassError'
    r'|super\(\)\.__init__)'
    r'\(\s*"(\w+)"'
    r'|too_many_players_code(?::[^=]*)? = "(\w+)"'
)


def raised_user_codes() -> set[str]:
    codes = set()
    for module in RAISING_MODULES:
        for match in RAISED.finditer((ROOT / module).read_text(encoding="utf-8")):
            codes.add(match.group(1) or match.group(2))
    return codes


def test_every_refusal_the_services_raise_has_a_row_here_and_a_sentence():
    for path in RAISING_MODULES:
        if path.endswith("errors.py"):
            importlib.import_module(path.removesuffix(".py").replace("/", "."))
    raised = raised_user_codes()
    assert raised <= set(USER_CASES), raised - set(USER_CASES)
    assert set(USER_CASES) == set(UserError.codes())


@pytest.mark.parametrize("code", list(USER_CASES))
def test_every_refusal_names_its_numbers_in_both_languages(code):
    params, numbers = USER_CASES[code]
    error = UserError(code, **params)
    bulgarian, english = in_language("bg", error), in_language("en", error)
    assert_names(bulgarian, numbers)
    assert_names(english, numbers)
    assert CYRILLIC.search(bulgarian)
    assert bulgarian != english


def test_the_error_classes_carry_a_code_and_params_only():
    error = RecordingError("undo_not_last", number=4, last_number=6)
    assert isinstance(error, UserError) and not hasattr(error, "message")
    assert (error.code, error.params) == ("undo_not_last", {"number": 4, "last_number": 6})
    assert in_language("en", error) == (
        "Deal 4 is no longer the last deal (the last is deal 6); nothing was undone."
    )
    assert isinstance(TournamentError("already_started"), UserError)


def test_user_errors_survive_pickling():
    # Celery sends exceptions between processes.
    again = pickle.loads(pickle.dumps(TournamentError("player_busy", name="Ана", table=2)))
    assert (type(again), again.code, again.params) == (
        TournamentError, "player_busy", {"name": "Ана", "table": 2}
    )
    rule = pickle.loads(pickle.dumps(
        pytest.raises(InvalidDeal, rules.quick_result, "A", 1, "schneider").value
    ))
    assert (rule.code, rule.case, rule.params["allowed"]) == (
        "points_do_not_match_reason", "game_points", (2,)
    )
    confirm = pickle.loads(pickle.dumps(ConfirmationRequired(["Round 2 is cleared."])))
    assert (confirm.code, confirm.params, confirm.consequences) == (
        "confirmation_required", {"count": 1}, ["Round 2 is cleared."]
    )


def test_a_failed_job_stores_a_sentence_in_its_language_never_the_exception():
    refusal = UserError("no_such_round", round=9)
    assert failure_message(refusal, "bg") == "Този турнир няма кръг 9."
    assert failure_message(refusal, "en") == "This tournament has no round 9."
    crash = failure_message(ZeroDivisionError("division by zero"), "en")
    assert "ZeroDivisionError" not in crash and "division" not in crash
    assert crash.startswith("The PDF could not be made")
    assert CYRILLIC.search(failure_message(ZeroDivisionError(), "bg"))


@pytest.mark.django_db
def test_a_print_refusal_carries_its_numbers(tournament):
    from printing import jobs

    with pytest.raises(PrintError) as error:
        jobs.check_request(tournament, "scorecards", 9, "bg")
    assert (error.value.code, error.value.params) == ("no_such_round", {"round": 9})
    assert in_language("bg", error.value) == "Този турнир няма кръг 9."
