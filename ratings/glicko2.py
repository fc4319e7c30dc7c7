"""The Glicko-2 rating system, as published: Mark E. Glickman, "Example of the Glicko-2
system" (Boston University, 30 November 2013, glicko.net/glicko/glicko2.pdf). Pure: no Django.

Decision: this module implements the paper itself rather than depending on the PyPI package
`glicko2` (2.1.0, January 2024, MIT; a fork of Ryan Kirkman's 2009 pyglicko2, its last
release nearly three years old). Its source was read before choosing: the function f(x) of
step 5 uses the player's rating mu squared where the paper has the deviation phi squared. On
the paper's worked example (a player at 1500, so mu = 0) that shows only in the seventh digit
of the volatility (0.0599934 instead of 0.0599960), but elsewhere the results change when
every rating is shifted by the same amount, which Glicko-2 never does (a player at 2300 with
the same games as one at 1500, against opponents shifted alike, gets volatility 0.0599996
instead of the paper's 0.0600536; small, but wrong, and it compounds period after period). It also
keeps the system constant tau as mutable class state, updates players in place, adds its sums
in list order, and divides by zero for a player with no games. The paper's algorithm is some
eighty lines; here it takes frozen dataclasses in and out, sums with `math.fsum` (exactly
rounded, so the order of a player's games never changes a result), and is tested against the
worked example step by step (`tests/ratings/test_glicko2.py`).

Units: `rating` and `deviation` are rating points (the Glicko scale: 1500 for a newcomer;
nothing to do with a match's game points); `volatility` is sigma on the Glicko-2 scale, as in
the paper. A score is 1 for a win, 0 for a loss, 0.5 for a draw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

INITIAL_RATING = 1500.0
"""A newcomer's rating, in rating points (step 1)."""
INITIAL_DEVIATION = 350.0
"""A newcomer's rating deviation RD, in rating points (step 1)."""
INITIAL_VOLATILITY = 0.06
"""A newcomer's volatility sigma (step 1; the paper's example uses it too)."""
TAU = 0.5
"""The system constant tau, which limits how fast the volatility changes (step 1: reasonable
choices are 0.3 to 1.2; the paper's example uses 0.5)."""
SCALE = 173.7178
"""Rating points per Glicko-2 unit (step 2 and step 8)."""
EPSILON = 0.000001
"""Convergence tolerance of the Illinois iteration (step 5)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating: `rating` and `deviation` (RD) in rating points, `volatility` sigma."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the rating period seen from the player: the opponent's rating at the start
    of the period and the player's `score` (1 win, 0 loss, 0.5 draw)."""

    opponent: Rating
    score: float


def _check(rating: Rating) -> None:
    if not (rating.deviation > 0 and rating.volatility > 0):
        raise ValueError(
            f"A rating needs a positive deviation and volatility, not {rating.deviation} "
            f"and {rating.volatility}."
        )


def g(phi: float) -> float:
    """Step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2), `phi` a deviation on the Glicko-2 scale
    (rating points / `SCALE`)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: E(mu, mu_j, phi_j) = 1 / (1 + exp(-g(phi_j) (mu - mu_j))), the expected score
    (0..1) of a player rated `mu` against one rated `mu_j` with deviation `phi_j`, all on the
    Glicko-2 scale."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float = TAU) -> float:
    """Step 5: the new volatility sigma' from the player's deviation `phi` (Glicko-2 scale),
    volatility `sigma`, estimated variance `v` (step 3) and improvement `delta` (step 4), by
    the Illinois algorithm (regula falsi) with tolerance `EPSILON`.

    Raises `ValueError` for a non-positive `tau`.
    """
    if tau <= 0:
        raise ValueError(f"tau must be positive, not {tau}.")
    a = math.log(sigma * sigma)
    phi2, delta2, tau2 = phi * phi, delta * delta, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate_absent(player: Rating, *, max_deviation: float | None = None) -> Rating:
    """The rating after a period in which `player` played no game: rating and volatility
    unchanged, deviation grown to sqrt(RD^2 + (SCALE sigma)^2) (the paper, step 6: "If the
    player does not compete during the rating period, then ... phi' = phi*").

    `max_deviation` (rating points), if given, caps the grown deviation (a house choice of
    `ratings.periods`, not the paper's). Raises `ValueError` for a non-positive
    deviation or volatility.
    """
    _check(player)
    phi = player.deviation / SCALE
    deviation = SCALE * math.sqrt(phi * phi + player.volatility * player.volatility)
    if max_deviation is not None:
        deviation = min(deviation, max(max_deviation, player.deviation))
    return Rating(player.rating, deviation, player.volatility)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """`player`'s rating at the end of a rating period with these `results` (every game of
    the period, against each opponent's rating at the period's start): the paper's steps 2-8.
    No results: step 6 alone (`rate_absent`).

    Ratings and deviations are rating points; the order of `results` does not matter (sums
    are exactly rounded). Raises `ValueError` for a score outside 0..1, a non-positive
    deviation or volatility, or a non-positive `tau`.
    """
    _check(player)
    if not results:
        return rate_absent(player)
    for result in results:
        _check(result.opponent)
        if not 0 <= result.score <= 1:
            raise ValueError(f"A score is between 0 and 1, not {result.score}.")
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    games = [
        ((r.opponent.rating - INITIAL_RATING) / SCALE, r.opponent.deviation / SCALE, r.score)
        for r in results
    ]
    # Step 3: the estimated variance v of the rating from the game outcomes alone.
    expected = [(g(phi_j), expected_score(mu, mu_j, phi_j), s) for mu_j, phi_j, s in games]
    v = 1 / math.fsum(g_j * g_j * e * (1 - e) for g_j, e, _s in expected)
    # Step 4: the estimated improvement delta.
    improvement = math.fsum(g_j * (s - e) for g_j, e, s in expected)
    delta = v * improvement
    # Step 5: the new volatility.
    sigma_new = new_volatility(phi, sigma, v, delta, tau)
    # Step 6: the pre-period deviation phi*.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # Step 7: the new deviation and rating.
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back to rating points.
    return Rating(SCALE * mu_new + INITIAL_RATING, SCALE * phi_new, sigma_new)
