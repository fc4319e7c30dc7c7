"""Scoring and validating one deal, worked out by hand from docs/rules.md §2, §4 and §7.

Every expected value below comes from the rule text, not from running the code: the comment or
the test name says which rule row it checks. "cp" = card points, "mp" = marriage points.
"""

import dataclasses
import pickle

import pytest

from scoring.rules import (
    ERROR_CODES,
    PRESETS,
    DealRecord,
    DealScore,
    HouseRules,
    InvalidDeal,
    describe_field,
    marriages_needed,
    other,
    score_deal,
    validate_deal,
)

DEFAULT = HouseRules()
PAGAT = HouseRules(
    first_trick_marriage="pending",
    failed_close="tricks_at_close",
    opponent_out_after_close_points=2,
    false_claim_points=2,
)


def deal(end="claim", cp=(66, 30), mp=(0, 0), tricks=(6, 3), **seat_fields):
    """A DealRecord from (A, B) pairs; seat fields (claim_by, closed_by, ...) as keywords."""
    return DealRecord(
        end=end,
        card_points={"A": cp[0], "B": cp[1]},
        marriage_points={"A": mp[0], "B": mp[1]},
        tricks={"A": tricks[0], "B": tricks[1]},
        **seat_fields,
    )


def result(winner, game_points, reason, totals):
    return DealScore(winner, game_points, {"A": totals[0], "B": totals[1]}, reason)


def raises(code, field, record, rules=DEFAULT):
    with pytest.raises(InvalidDeal) as caught:
        score_deal(record, rules)
    error = caught.value
    assert (error.code, error.field) == (code, field), str(error)
    assert describe_field(field).lower() in str(error).lower()
    assert str(error).endswith(".")
    return error


# --- §2: the table, from the loser's total at the end ----------------------------------------


def test_loser_with_33_scores_one():
    record = deal(cp=(66, 33), tricks=(6, 3), claim_by="A")
    assert score_deal(record) == result("A", 1, "won", (66, 33))


def test_loser_with_32_is_schneider():
    record = deal(cp=(66, 32), tricks=(6, 3), claim_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (66, 32))


def test_loser_32_with_marriage_is_schneider_33_is_not():
    # 12 cp + 20 = 32 -> 2; 13 cp + 20 = 33 -> 1 (marriages count toward 33, §3).
    low = deal(cp=(70, 12), mp=(0, 20), tricks=(6, 2), claim_by="A")
    high = deal(cp=(70, 13), mp=(0, 20), tricks=(6, 2), claim_by="A")
    assert score_deal(low) == result("A", 2, "schneider", (70, 32))
    assert score_deal(high) == result("A", 1, "won", (70, 33))


def test_loser_without_trick_is_capot():
    record = deal(cp=(66, 0), tricks=(6, 0), claim_by="A")
    assert score_deal(record) == result("A", 3, "capot", (66, 0))


def test_loser_with_two_nines_is_schneider_not_capot():
    # One trick of two nines: 0 cp but a trick -> 2 (§2 "even two nines").
    record = deal(cp=(66, 0), tricks=(6, 1), claim_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (66, 0))


def test_two_nines_is_capot_when_capot_is_by_points():
    record = deal(cp=(66, 0), tricks=(6, 1), claim_by="A")
    rules = HouseRules(capot_by="points")
    assert score_deal(record, rules) == result("A", 3, "capot", (66, 0))


def test_capot_by_points_counts_marriages():
    # 0 cp + 20 mp = total 20, not 0 -> schneider, not capot.
    record = deal(cp=(66, 0), mp=(0, 20), tricks=(6, 1), claim_by="A")
    rules = HouseRules(capot_by="points")
    assert score_deal(record, rules) == result("A", 2, "schneider", (66, 20))


@pytest.mark.parametrize(
    ("loser_cp", "schneider_below", "game_points", "reason"),
    [
        (30, 31, 2, "schneider"),
        (31, 31, 1, "won"),
        (31, 33, 2, "schneider"),
        (32, 33, 2, "schneider"),
        (33, 33, 1, "won"),
    ],
)
def test_schneider_edges(loser_cp, schneider_below, game_points, reason):
    record = deal(cp=(66, loser_cp), tricks=(6, 3), claim_by="A")
    rules = HouseRules(schneider_below=schneider_below)
    assert score_deal(record, rules) == result("A", game_points, reason, (66, loser_cp))


def test_seat_b_wins_the_same_way():
    record = deal(cp=(32, 66), tricks=(3, 6), claim_by="B")
    assert score_deal(record) == result("B", 2, "schneider", (32, 66))


# --- §2: claims at 65 and 66 ------------------------------------------------------------------


def test_claim_at_exactly_66_with_marriage_wins():
    # 46 cp + 20 = 66.
    record = deal(cp=(46, 40), mp=(20, 0), tricks=(4, 3), claim_by="A")
    assert score_deal(record) == result("A", 1, "won", (66, 40))


def test_claim_at_65_is_false_claim_three_to_opponent():
    # 45 cp + 20 = 65 < 66 (seed 002: opponent scores 3).
    record = deal(cp=(45, 40), mp=(20, 0), tricks=(4, 3), claim_by="A")
    assert score_deal(record) == result("B", 3, "false_claim", (65, 40))


def test_false_claim_scores_two_under_pagat():
    record = deal(cp=(45, 40), mp=(20, 0), tricks=(4, 3), claim_by="A")
    assert score_deal(record, PAGAT) == result("B", 2, "false_claim", (65, 40))


def test_false_claim_scores_flat_even_against_a_trickless_opponent():
    # The false-claim value does not depend on the opponent's total or tricks.
    record = deal(cp=(50, 0), tricks=(5, 0), claim_by="A")
    assert score_deal(record) == result("B", 3, "false_claim", (50, 0))


def test_marriage_alone_can_make_66():
    # 26 cp + 40 = 66; loser 20 cp -> schneider.
    record = deal(cp=(26, 20), mp=(40, 0), tricks=(2, 2), claim_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (66, 20))


