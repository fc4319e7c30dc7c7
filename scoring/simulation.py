"""Random legal matches, for the `simulate_event` command and for tests: pure Python, the
randomness passed in (`random.Random`), every deal drawn from what `scoring.rules` allows.

A deal is a winner, a reason and its game points: the reasons the house rules allow
(`rules.game_points_by_reason`), weighted roughly as they happen at a club table (a plain win
most often, a capot or a failed close rarely), and the game points drawn among those the
reason allows. Deals are added until `rules.score_match` says the match is finished, so a
match never runs past its end.
"""

from __future__ import annotations

import random

from scoring import rules

REASON_WEIGHTS: dict[str, float] = {
    "won": 10.0,
    "schneider": 5.0,
    "capot": 1.5,
    "false_claim": 0.5,
    "closer_failed": 1.0,
    "opponent_out_after_close": 0.5,
    "last_trick": 2.0,
    "draw": 0.3,
}
"""How often each of `rules.REASONS` is drawn, relative to the others (only the reasons the
house rules allow are drawn at all)."""

assert tuple(REASON_WEIGHTS) == rules.REASONS, "REASON_WEIGHTS must list rules.REASONS"

MAX_DEALS = 200
"""A match longer than this is a bug (a draw keeps the score, so draws alone never end it)."""


def random_deal(rng: random.Random, house_rules: rules.HouseRules) -> rules.DealScore:
    """One deal `rules.quick_result` accepts under `house_rules`: a reason drawn by
    `REASON_WEIGHTS` among those the rules allow, its game points (0-3) drawn among those the
    reason allows, a winner ("A" or "B", None for a draw) drawn evenly."""
    allowed = rules.game_points_by_reason(house_rules)
    reasons = [reason for reason in rules.REASONS if allowed[reason]]
    reason = rng.choices(reasons, weights=[REASON_WEIGHTS[r] for r in reasons])[0]
    winner = None if reason == "draw" else rng.choice(rules.SEATS)
    return rules.quick_result(winner, rng.choice(allowed[reason]), reason, house_rules)


def random_match(
    rng: random.Random, house_rules: rules.HouseRules, first_dealer: rules.Seat = "A"
) -> list[rules.DealScore]:
    """The deals of one whole match under `house_rules`: `random_deal`s until
    `rules.score_match` finds the match finished (a player at the game target). Raises
    `RuntimeError` past `MAX_DEALS` deals (a bug)."""
    deals: list[rules.DealScore] = []
    while len(deals) < MAX_DEALS:
        deals.append(random_deal(rng, house_rules))
        if rules.score_match(deals, house_rules, first_dealer).finished:
            return deals
    raise RuntimeError(f"No winner after {MAX_DEALS} random deals.")
