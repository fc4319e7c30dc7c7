"""Adding up a match (docs/rules.md §1, §6, §7): targets, the end of a match, dealers, draws.

Running scores and dealers are worked out by hand in the comments.
"""

import pytest

from scoring.rules import (
    DealRecord,
    DealScore,
    HouseRules,
    InvalidDeal,
    MatchScore,
    dealer_of_each_deal,
    running_scores,
    score_deal,
    score_match,
)

_REASON_BY_POINTS = {1: "won", 2: "schneider", 3: "capot"}
DRAW = DealScore(None, 0, None, "draw")


def win(seat, game_points):
    return DealScore(seat, game_points, None, _REASON_BY_POINTS[game_points])


def points(a, b):
    return {"A": a, "B": b}


def test_no_deals():
    assert score_match([]) == MatchScore(points(0, 0), False, None, "A")
    assert score_match([], first_dealer="B") == MatchScore(points(0, 0), False, None, "B")


def test_eleven_is_the_default_target_and_points_are_recorded_as_scored():
    # A: 3, 3, 3 = 9; B: 2; A: 1 -> 10; A: 3 -> 13 (10 + 3, not capped at 11).
    deals = [win("A", 3), win("A", 3), win("A", 3), win("B", 2), win("A", 1)]
    assert score_match(deals) == MatchScore(points(10, 2), False, None, "A")
    assert score_match([*deals, win("A", 3)]) == MatchScore(points(13, 2), True, "A", "A")


def test_reaching_exactly_the_target_finishes():
    deals = [win("B", 3)] * 3 + [win("B", 1)]  # 9, then 10
    assert score_match(deals).finished is False
    assert score_match([*deals, win("B", 1)]) == MatchScore(points(0, 11), True, "B", "B")


def test_target_seven():
    rules = HouseRules(game_target=7)
    deals = [win("A", 3), win("A", 3), win("B", 1)]  # A 6, B 1
    assert score_match(deals, rules) == MatchScore(points(6, 1), False, None, "B")
    assert score_match([*deals, win("A", 1)], rules) == MatchScore(points(7, 1), True, "A", "A")


def test_target_ten():
    rules = HouseRules(game_target=10)
    deals = [win("B", 3), win("B", 3), win("B", 3)]  # B 9
    assert score_match(deals, rules).finished is False
    # B 9 + 2 = 11: past 10, recorded as scored.
    assert score_match([*deals, win("B", 2)], rules) == MatchScore(points(0, 11), True, "B", "B")
    # B 9 + 1 = 10: finished at target 10, still open at the default 11.
    assert score_match([*deals, win("B", 1)], rules) == MatchScore(points(0, 10), True, "B", "B")
    assert score_match([*deals, win("B", 1)]).finished is False


@pytest.mark.parametrize("extra", [win("B", 1), DRAW])
def test_a_deal_after_the_end_is_refused(extra):
    deals = [win("A", 3)] * 4  # 12 after the fourth deal
    with pytest.raises(InvalidDeal) as caught:
        score_match([*deals, extra])
    error = caught.value
    assert (error.code, error.field) == ("match_finished", "deals[4]")
    assert "deal 5" in str(error).lower()


@pytest.mark.parametrize("next_dealer", ["winner", "loser", "alternate"])
@pytest.mark.parametrize("first_dealer", ["A", "B"])
def test_a_draw_scores_nothing_and_keeps_the_dealer(next_dealer, first_dealer):
    rules = HouseRules(next_dealer=next_dealer)
    deals = [DRAW, DRAW, DRAW]
    assert score_match(deals, rules, first_dealer) == MatchScore(
        points(0, 0), False, None, first_dealer
    )
    assert dealer_of_each_deal(deals, rules, first_dealer) == [first_dealer] * 3


@pytest.mark.parametrize(
    ("next_dealer", "dealers", "next_one"),
    [
        # Deals: B wins, B wins, draw, A wins. First dealer A.
        # winner: A deals 1; B won -> B deals 2; B won -> B deals 3; draw -> B deals 4; A next.
        ("winner", ["A", "B", "B", "B"], "A"),
        # loser: A deals 1; B won -> A deals 2; -> A deals 3; draw -> A deals 4; A won -> B.
        ("loser", ["A", "A", "A", "A"], "B"),
        # alternate: A, B, A; draw keeps A for deal 4; then B.
        ("alternate", ["A", "B", "A", "A"], "B"),
    ],
)
def test_next_dealer_options(next_dealer, dealers, next_one):
    rules = HouseRules(next_dealer=next_dealer)
    deals = [win("B", 1), win("B", 2), DRAW, win("A", 1)]
    assert dealer_of_each_deal(deals, rules, "A") == dealers
    assert score_match(deals, rules, "A") == MatchScore(points(1, 3), False, None, next_one)