def test_claim_valid_even_when_loser_has_more():
    # A claims 66 correctly; B had 68 unclaimed: B is still the loser, 68 >= 33 -> 1.
    record = deal(cp=(46, 48), mp=(20, 20), tricks=(5, 4), claim_by="A")
    assert score_deal(record) == result("A", 1, "won", (66, 68))


# --- §2, §7: closing ---------------------------------------------------------------------------


def test_closer_claims_66_and_wins_by_table():
    record = deal(cp=(70, 10), tricks=(7, 1), claim_by="A", closed_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (70, 10))


def test_closer_claims_against_trickless_opponent_is_capot():
    record = deal(cp=(66, 0), tricks=(5, 0), claim_by="A", closed_by="A")
    assert score_deal(record) == result("A", 3, "capot", (66, 0))


def test_closer_claims_falsely_fails_flat_three():
    record = deal(cp=(60, 30), tricks=(6, 3), claim_by="A", closed_by="A")
    assert score_deal(record) == result("B", 3, "closer_failed", (60, 30))


@pytest.mark.parametrize(
    ("failed_close", "b_tricks", "b_cp", "at_close", "game_points"),
    [
        ("flat", 3, 30, 1, 3),
        ("flat", 0, 0, 0, 3),
        ("tricks_at_close", 3, 30, 0, 3),
        ("tricks_at_close", 3, 30, 1, 2),
        ("tricks_at_close", 0, 0, 0, 3),
        ("tricks_at_end", 3, 30, 0, 2),  # a trick at the end, though none at the close
        ("tricks_at_end", 0, 0, 0, 3),
    ],
)
def test_closer_false_claim_each_failed_close_option(
    failed_close, b_tricks, b_cp, at_close, game_points
):
    record = deal(
        cp=(60, b_cp),
        tricks=(6, b_tricks),
        claim_by="A",
        closed_by="A",
        opponent_tricks_at_close=at_close,
    )
    rules = HouseRules(failed_close=failed_close)
    assert score_deal(record, rules) == result("B", game_points, "closer_failed", (60, b_cp))


def test_opponent_of_closer_goes_out_first_scores_three():
    record = deal(cp=(40, 66), tricks=(4, 6), claim_by="B", closed_by="A")
    assert score_deal(record) == result("B", 3, "opponent_out_after_close", (40, 66))


def test_opponent_of_closer_goes_out_scores_two_under_pagat_even_against_trickless_closer():
    # Flat house-rule value, not the table: the trickless closer would be a capot otherwise.
    record = deal(cp=(0, 66), tricks=(0, 6), claim_by="B", closed_by="A")
    assert score_deal(record, PAGAT) == result("B", 2, "opponent_out_after_close", (0, 66))
    assert score_deal(record) == result("B", 3, "opponent_out_after_close", (0, 66))


def test_opponent_of_closer_claims_falsely_closer_scores_false_claim_points():
    record = deal(cp=(40, 50), tricks=(4, 5), claim_by="B", closed_by="A")
    assert score_deal(record) == result("A", 3, "false_claim", (40, 50))
    assert score_deal(record, PAGAT) == result("A", 2, "false_claim", (40, 50))


def test_closed_played_out_has_no_last_trick_bonus():
    # A closed and took the last trick: 64, no +10 -> short of 66 -> B scores 3.
    closed = deal("closed_played_out", (64, 56), tricks=(7, 5), closed_by="A", last_trick_by="A")
    assert score_deal(closed) == result("B", 3, "closer_failed", (64, 56))
    # The same cards with the stock run out: 64 + 10 = 74 -> A wins, 56 -> 1.
    exhausted = deal("exhausted", (64, 56), tricks=(7, 5), last_trick_by="A")
    assert score_deal(exhausted) == result("A", 1, "won", (74, 56))


def test_closer_reaches_exactly_66_on_the_last_trick():
    record = deal("closed_played_out", (66, 54), tricks=(7, 5), closed_by="A", last_trick_by="A")
    assert score_deal(record) == result("A", 1, "won", (66, 54))


def test_closer_ends_on_65_fails():
    record = deal("closed_played_out", (65, 55), tricks=(7, 5), closed_by="A", last_trick_by="A")
    assert score_deal(record) == result("B", 3, "closer_failed", (65, 55))


def test_closer_with_marriage_reaches_66_played_out():
    record = deal("closed_played_out", (46, 74), mp=(20, 0), tricks=(5, 7), closed_by="A")
    assert score_deal(record) == result("A", 1, "won", (66, 74))


def test_closed_deal_loser_keeps_schneider_without_bonus():
    # B took the last trick: 30 (+10 would have been 40), no bonus in a closed deal -> 2.
    record = deal("closed_played_out", (90, 30), tricks=(9, 3), closed_by="A", last_trick_by="B")
    assert score_deal(record) == result("A", 2, "schneider", (90, 30))


@pytest.mark.parametrize(
    ("failed_close", "at_close", "game_points"),
    [
        ("flat", None, 3),
        ("flat", 0, 3),
        ("tricks_at_close", 0, 3),
        ("tricks_at_close", 1, 2),
        ("tricks_at_end", 0, 2),  # B has 6 tricks at the end
        ("tricks_at_end", None, 2),
    ],
)
def test_closer_fails_played_out_each_failed_close_option(failed_close, at_close, game_points):
    record = deal(
        "closed_played_out",
        (60, 60),
        tricks=(6, 6),
        closed_by="A",
        last_trick_by="A",
        opponent_tricks_at_close=at_close,
    )
    rules = HouseRules(failed_close=failed_close)
    assert score_deal(record, rules) == result("B", game_points, "closer_failed", (60, 60))


def test_tricks_at_close_needs_the_count_when_the_closer_fails():
    record = deal("closed_played_out", (60, 60), tricks=(6, 6), closed_by="A")
    raises("inconsistent_record", "opponent_tricks_at_close", record, PAGAT)
    # ... also when the closer fails by a false claim,
    false_claim = deal(cp=(60, 30), tricks=(6, 3), claim_by="A", closed_by="A")
    raises("inconsistent_record", "opponent_tricks_at_close", false_claim, PAGAT)


