"""`rules.final_score_valid` and `rules.final_score_highest`: which final scores a match can
have (docs/rules.md §6), for the events that keep only match results. Worked out by hand: the match
stops the moment a player reaches the target, and the last deal scores at most 3, so with the
target 11 the winner ends at 11, 12 or 13 and the loser at 0-10."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import rules
from scoring.rules import HouseRules, final_score_highest, final_score_valid, score_match
from scoring.simulation import random_match

SETTINGS = settings(max_examples=200, deadline=None)


def house_rules_strategy():
    options = {
        name: st.sampled_from(values) for name, values in rules.ALLOWED_HOUSE_RULE_VALUES.items()
    }
    return st.fixed_dictionaries(options).map(HouseRules.from_dict)


@pytest.mark.parametrize(("a", "b", "valid"), [
    (11, 7, True), (7, 11, True), (11, 0, True), (13, 10, True), (12, 10, True),
    (0, 13, True), (10, 11, True),
    (14, 0, False),   # the last deal scores at most 3: 10 + 3 = 13
    (11, 11, False),  # the match ends when the first player reaches 11
    (10, 9, False),   # nobody reached 11: not over
    (12, 11, False), (0, 0, False), (-1, 11, False), (11, True, False), (11.0, 3, False),
])
def test_final_scores_to_eleven(a, b, valid):
    assert final_score_valid(a, b, HouseRules()) is valid


def test_the_highest_follows_the_target_and_draws_carrying_over():
    assert final_score_highest(HouseRules()) == 13
    assert final_score_highest(HouseRules(game_target=7)) == 9
    assert final_score_highest(HouseRules(draw_carry_over=True)) is None
    # Two draws before a capot from 10: 10 + 3 + 2 = 15.
    assert final_score_valid(15, 4, HouseRules(draw_carry_over=True))
    assert not final_score_valid(7, 7, HouseRules(game_target=7))
    assert final_score_valid(9, 6, HouseRules(game_target=7))
    assert not final_score_valid(10, 6, HouseRules(game_target=7))


@SETTINGS
@given(house_rules=house_rules_strategy(), seed=st.integers(0, 2**32))
def test_every_played_match_ends_on_a_valid_final_score(house_rules, seed):
    deals = random_match(random.Random(seed), house_rules)
    result = score_match(deals, house_rules)
    assert result.finished
    assert final_score_valid(result.game_points["A"], result.game_points["B"], house_rules)


@SETTINGS
@given(house_rules=house_rules_strategy(), data=st.data())
def test_every_valid_final_score_can_be_played(house_rules, data):
    """The construction of the docstring: the loser's plain wins, the winner's plain wins up
    to one below the target, then one deal worth the rest (1-3)."""
    target = house_rules.game_target
    highest = final_score_highest(house_rules) or target + 2
    winner_points = data.draw(st.integers(target, highest))
    loser_points = data.draw(st.integers(0, target - 1))
    last = winner_points - (target - 1)
    deals = [rules.quick_result("B", 1, "won", house_rules)] * loser_points
    deals += [rules.quick_result("A", 1, "won", house_rules)] * (target - 1)
    deals.append(rules.quick_result("A", last, {1: "won", 2: "schneider", 3: "capot"}[last],
                                    house_rules))
    result = score_match(deals, house_rules)
    assert (result.finished, result.game_points) == (
        True, {"A": winner_points, "B": loser_points}
    )
    assert final_score_valid(winner_points, loser_points, house_rules)
    assert final_score_valid(loser_points, winner_points, house_rules)


@SETTINGS
@given(house_rules=house_rules_strategy(), a=st.integers(0, 40), b=st.integers(0, 40))
def test_a_valid_final_score_has_one_player_at_the_target(house_rules, a, b):
    target, highest = house_rules.game_target, final_score_highest(house_rules)
    if final_score_valid(a, b, house_rules):
        assert (a >= target) != (b >= target)
        assert highest is None or max(a, b) <= highest
    else:
        assert (a >= target) == (b >= target) or (highest is not None and max(a, b) > highest)
