"""The organiser's fast path: ``quick_result`` accepts only game points the reason allows.

The allowed game points per reason are written out by hand from docs/rules.md §2, §5 and §7 for each
rule set; every reason is tried with every number of game points 0-3.
"""

import pytest

from scoring.rules import REASONS, DealScore, HouseRules, InvalidDeal, quick_result

DEFAULT = HouseRules()
PAGAT = HouseRules.preset("pagat")
WINS_DEAL = HouseRules(last_trick="wins_deal")
PAGAT_WINS_DEAL = HouseRules(
    first_trick_marriage="pending",
    failed_close="tricks_at_close",
    opponent_out_after_close_points=2,
    false_claim_points=2,
    last_trick="wins_deal",
)
TRICKS_AT_END = HouseRules(failed_close="tricks_at_end")

# reason -> allowed game points; None = the reason is impossible under these rules.
ALLOWED = {
    "default": (
        DEFAULT,
        {
            "won": {1},
            "schneider": {2},
            "capot": {3},
            "false_claim": {3},  # seed 002
            "closer_failed": {3},  # flat, seeds 000, 003
            "opponent_out_after_close": {3},
            "last_trick": None,  # only with last_trick="wins_deal"
            "draw": {0},
        },
    ),
    "pagat": (
        PAGAT,
        {
            "won": {1},
            "schneider": {2},
            "capot": {3},
            "false_claim": {2},
            "closer_failed": {2, 3},  # tricks_at_close
            "opponent_out_after_close": {2},
            "last_trick": None,
            "draw": {0},
        },
    ),
    "wins_deal": (
        WINS_DEAL,
        {
            "won": {1},
            "schneider": {2},
            "capot": {3},
            "false_claim": {3},
            "closer_failed": {3},
            "opponent_out_after_close": {3},
            "last_trick": {1, 2, 3},  # by the loser's total, seed 003
            "draw": None,  # the last trick always decides
        },
    ),
    "pagat_wins_deal": (
        PAGAT_WINS_DEAL,
        {
            "won": {1},
            "schneider": {2},
            "capot": {3},
            "false_claim": {2},
            "closer_failed": {2, 3},
            "opponent_out_after_close": {2},
            "last_trick": {1, 2, 3},
            "draw": None,
        },
    ),
    "tricks_at_end": (
        TRICKS_AT_END,
        {
            "won": {1},
            "schneider": {2},
            "capot": {3},
            "false_claim": {3},
            "closer_failed": {2, 3},
            "opponent_out_after_close": {3},
            "last_trick": None,
            "draw": {0},
        },
    ),
}


def cases():
    for rules_name, (rules, table) in ALLOWED.items():
        assert set(table) == set(REASONS)
        for reason, allowed in table.items():
            for game_points in range(4):
                ok = allowed is not None and game_points in allowed
                case_id = f"{rules_name}-{reason}-{game_points}-{'ok' if ok else 'refused'}"
                yield pytest.param(rules, reason, game_points, allowed, id=case_id)


@pytest.mark.parametrize(("rules", "reason", "game_points", "allowed"), list(cases()))
def test_every_reason_with_every_game_points(rules, reason, game_points, allowed):
    winner = None if reason == "draw" else "B"
    if allowed is None:
        with pytest.raises(InvalidDeal) as caught:
            quick_result(winner, game_points, reason, rules)
        assert (caught.value.code, caught.value.field) == ("points_do_not_match_reason", "reason")
    elif game_points in allowed:
        assert quick_result(winner, game_points, reason, rules) == DealScore(
            winner, game_points, None, reason
        )
    else:
        with pytest.raises(InvalidDeal) as caught:
            quick_result(winner, game_points, reason, rules)
        error = caught.value
        assert (error.code, error.field) == ("points_do_not_match_reason", "game_points")
        assert "game points" in str(error)


def test_default_rules_are_the_default_argument():
    assert quick_result("A", 3, "capot") == DealScore("A", 3, None, "capot")
    with pytest.raises(InvalidDeal):
        quick_result("A", 2, "false_claim")


@pytest.mark.parametrize(
    ("winner", "game_points", "reason", "rules", "sentence"),
    [
        ("A", 2, "capot", DEFAULT, "A capot scores 3 game points, not 2."),
        ("B", 3, "won", DEFAULT, "A plain win scores 1 game point, not 3 game points."),
        ("A", 3, "false_claim", PAGAT, "A false claim scores 2 game points, not 3."),
        ("A", 1, "closer_failed", PAGAT, "A failed close scores 2 or 3 game points, not 1."),
        ("A", 1, "draw", DEFAULT, None),
    ],
)
def test_message_says_what_the_reason_scores(winner, game_points, reason, rules, sentence):
    with pytest.raises(InvalidDeal) as caught:
        quick_result(winner, game_points, reason, rules)
    if sentence is not None:
        assert str(caught.value) == sentence


def test_draw_has_no_winner():
    assert quick_result(None, 0, "draw") == DealScore(None, 0, None, "draw")
    with pytest.raises(InvalidDeal) as caught:
        quick_result("A", 0, "draw")
    assert (caught.value.code, caught.value.field) == ("points_do_not_match_reason", "winner")


@pytest.mark.parametrize("winner", [None, "C", "a", "", 1])
def test_a_decided_deal_needs_seat_a_or_b(winner):
    with pytest.raises(InvalidDeal) as caught:
        quick_result(winner, 1, "won")
    assert (caught.value.code, caught.value.field) == ("points_do_not_match_reason", "winner")
    assert "winner" in str(caught.value)


@pytest.mark.parametrize("reason", ["win", "", None, "Capot"])
def test_unknown_reason(reason):
    with pytest.raises(InvalidDeal) as caught:
        quick_result("A", 1, reason)
    assert (caught.value.code, caught.value.field) == ("inconsistent_record", "reason")
    assert "reason" in str(caught.value)


@pytest.mark.parametrize("game_points", [True, 1.0, "1", None, -1, 4])
def test_game_points_must_be_a_whole_number(game_points):
    with pytest.raises(InvalidDeal) as caught:
        quick_result("A", game_points, "won")
    assert (caught.value.code, caught.value.field) == ("points_do_not_match_reason", "game_points")