def test_tricks_at_close_not_needed_when_the_closer_succeeds_or_opponent_goes_out():
    won = deal("closed_played_out", (70, 50), tricks=(7, 5), closed_by="A")
    assert score_deal(won, PAGAT) == result("A", 1, "won", (70, 50))
    out = deal(cp=(40, 66), tricks=(4, 6), claim_by="B", closed_by="A")
    assert score_deal(out, PAGAT) == result("B", 2, "opponent_out_after_close", (40, 66))


# --- §2, §7: the stock ran out -------------------------------------------------------------------


def test_65_65_is_a_draw():
    # B took the last trick: 55 + 10 = 65 against 65 (seed 000).
    record = deal("exhausted", (65, 55), tricks=(6, 6), last_trick_by="B")
    assert score_deal(record) == result(None, 0, "draw", (65, 65))


def test_75_75_is_a_draw_after_a_missed_claim():
    # 45 cp + 20 mp + 10 last trick = 75 against 75 cp.
    record = deal("exhausted", (45, 75), mp=(20, 0), tricks=(6, 6), last_trick_by="A")
    assert score_deal(record) == result(None, 0, "draw", (75, 75))


def test_last_trick_bonus_reverses_the_leader():
    record = deal("exhausted", (58, 62), tricks=(6, 6), last_trick_by="A")
    assert score_deal(record) == result("A", 1, "won", (68, 62))


def test_last_trick_bonus_counts_for_the_loser_33():
    # B: 23 + 10 = 33 -> 1; 22 + 10 = 32 -> 2.
    at_33 = deal("exhausted", (97, 23), tricks=(10, 2), last_trick_by="B")
    at_32 = deal("exhausted", (98, 22), tricks=(10, 2), last_trick_by="B")
    assert score_deal(at_33) == result("A", 1, "won", (97, 33))
    assert score_deal(at_32) == result("A", 2, "schneider", (98, 32))


def test_exhausted_capot():
    record = deal("exhausted", (120, 0), tricks=(12, 0), last_trick_by="A")
    assert score_deal(record) == result("A", 3, "capot", (130, 0))


def test_exhausted_two_nines_loser():
    record = deal("exhausted", (120, 0), tricks=(11, 1), last_trick_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (130, 0))
    assert score_deal(record, HouseRules(capot_by="points")) == result("A", 3, "capot", (130, 0))
    # If the nines were the last trick, B has 10: not 0, so not capot by points.
    last_b = deal("exhausted", (120, 0), tricks=(11, 1), last_trick_by="B")
    assert score_deal(last_b, HouseRules(capot_by="points")) == result(
        "A", 2, "schneider", (120, 10)
    )


def test_exhausted_both_over_66_higher_total_wins():
    record = deal("exhausted", (60, 60), mp=(40, 20), tricks=(6, 6), last_trick_by="A")
    assert score_deal(record) == result("A", 1, "won", (110, 80))


@pytest.mark.parametrize(
    ("last_trick", "last_by", "expected"),
    [
        ("bonus", "B", ("B", 1, "won", (64, 66))),  # 56 + 10 = 66 > 64
        ("none", "B", ("A", 1, "won", (64, 56))),
        ("wins_deal", "B", ("B", 1, "last_trick", (64, 56))),  # loser A has 64
        ("bonus", "A", ("A", 1, "won", (74, 56))),
        ("none", "A", ("A", 1, "won", (64, 56))),
        ("wins_deal", "A", ("A", 1, "last_trick", (64, 56))),
    ],
)
def test_last_trick_options(last_trick, last_by, expected):
    record = deal("exhausted", (64, 56), tricks=(6, 6), last_trick_by=last_by)
    assert score_deal(record, HouseRules(last_trick=last_trick)) == result(*expected)


def test_no_bonus_equal_totals_draw():
    record = deal("exhausted", (60, 60), tricks=(6, 6), last_trick_by="A")
    assert score_deal(record, HouseRules(last_trick="none")) == result(None, 0, "draw", (60, 60))


def test_wins_deal_never_draws():
    record = deal("exhausted", (60, 60), tricks=(6, 6), last_trick_by="B")
    rules = HouseRules(last_trick="wins_deal")
    assert score_deal(record, rules) == result("B", 1, "last_trick", (60, 60))


@pytest.mark.parametrize(
    ("cp", "tricks", "capot_by", "game_points"),
    [
        ((97, 23), (10, 2), "tricks", 2),  # loser 23, no +10 -> 2
        ((120, 0), (12, 0), "tricks", 3),  # no trick -> 3
        ((120, 0), (11, 1), "tricks", 2),  # two nines
        ((120, 0), (11, 1), "points", 3),
        ((56, 64), (6, 6), "tricks", 1),  # the lower total wins, loser 64
    ],
)
def test_wins_deal_scores_by_the_losers_total(cp, tricks, capot_by, game_points):
    record = deal("exhausted", cp, tricks=tricks, last_trick_by="A")
    rules = HouseRules(last_trick="wins_deal", capot_by=capot_by)
    assert score_deal(record, rules) == result("A", game_points, "last_trick", cp)


# --- §3, §7: marriages -------------------------------------------------------------------------


def test_marriage_without_trick_invalid_by_default():
    record = deal(cp=(70, 0), mp=(0, 20), tricks=(6, 0), claim_by="A")
    raises("marriage_points_without_trick", "marriage_points.B", record)


def test_pending_marriage_of_trickless_loser_counts_nothing():
    record = deal(cp=(70, 0), mp=(0, 20), tricks=(6, 0), claim_by="A")
    assert score_deal(record, PAGAT) == result("A", 3, "capot", (70, 0))


def test_pending_marriage_counts_once_a_trick_is_won():
    record = deal(cp=(70, 0), mp=(0, 40), tricks=(6, 1), claim_by="A")
    assert score_deal(record, PAGAT) == result("A", 1, "won", (70, 40))


def test_pending_first_lead_marriage_of_claimant_counts():
    record = deal(cp=(26, 20), mp=(40, 0), tricks=(2, 2), claim_by="A")
    assert score_deal(record, PAGAT) == result("A", 2, "schneider", (66, 20))


