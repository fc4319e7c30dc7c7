"""`rules.game_points_by_reason`: the game points each reason may score (the quick form offers
exactly these), worked out by hand from docs/rules.md §2 and §7."""

import pytest

from scoring import rules
from scoring.rules import game_points_by_reason as allowed_game_points


def test_default_rules_fix_the_game_points_of_every_reason():
    # §2: won 1, schneider 2, capot 3; §7 defaults: false claim 3, failed close "flat" 3, going
    # out after the opponent closed 3; the last trick gives +10 card points, not a deal; draw 0.
    assert dict(allowed_game_points(rules.HouseRules())) == {
        "won": (1,), "schneider": (2,), "capot": (3,), "false_claim": (3,),
        "closer_failed": (3,), "opponent_out_after_close": (3,), "last_trick": (), "draw": (0,),
    }


def test_pagat_rules_leave_a_choice_for_a_failed_close():
    # pagat: false claim 2, failed close 2 or 3 by the opponent's tricks at the close, out 2.
    allowed = allowed_game_points(rules.PRESETS["pagat"])
    assert (allowed["false_claim"], allowed["closer_failed"]) == ((2,), (2, 3))
    assert allowed["opponent_out_after_close"] == (2,)


def test_when_the_last_trick_wins_the_deal_it_scores_1_to_3_and_there_is_no_draw():
    allowed = allowed_game_points(rules.HouseRules(last_trick="wins_deal"))
    assert (allowed["last_trick"], allowed["draw"]) == ((1, 2, 3), ())


def test_the_answer_is_read_only_and_shared_per_rule_set():
    allowed = allowed_game_points(rules.HouseRules())
    assert allowed is allowed_game_points(rules.HouseRules())
    with pytest.raises(TypeError):
        allowed["won"] = (3,)