def test_winner_deals_next_by_default():
    # Seed 000: the winner of a deal deals the next one.
    assert score_match([win("B", 1)], first_dealer="A").next_dealer == "B"
    assert score_match([win("A", 1)], first_dealer="B").next_dealer == "A"


def test_draw_carry_over():
    rules = HouseRules(draw_carry_over=True)
    # A 1; two draws; B wins 2 and takes the 2 carried points -> 4.
    deals = [win("A", 1), DRAW, DRAW, win("B", 2)]
    assert score_match(deals, rules).game_points == points(1, 4)
    assert score_match(deals).game_points == points(1, 2)  # without the house rule
    # The carry is spent on one deal: the next win scores only its own points.
    assert score_match([*deals, win("B", 1)], rules).game_points == points(1, 5)
    # A draw at the end is still pending: nobody has it yet.
    assert score_match([*deals, DRAW], rules).game_points == points(1, 4)


def test_draw_carry_over_can_finish_a_match():
    rules = HouseRules(draw_carry_over=True)
    # A reaches 10; a draw; A wins 1 + 1 carried = 12.
    deals = [win("A", 3), win("A", 3), win("A", 3), win("A", 1), DRAW, win("A", 1)]
    assert score_match(deals, rules) == MatchScore(points(12, 0), True, "A", "A")


def test_deals_are_checked_against_the_house_rules():
    with pytest.raises(InvalidDeal) as caught:
        score_match([win("A", 1), DealScore("B", 2, None, "won")])
    error = caught.value
    assert (error.code, error.field) == ("points_do_not_match_reason", "deals[1]")
    assert str(error).startswith("Deal 2: ")

    wins_deal = HouseRules(last_trick="wins_deal")
    with pytest.raises(InvalidDeal) as caught:
        score_match([DRAW], wins_deal)
    assert (caught.value.code, caught.value.field) == ("points_do_not_match_reason", "deals[0]")

    pagat = HouseRules.preset("pagat")
    with pytest.raises(InvalidDeal) as caught:
        score_match([DealScore("A", 3, None, "false_claim")], pagat)
    assert caught.value.field == "deals[0]"


def test_first_dealer_must_be_a_seat():
    with pytest.raises(InvalidDeal) as caught:
        score_match([], first_dealer="C")
    assert (caught.value.code, caught.value.field) == ("inconsistent_record", "first_dealer")


def test_scored_deals_feed_the_match():
    capot = DealRecord(
        end="claim",
        card_points={"A": 66, "B": 0},
        marriage_points={"A": 0, "B": 0},
        tricks={"A": 6, "B": 0},
        claim_by="A",
    )
    draw = DealRecord(
        end="exhausted",
        card_points={"A": 65, "B": 55},
        marriage_points={"A": 0, "B": 0},
        tricks={"A": 6, "B": 6},
        last_trick_by="B",
    )
    deals = [score_deal(capot), score_deal(draw), score_deal(capot)]
    assert score_match(deals, first_dealer="B") == MatchScore(points(6, 0), False, None, "A")
    assert dealer_of_each_deal(deals, first_dealer="B") == ["B", "A", "A"]


def test_running_scores_after_each_deal_with_draws_carried():
    rules = HouseRules(draw_carry_over=True)
    # A deals first; the winner deals next. A wins 1 (1:0, A deals next); two draws keep the
    # score and the dealer and carry 2; B wins 2 + 2 carried (1:4, B deals next); B wins 1 (1:5).
    deals = [win("A", 1), DRAW, DRAW, win("B", 2), win("B", 1)]
    assert running_scores(deals, rules, "A") == [
        MatchScore(points(1, 0), False, None, "A"),
        MatchScore(points(1, 0), False, None, "A"),
        MatchScore(points(1, 0), False, None, "A"),
        MatchScore(points(1, 4), False, None, "B"),
        MatchScore(points(1, 5), False, None, "B"),
    ]


def test_running_scores_to_the_end_of_a_match():
    # B deals first. A: 3, 6, 9; B wins 2 (9:2) and deals; A wins 3: 12:2, the match is A's.
    deals = [win("A", 3), win("A", 3), win("A", 3), win("B", 2), win("A", 3)]
    assert running_scores(deals, first_dealer="B") == [
        MatchScore(points(3, 0), False, None, "A"),
        MatchScore(points(6, 0), False, None, "A"),
        MatchScore(points(9, 0), False, None, "A"),
        MatchScore(points(9, 2), False, None, "B"),
        MatchScore(points(12, 2), True, "A", "A"),
    ]
    assert running_scores([]) == []
    with pytest.raises(InvalidDeal) as caught:
        running_scores([*deals, win("B", 1)])
    assert (caught.value.code, caught.value.field) == ("match_finished", "deals[5]")