def test_pending_trickless_marriage_does_not_make_a_draw():
    # B never won a trick; B's 20 is void. Stock ran out: A 120 + 10.
    record = deal("exhausted", (120, 0), mp=(0, 20), tricks=(12, 0), last_trick_by="A")
    assert score_deal(record, PAGAT) == result("A", 3, "capot", (130, 0))


# --- §4: validation ------------------------------------------------------------------------------

# The trick-capacity table, by hand. Card values: A 11, 10 10, K 4, Q 3, J 2, 9 0, four of each.
# MAX[k]: the 2k best cards: 4 aces (44), 4 tens (40), 4 kings (16), 4 queens (12), 4 jacks (8).
# MIN[k]: the 2k worst cards: 4 nines (0), 4 jacks (8), 4 queens (12), 4 kings (16), 4 tens...
HAND_MIN = {
    0: 0,
    1: 0,
    2: 0,
    3: 4,
    4: 8,
    5: 14,
    6: 20,
    7: 28,
    8: 36,
    9: 56,
    10: 76,
    11: 98,
    12: 120,
}
HAND_MAX = {
    0: 0,
    1: 22,  # A A
    2: 44,  # A A A A
    3: 64,  # + 10 10
    4: 84,  # + 10 10
    5: 92,  # + K K
    6: 100,  # + K K
    7: 106,  # + Q Q
    8: 112,  # + Q Q
    9: 116,  # + J J
    10: 120,  # + J J (all card points; the rest are nines)
    11: 120,
    12: 120,
}


def capacity_cases():
    for k in range(1, 13):
        yield pytest.param(k, HAND_MIN[k], True, id=f"{k}-tricks-min-{HAND_MIN[k]}")
        if HAND_MIN[k] > 0:
            low = HAND_MIN[k] - 1
            yield pytest.param(k, low, False, id=f"{k}-tricks-below-min-{low}")
        yield pytest.param(k, HAND_MAX[k], True, id=f"{k}-tricks-max-{HAND_MAX[k]}")
        if HAND_MAX[k] < 120:
            high = HAND_MAX[k] + 1
            yield pytest.param(k, high, False, id=f"{k}-tricks-above-max-{high}")


@pytest.mark.parametrize(("k", "card_points", "valid"), list(capacity_cases()))
@pytest.mark.parametrize("seat", ["A", "B"])
def test_trick_capacity(seat, k, card_points, valid):
    # The seat under test claims; the other player has no trick and no card points. With all
    # 12 tricks the deal was played out (a claim is refused), so that player took the last one.
    cp = (card_points, 0) if seat == "A" else (0, card_points)
    tricks = (k, 0) if seat == "A" else (0, k)
    if k == 12:
        record = deal("exhausted", cp=cp, tricks=tricks, last_trick_by=seat)
    else:
        record = deal(cp=cp, tricks=tricks, claim_by=seat)
    if valid:
        validate_deal(record)
    else:
        raises("card_points_outside_trick_capacity", f"card_points.{seat}", record)


def test_trick_capacity_message_names_the_limits():
    record = deal(cp=(70, 30), tricks=(3, 3), claim_by="A")
    error = raises("card_points_outside_trick_capacity", "card_points.A", record)
    assert str(error) == (
        "The card points of player A (70) cannot come from 3 trick(s): "
        "3 trick(s) hold between 4 and 64 card points."
    )


def test_card_points_over_120_per_player_and_together():
    raises("card_points_over_120", "card_points.A", deal(cp=(121, 0), tricks=(12, 0), claim_by="A"))
    raises("card_points_over_120", "card_points", deal(cp=(70, 60), tricks=(6, 6), claim_by="A"))


def test_card_points_without_trick():
    record = deal(cp=(66, 4), tricks=(6, 0), claim_by="A")
    raises("card_points_without_trick", "card_points.B", record)


@pytest.mark.parametrize("marriage_points", [10, 30, 50, 90, 120, 140])
def test_marriage_sum_not_made_of_20s_and_40s(marriage_points):
    record = deal(cp=(66, 30), mp=(0, marriage_points), tricks=(6, 3), claim_by="A")
    raises("invalid_marriage_sum", "marriage_points.B", record)


@pytest.mark.parametrize(
    ("mp_a", "mp_b", "feasible"),
    [
        (0, 100, True),  # B: 40 + 20 + 20 + 20
        (100, 0, True),
        (40, 60, True),  # A 20+20, B 40+20
        (60, 40, True),  # A 20+20+20, B 40
        (60, 20, True),  # A 40+20, B 20
        (40, 40, True),  # A 40, B 20+20
        (20, 80, True),  # A 20, B 40+20+20
        (100, 20, False),  # 120 > 100
        (80, 40, False),  # A needs the 40; B's 40 would be 20+20: four 20s
        (40, 80, False),
        (60, 60, False),  # 120 > 100
        (80, 80, False),
    ],
)
def test_marriage_combinations(mp_a, mp_b, feasible):
    # 6 and 4 tricks: enough leads for up to four marriages each (§4 marriages_exceed_leads).
    record = deal(cp=(66, 30), mp=(mp_a, mp_b), tricks=(6, 4), claim_by="A")
    if feasible:
        validate_deal(record)
    else:
        raises("invalid_marriage_sum", "marriage_points", record)


def test_played_out_card_points_must_be_120():
    record = deal("exhausted", (60, 59), tricks=(6, 6), last_trick_by="A")
    raises("played_out_not_120", "card_points", record)
    closed = deal("closed_played_out", (70, 49), tricks=(6, 6), closed_by="A")
    raises("played_out_not_120", "card_points", closed)


def test_played_out_tricks_must_be_12():
    record = deal("exhausted", (60, 60), tricks=(6, 5), last_trick_by="A")
    raises("played_out_not_120", "tricks", record)


def test_claimant_without_trick():
    record = deal(cp=(0, 30), tricks=(0, 3), claim_by="A")
    raises("claimant_without_trick", "claim_by", record)


@pytest.mark.parametrize(
    ("cp", "tricks"),
    [
        pytest.param((20, 20), (6, 6), id="6+6-tricks-40-card-points"),  # MIN[6] = 20 each
        pytest.param((66, 30), (7, 5), id="7+5-tricks-96-card-points"),
        pytest.param((70, 50), (7, 5), id="7+5-tricks-all-120"),  # still no claim after 12
    ],
)
def test_a_claim_in_which_all_twelve_tricks_were_taken_is_refused(cp, tricks):
    # §4: all 12 tricks taken means the deal was played out: `end` is not `claim`.
    error = raises("played_out_not_120", "end", deal(cp=cp, tricks=tricks, claim_by="A"))
    assert f"({tricks[0]} + {tricks[1]})" in str(error)
    assert f"(entered: {cp[0] + cp[1]})" in str(error)
    assert error.params == {"tricks_a": tricks[0], "tricks_b": tricks[1],
                            "card_points": cp[0] + cp[1]}


def test_a_claim_with_eleven_tricks_taken_need_not_share_out_120():
    # A claim stops the deal at once: 11 tricks, 66 + 20 card points.
    validate_deal(deal(cp=(66, 20), tricks=(7, 4), claim_by="A"))


def test_a_claim_with_twelve_tricks_is_refused_also_after_a_close():
    record = deal(cp=(70, 50), tricks=(7, 5), claim_by="A", closed_by="A")
    raises("played_out_not_120", "end", record)


def test_claimant_without_trick_comes_before_the_twelve_trick_check():
    # §4 order: the claimant row comes first. B took all 12 tricks, A claimed.
    record = deal(cp=(0, 120), tricks=(0, 12), claim_by="A")
    raises("claimant_without_trick", "claim_by", record)


INCONSISTENT = [
    ("unknown-end", {"end": "stock"}, "end"),
    ("end-none", {"end": None}, "end"),
    ("claimant-not-a-seat", {"claim_by": "C"}, "claim_by"),
    ("closer-lowercase", {"closed_by": "a"}, "closed_by"),
    ("missing-seat-key", {"card_points": {"A": 66}}, "card_points.B"),
    ("extra-seat-key", {"tricks": {"A": 6, "B": 3, "C": 0}}, "tricks"),
    ("not-a-mapping", {"marriage_points": [0, 0]}, "marriage_points"),
    ("negative-tricks", {"tricks": {"A": 6, "B": -1}}, "tricks.B"),
    ("negative-card-points", {"card_points": {"A": -1, "B": 30}}, "card_points.A"),
    ("bool-is-not-int", {"marriage_points": {"A": 0, "B": True}}, "marriage_points.B"),
    ("float", {"card_points": {"A": 66.0, "B": 30}}, "card_points.A"),
    ("string", {"tricks": {"A": "6", "B": 3}}, "tricks.A"),
    ("tricks-over-12", {"tricks": {"A": 13, "B": 0}}, "tricks.A"),
    ("tricks-sum-over-12", {"tricks": {"A": 7, "B": 6}}, "tricks"),
    ("claim-without-claimant", {"claim_by": None}, "claim_by"),
    ("claim-with-last-trick", {"last_trick_by": "A"}, "last_trick_by"),
    ("at-close-without-closer", {"opponent_tricks_at_close": 0}, "opponent_tricks_at_close"),
    (
        "at-close-over-4",
        {"closed_by": "A", "opponent_tricks_at_close": 5, "tricks": {"A": 6, "B": 6}},
        "opponent_tricks_at_close",
    ),
    (
        "at-close-over-final",
        {"closed_by": "A", "opponent_tricks_at_close": 3, "tricks": {"A": 6, "B": 2}},
        "opponent_tricks_at_close",
    ),
    (
        "at-close-negative",
        {"closed_by": "A", "opponent_tricks_at_close": -1},
        "opponent_tricks_at_close",
    ),
    (
        "at-close-string",
        {"closed_by": "A", "opponent_tricks_at_close": "1"},
        "opponent_tricks_at_close",
    ),
]

PLAYED_OUT_INCONSISTENT = [
    ("exhausted-with-closer", {"closed_by": "A"}, "closed_by"),
    ("exhausted-without-last-trick", {"last_trick_by": None}, "last_trick_by"),
    ("exhausted-with-claimant", {"claim_by": "A"}, "claim_by"),
    ("last-trick-winner-without-trick", {"tricks": {"A": 12, "B": 0}}, "last_trick_by"),
    ("last-trick-not-a-seat", {"last_trick_by": "X"}, "last_trick_by"),
]

CLOSED_INCONSISTENT = [
    ("closed-without-closer", {"closed_by": None}, "closed_by"),
    ("closed-with-claimant", {"claim_by": "B"}, "claim_by"),
]


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=i) for i, c, f in INCONSISTENT]
)
def test_inconsistent_claim_records(changes, field):
    base = deal(cp=(66, 30), tricks=(6, 3), claim_by="A")
    raises("inconsistent_record", field, dataclasses.replace(base, **changes))


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=i) for i, c, f in PLAYED_OUT_INCONSISTENT]
)
def test_inconsistent_exhausted_records(changes, field):
    base = deal("exhausted", (60, 60), tricks=(6, 6), last_trick_by="B")
    if "tricks" in changes:
        base = dataclasses.replace(base, card_points={"A": 120, "B": 0})
    raises("inconsistent_record", field, dataclasses.replace(base, **changes))


@pytest.mark.parametrize(
    ("changes", "field"), [pytest.param(c, f, id=i) for i, c, f in CLOSED_INCONSISTENT]
)
def test_inconsistent_closed_records(changes, field):
    base = deal("closed_played_out", (70, 50), tricks=(7, 5), closed_by="A")
    raises("inconsistent_record", field, dataclasses.replace(base, **changes))


def closed_with(at_close):
    return deal(
        "closed_played_out", (60, 60), tricks=(6, 6), closed_by="B",
        opponent_tricks_at_close=at_close,
    )


def test_opponent_tricks_at_close_up_to_3_while_closing_needs_more_than_two_cards():
    # 12 cards in the stock, 2 drawn per trick: "more than two cards" allows a close after at
    # most 4 tricks (4 cards left); the closer is on lead, so won the 4th: the opponent <= 3.
    validate_deal(closed_with(3))
    error = raises("inconsistent_record", "opponent_tricks_at_close", closed_with(4))
    assert "cannot exceed 3" in str(error) and "at most 4 tricks" in str(error)


def test_opponent_tricks_at_close_up_to_4_when_closing_needs_only_a_card_in_the_stock():
    # Seed 002: "when on lead and the deck has cards": after 5 tricks 2 cards are left, after 6
    # none; the closer won the 5th trick, so the opponent holds at most 4.
    rules = HouseRules(close_when="stock_not_empty")
    validate_deal(closed_with(4), rules)
    error = raises("inconsistent_record", "opponent_tricks_at_close", closed_with(5), rules)
    assert "cannot exceed 4" in str(error) and "at most 5 tricks" in str(error)


def test_close_when_decides_a_failed_close_scored_by_tricks_at_close():
    # pagat's failed close: 3 game points if the opponent had no trick at the close, else 2.
    rules = HouseRules(failed_close="tricks_at_close", close_when="stock_not_empty")
    record = dataclasses.replace(closed_with(4), card_points={"A": 66, "B": 54})
    assert score_deal(record, rules) == result("A", 2, "closer_failed", (66, 54))
    with pytest.raises(ValueError, match="close_when"):
        HouseRules(close_when="never")


# --- §4: the order of the checks -----------------------------------------------------------------


def test_inconsistent_record_comes_before_card_point_checks():
    record = deal(cp=(130, 0), tricks=(13, 0), claim_by="A")
    raises("inconsistent_record", "tricks.A", record)


def test_over_120_comes_before_without_trick():
    record = deal(cp=(66, 130), tricks=(6, 0), claim_by="A")
    raises("card_points_over_120", "card_points.B", record)


def test_without_trick_comes_before_capacity():
    record = deal(cp=(90, 5), tricks=(3, 0), claim_by="A")  # 90 > MAX[3] too
    raises("card_points_without_trick", "card_points.B", record)


def test_capacity_comes_before_marriages():
    record = deal(cp=(70, 30), mp=(30, 0), tricks=(3, 3), claim_by="A")
    raises("card_points_outside_trick_capacity", "card_points.A", record)


def test_marriage_sum_comes_before_marriage_without_trick():
    record = deal(cp=(66, 0), mp=(0, 30), tricks=(6, 0), claim_by="A")
    raises("invalid_marriage_sum", "marriage_points.B", record)


def test_marriage_without_trick_comes_before_played_out():
    record = deal("exhausted", (110, 0), mp=(0, 20), tricks=(11, 0), last_trick_by="A")
    raises("marriage_points_without_trick", "marriage_points.B", record)
    # Under "pending" the marriage is allowed, and the 110 is the next failure.
    raises("played_out_not_120", "card_points", record, PAGAT)


def test_marriage_without_trick_comes_before_claimant_without_trick():
    record = deal(cp=(0, 30), mp=(20, 0), tricks=(0, 3), claim_by="A")
    raises("marriage_points_without_trick", "marriage_points.A", record)
    raises("claimant_without_trick", "claim_by", record, PAGAT)


# --- InvalidDeal, HouseRules, helpers --------------------------------------------------------


def test_error_codes_are_the_documented_ones():
    assert ERROR_CODES == (
        "inconsistent_record",
        "card_points_over_120",
        "card_points_without_trick",
        "card_points_outside_trick_capacity",
        "invalid_marriage_sum",
        "marriage_points_without_trick",
        "played_out_not_120",
        "claimant_without_trick",
        "marriages_exceed_leads",
        "match_finished",
        "points_do_not_match_reason",
    )


@pytest.mark.parametrize("code", ERROR_CODES)
def test_invalid_deal_default_sentence_names_the_field(code):
    error = InvalidDeal(code, "card_points.A")
    assert isinstance(error, ValueError)
    assert (error.code, error.field) == (code, "card_points.A")
    assert str(error).startswith("Card points of player A: ")
    assert str(error).endswith(".")
    assert error.message == str(error)


def test_invalid_deal_keeps_a_given_message_and_survives_pickling():
    error = InvalidDeal("match_finished", "deals[7]", "Deal 8 comes after the end.")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.field, str(copy)) == ("match_finished", "deals[7]", str(error))


def test_invalid_deal_rejects_an_unknown_code():
    with pytest.raises(ValueError, match="Unknown InvalidDeal code"):
        InvalidDeal("no_such_code")


@pytest.mark.parametrize(
    ("field", "words"),
    [
        (None, "deal record"),
        ("card_points.A", "card points of player A"),
        ("marriage_points.B", "marriage points of player B"),
        ("tricks", "tricks"),
        ("claim_by", "player who claimed 66"),
        ("closed_by", "player who closed the stock"),
        ("last_trick_by", "winner of the last trick"),
        ("game_points", "game points"),
        ("deals[7]", "deal 8"),
        ("deals[0].game_points", "game points of deal 1"),
    ],
)
def test_describe_field(field, words):
    assert describe_field(field) == words


def test_other():
    assert (other("A"), other("B")) == ("B", "A")
    with pytest.raises(ValueError):
        other("C")


def test_house_rules_defaults():
    assert dataclasses.asdict(HouseRules()) == {
        "game_target": 11,
        "first_trick_marriage": "forbidden",
        "last_trick": "bonus",
        "draw_carry_over": False,
        "false_claim_points": 3,
        "failed_close": "flat",
        "opponent_out_after_close_points": 3,
        "schneider_below": 33,
        "capot_by": "tricks",
        "next_dealer": "winner",
        "close_when": "stock_over_two",
    }


def test_presets():
    assert HouseRules.preset("default") == HouseRules()
    assert HouseRules.preset("pagat") == PAGAT
    assert set(PRESETS) == {"default", "pagat"}
    with pytest.raises(ValueError, match="nosuch"):
        HouseRules.preset("nosuch")


def test_house_rules_from_dict():
    assert HouseRules.from_dict({}) == HouseRules()
    assert HouseRules.from_dict({"game_target": 7}) == HouseRules(game_target=7)
    assert HouseRules.from_dict(PAGAT.to_dict()) == PAGAT
    with pytest.raises(ValueError, match="colour"):
        HouseRules.from_dict({"colour": "red"})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game_target", 0),
        ("game_target", 100),
        ("game_target", True),
        ("game_target", 11.0),
        ("game_target", "11"),
        ("first_trick_marriage", "allowed"),
        ("last_trick", "bonus10"),
        ("draw_carry_over", 1),
        ("false_claim_points", 1),
        ("false_claim_points", 4),
        ("failed_close", "tricks"),
        ("opponent_out_after_close_points", 1),
        ("schneider_below", 30),
        ("capot_by", "cards"),
        ("next_dealer", "dealer"),
    ],
)
def test_house_rules_reject_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        HouseRules(**{field: value})


@pytest.mark.parametrize("game_target", [1, 7, 10, 11, 21, 99])
def test_house_rules_accept_any_game_target_1_to_99(game_target):
    assert HouseRules(game_target=game_target).game_target == game_target


def test_house_rules_and_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        HouseRules().game_target = 7
    record = deal(claim_by="A")
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.end = "exhausted"


def test_rules_module_imports_no_django():
    import ast
    from pathlib import Path

    import scoring.rules

    tree = ast.parse(Path(scoring.rules.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert "django" not in imported


# --- §4: each marriage on its own lead (marriages_exceed_leads) -------------------------------

# Fewest marriages per sum (20 plain, 40 trump): 20 or 40 -> 1, 60 = 40+20 -> 2,
# 80 = 40+20+20 -> 3, 100 = 40+20+20+20 -> 4. A player leads after each won trick; the deal's
# first lead carries a marriage only under "pending".
LEADS_CASES = [
    # (rules, marriage points of B, B's tricks, valid)
    ("forbidden", 20, 1, True),
    ("forbidden", 40, 1, True),
    ("forbidden", 60, 1, False),  # the example: 60 with one trick
    ("forbidden", 60, 2, True),
    ("forbidden", 80, 2, False),
    ("forbidden", 80, 3, True),
    ("forbidden", 100, 3, False),
    ("forbidden", 100, 4, True),
    ("pending", 40, 0, True),  # the first lead's marriage (it does not count: no trick)
    ("pending", 60, 0, False),
    ("pending", 60, 1, True),  # first lead + one won trick
    ("pending", 80, 1, False),
    ("pending", 100, 3, True),
]


def b_with_marriages(marriage_points, b_tricks):
    # A claims with 6 tricks and 66; B's card points: the least its tricks hold.
    return deal(cp=(66, [0, 0, 0, 4, 8][b_tricks]), mp=(0, marriage_points),
                tricks=(6, b_tricks), claim_by="A")


@pytest.mark.parametrize(
    ("first_trick_marriage", "marriage_points", "b_tricks", "valid"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}-with-{case[2]}-tricks") for case in LEADS_CASES],
)
def test_marriages_need_a_lead_each(first_trick_marriage, marriage_points, b_tricks, valid):
    rules = HouseRules(first_trick_marriage=first_trick_marriage)
    record = b_with_marriages(marriage_points, b_tricks)
    if valid:
        validate_deal(record, rules)
    else:
        raises("marriages_exceed_leads", "marriage_points.B", record, rules)


def test_marriages_exceed_leads_names_the_numbers():
    error = raises("marriages_exceed_leads", "marriage_points.B", b_with_marriages(60, 1))
    assert str(error) == (
        "The marriage points of player B (60) need at least 2 marriages, each declared on a "
        "lead of its own after a won trick, but player B won only 1 trick(s): at most 1 "
        "marriage(s)."
    )
    assert error.params == {
        "seat": "B", "marriage_points": 60, "marriages": 2, "tricks": 1, "leads": 1,
    }
    pending = raises("marriages_exceed_leads", "marriage_points.B", b_with_marriages(80, 1),
                     PAGAT)
    assert "won only 1 trick(s) plus the deal's first lead: at most 2 marriage(s)" in str(pending)


def test_marriages_exceed_leads_is_checked_for_seat_a_too():
    record = deal(cp=(60, 30), mp=(100, 0), tricks=(3, 3), claim_by="A")
    raises("marriages_exceed_leads", "marriage_points.A", record)


def test_marriage_without_trick_comes_before_marriages_exceed_leads():
    raises("marriage_points_without_trick", "marriage_points.B", b_with_marriages(60, 0))


def test_claimant_without_trick_comes_before_marriages_exceed_leads():
    record = deal(cp=(0, 30), mp=(60, 0), tricks=(0, 3), claim_by="A")
    raises("claimant_without_trick", "claim_by", record, PAGAT)


def test_played_out_comes_before_marriages_exceed_leads():
    record = deal("exhausted", (110, 0), mp=(0, 60), tricks=(11, 0), last_trick_by="A")
    raises("played_out_not_120", "card_points", record, PAGAT)


@pytest.mark.parametrize(
    ("marriage_points", "needed"), [(0, 0), (20, 1), (40, 1), (60, 2), (80, 3), (100, 4)]
)
def test_marriages_needed(marriage_points, needed):
    assert marriages_needed(marriage_points) == needed


@pytest.mark.parametrize("marriage_points", [10, 120, -20, True, "20"])
def test_marriages_needed_refuses_an_impossible_sum(marriage_points):
    with pytest.raises(ValueError):
        marriages_needed(marriage_points)


# --- §4 row 9: nobody leads after the 12th trick ------------------------------------------------

# B won only the 12th trick of a deal where the stock ran out: A 11 tricks and all 120 card
# points, B one trick of the two nines (0 card points). B led only if B led the deal's first
# trick; after the 12th trick nobody leads.


def only_the_last_trick(marriage_points):
    return deal("exhausted", (120, 0), mp=(0, marriage_points), tricks=(11, 1),
                last_trick_by="B")


@pytest.mark.parametrize("marriage_points", [20, 40])
def test_a_player_whose_only_trick_is_the_last_has_no_marriage(marriage_points):
    error = raises("marriages_exceed_leads", "marriage_points.B",
                   only_the_last_trick(marriage_points))
    assert error.case == "only_last_trick"
    assert str(error) == (
        f"The marriage points of player B must be 0 (entered: {marriage_points}): player B won "
        "only the last trick, and nobody leads after the last trick, so player B never had a "
        "lead to declare a marriage on."
    )
    assert error.params == {
        "seat": "B", "marriage_points": marriage_points, "marriages": 1, "tricks": 1, "leads": 0,
    }


def test_only_the_last_trick_without_marriages_stays_valid():
    # A 120 against B 0 + 10 for the last trick: B has a trick, 10 < 33, schneider.
    assert score_deal(only_the_last_trick(0)) == result("A", 2, "schneider", (120, 10))


def test_under_pending_the_first_lead_can_carry_the_one_marriage():
    # B led the first trick with 20 (pending), lost it, and won only the 12th trick, which makes
    # the marriage count: B 0 + 20 + 10 = 30 < 33 -> A 120 wins a schneider.
    assert score_deal(only_the_last_trick(20), PAGAT) == result("A", 2, "schneider", (120, 30))
    # Two marriages (60 = 40 + 20) need two leads; the first lead is B's only one.
    error = raises("marriages_exceed_leads", "marriage_points.B", only_the_last_trick(60), PAGAT)
    assert error.case == "last_trick_first_lead"
    assert str(error) == (
        "The marriage points of player B (60) need at least 2 marriages, each declared on a "
        "lead of its own after a won trick, but player B won 1 trick(s), the last of them the "
        "deal's last trick, after which nobody leads: at most 1 marriage(s), counting the "
        "deal's first lead."
    )


def test_the_last_trick_winner_leads_after_each_other_won_trick():
    # B 2 tricks (four nines, 0 card points), one of them the last: one lead, one marriage.
    # A 120; B 0 + 20 + 10 = 30 < 33 -> schneider for A.
    one = deal("exhausted", (120, 0), mp=(0, 20), tricks=(10, 2), last_trick_by="B")
    assert score_deal(one) == result("A", 2, "schneider", (120, 30))
    two = dataclasses.replace(one, marriage_points={"A": 0, "B": 60})
    error = raises("marriages_exceed_leads", "marriage_points.B", two)
    assert error.case == "last_trick"
    assert error.params == {
        "seat": "B", "marriage_points": 60, "marriages": 2, "tricks": 2, "leads": 1,
    }
    assert str(error).endswith(
        "player B won 2 trick(s), the last of them the deal's last trick, after which nobody "
        "leads: at most 1 marriage(s)."
    )


def test_the_same_marriage_after_a_trick_that_is_not_the_last_stays_valid():
    # A took the 12th trick, B's one trick came earlier and gave B a lead: 20 is possible.
    # A 120 + 10 = 130; B 0 + 20 = 20 < 33 -> schneider.
    record = deal("exhausted", (120, 0), mp=(0, 20), tricks=(11, 1), last_trick_by="A")
    assert score_deal(record) == result("A", 2, "schneider", (130, 20))
    # ... and a claim leaves no 12th trick (B's one trick is followed by a lead).
    claim = deal(cp=(66, 0), mp=(0, 20), tricks=(6, 1), claim_by="A")
    assert score_deal(claim) == result("A", 2, "schneider", (66, 20))


def test_the_last_trick_rule_comes_after_marriage_without_trick():
    # A player without any trick is refused by row 5 first, as before.
    record = deal("exhausted", (120, 0), mp=(0, 20), tricks=(12, 0), last_trick_by="A")
    raises("marriage_points_without_trick", "marriage_points.B", record)


# --- §4: a closer without a trick closed before the first trick --------------------------------

# A closed and took no trick at all: A was on lead with no trick won, which is only the deal's
# first lead, so B had no trick at the close. B then took all 12 tricks (120 card points).


@pytest.mark.parametrize("at_close", [1, 2, 3])
def test_a_closer_without_a_trick_leaves_the_opponent_none_at_the_close(at_close):
    record = deal("closed_played_out", (0, 120), tricks=(0, 12), closed_by="A",
                  opponent_tricks_at_close=at_close)
    error = raises("inconsistent_record", "opponent_tricks_at_close", record, PAGAT)
    assert error.case == "closer_without_trick"
    assert error.params == {"opponent_tricks_at_close": at_close, "seat": "A"}
    assert str(error) == (
        f"The opponent's tricks when the stock was closed must be 0 (entered: {at_close}): "
        "player A, who closed, took no trick, so closed the stock before the first trick was "
        "played."
    )
    # Impossible under every failed_close option, not only the one that scores by it.
    raises("inconsistent_record", "opponent_tricks_at_close", record, DEFAULT)


def test_a_closer_without_a_trick_fails_for_3_with_none_at_the_close():
    # tricks_at_close: the opponent had no trick at the close -> 3 game points to B.
    record = deal("closed_played_out", (0, 120), tricks=(0, 12), closed_by="A",
                  opponent_tricks_at_close=0)
    assert score_deal(record, PAGAT) == result("B", 3, "closer_failed", (0, 120))


def test_a_trickless_closer_whose_opponent_goes_out_has_none_at_the_close_too():
    # B goes out after A's close with 66 in 6 tricks; A closed on the first lead.
    record = deal(cp=(0, 66), tricks=(0, 6), claim_by="B", closed_by="A",
                  opponent_tricks_at_close=2)
    raises("inconsistent_record", "opponent_tricks_at_close", record, PAGAT)
    fixed = dataclasses.replace(record, opponent_tricks_at_close=0)
    # The closer's opponent going out first: 2 under pagat.
    assert score_deal(fixed, PAGAT) == result("B", 2, "opponent_out_after_close", (0, 66))


def test_a_closer_with_a_trick_may_leave_the_opponent_tricks_at_the_close():
    # A won trick 3 and closed; B had 2 tricks then; A fails with 60 -> 2 (B had a trick).
    record = deal("closed_played_out", (60, 60), tricks=(6, 6), closed_by="A",
                  opponent_tricks_at_close=2)
    assert score_deal(record, PAGAT) == result("B", 2, "closer_failed", (60, 60))
