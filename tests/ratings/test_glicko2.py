"""The pure Glicko-2 module against Glickman's worked example ("Example of the Glicko-2
system", 2013), and the ratings over rating periods (`ratings.periods`). No database."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import glicko2
from ratings.glicko2 import Rating, Result, new_volatility, rate, rate_absent
from ratings.periods import PROVISIONAL_MATCHES, RatedMatch, RatingPeriod, rate_periods

# The paper's example: a player rated 1500, RD 200, sigma 0.06 (tau 0.5) plays three games:
# wins against 1400/30, loses against 1550/100 and 1700/300.
PLAYER = Rating(1500, 200, 0.06)
GAMES = [
    Result(Rating(1400, 30), 1),
    Result(Rating(1550, 100), 0),
    Result(Rating(1700, 300), 0),
]


def test_the_papers_worked_example():
    after = rate(PLAYER, GAMES)
    # The paper: mu' = -0.2069, phi' = 0.8722, so r' = 173.7178 * -0.2069 + 1500 = 1464.06
    # (rounded mu'; unrounded it is 1464.0507) and RD' = 173.7178 * 0.8722 = 151.52;
    # sigma' = 0.05999 (the paper cuts, it does not round: 0.059996).
    mu, phi = (after.rating - 1500) / 173.7178, after.deviation / 173.7178
    assert round(mu, 4) == -0.2069
    assert round(phi, 4) == 0.8722
    assert round(173.7178 * round(mu, 4) + 1500, 2) == 1464.06
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert 0.05999 <= after.volatility < 0.06
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_step_5_iteration():
    # The paper's intermediate figures: phi = 200 / 173.7178 = 1.1513, v = 1.7785,
    # delta = -0.4834 start from a = ln(0.06^2) = -5.62682 and give sigma' = 0.05999: the
    # volatility barely moves, since delta^2 = 0.2337 < phi^2 + v = 3.1040.
    sigma = new_volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5)
    assert 0.05999 <= sigma < 0.06


def test_step_6_alone_for_a_player_who_did_not_play():
    # phi* = sqrt(phi^2 + sigma^2): RD = sqrt(200^2 + (173.7178 * 0.06)^2)
    #      = sqrt(40000 + 10.423068^2) = sqrt(40108.6403) = 200.2714
    after = rate_absent(PLAYER)
    assert round(after.deviation, 4) == 200.2714
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert rate(PLAYER, []) == after


def test_the_absent_deviation_is_capped_at_a_newcomers():
    assert rate_absent(Rating(1500, 349.9, 0.06), max_deviation=350).deviation == 350


def test_the_order_of_a_players_games_changes_nothing():
    results = {rate(PLAYER, list(order)) for order in itertools.permutations(GAMES)}
    assert len(results) == 1


@pytest.mark.parametrize("bad", [
    lambda: rate(PLAYER, [Result(Rating(1400, 30), 1.5)]),
    lambda: rate(Rating(1500, 0, 0.06), GAMES),
    lambda: rate(PLAYER, [Result(Rating(1400, 30, 0), 1)]),
    lambda: rate(PLAYER, GAMES, tau=0),
])
def test_impossible_input_is_refused(bad):
    with pytest.raises(ValueError):
        bad()


# --- ratings over periods ----------------------------------------------------------------


def test_two_newcomers_move_apart_by_the_same_amount():
    ratings = rate_periods([RatingPeriod(1, (RatedMatch(7, 3, "A"),))])
    winner, loser = ratings.players
    assert (winner.player, loser.player) == (7, 3)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating > 1500
    assert winner.deviation == loser.deviation < 350
    assert (winner.matches, winner.won, winner.lost) == (1, 1, 0)
    assert (loser.matches, loser.won, loser.lost) == (1, 0, 1)


def test_a_player_absent_from_a_period_gets_step_6_and_keeps_the_rating():
    first = rate_periods([RatingPeriod(1, (RatedMatch(1, 2, "A"),))])
    second = rate_periods([
        RatingPeriod(1, (RatedMatch(1, 2, "A"),)),
        RatingPeriod(2, (RatedMatch(1, 3, "B"),)),
    ])
    two_before = next(r for r in first.players if r.player == 2)
    two_after = next(r for r in second.players if r.player == 2)
    expected = rate_absent(Rating(two_before.rating, two_before.deviation,
                                  two_before.volatility))
    assert two_after.rating == two_before.rating
    assert two_after.deviation == expected.deviation > two_before.deviation
    # History: a point per event played, none for an event missed.
    assert [(p.player, p.event, p.matches) for p in second.history] == [
        (1, 1, 1), (2, 1, 1), (1, 2, 2), (3, 2, 1),
    ]


def test_a_period_is_rated_against_the_ratings_at_its_start():
    # In one period 1 beats 2 and 2 beats 3: 3's loss is rated against 2 as a newcomer
    # (1500/350), exactly as a loss to a newcomer alone would be.
    together = rate_periods([RatingPeriod(1, (RatedMatch(1, 2, "A"), RatedMatch(2, 3, "A")))])
    alone = rate_periods([RatingPeriod(1, (RatedMatch(2, 3, "A"),))])
    three = {r.player: r for r in together.players}[3]
    assert three == {r.player: r for r in alone.players}[3]


def test_provisional_until_the_named_number_of_matches():
    matches = tuple(RatedMatch(1, 2, "A" if i % 2 else "B")
                    for i in range(PROVISIONAL_MATCHES - 1))
    assert all(r.provisional for r in rate_periods([RatingPeriod(1, matches)]).players)
    more = (*matches, RatedMatch(1, 2, "A"))
    rows = rate_periods([RatingPeriod(1, more)]).players
    assert [r.matches for r in rows] == [PROVISIONAL_MATCHES] * 2
    assert not any(r.provisional for r in rows)


def test_a_match_against_oneself_is_refused():
    with pytest.raises(ValueError):
        rate_periods([RatingPeriod(1, (RatedMatch(1, 1, "A"),))])


WINNER, LOSER = 0, 1
others = st.integers(min_value=2, max_value=7)


@st.composite
def seasons(draw):
    """Periods of matches among players 0..7 in which 0 wins every match and 1 loses every
    match (they also meet each other); the other results are arbitrary."""
    periods = []
    for event in range(draw(st.integers(min_value=1, max_value=6))):
        matches = []
        for _ in range(draw(st.integers(min_value=0, max_value=8))):
            kind = draw(st.sampled_from(["winner", "loser", "both", "others"]))
            if kind == "winner":
                a, b, winner_is_a = WINNER, draw(others), True
            elif kind == "loser":
                a, b, winner_is_a = LOSER, draw(others), False
            elif kind == "both":
                a, b, winner_is_a = WINNER, LOSER, True
            else:
                a, b = draw(st.lists(others, min_size=2, max_size=2, unique=True))
                winner_is_a = draw(st.booleans())
            if draw(st.booleans()):
                a, b, winner_is_a = b, a, not winner_is_a
            matches.append(RatedMatch(a, b, "A" if winner_is_a else "B"))
        periods.append(RatingPeriod(event, tuple(matches)))
    return periods


@settings(max_examples=300, deadline=None)
@given(seasons())
def test_who_wins_every_match_never_ends_below_who_loses_every_match(periods):
    rows = {row.player: row for row in rate_periods(periods).players}
    if WINNER in rows and LOSER in rows:
        assert rows[WINNER].rating >= rows[LOSER].rating
    if WINNER in rows:
        assert rows[WINNER].lost == 0 and rows[WINNER].rating >= glicko2.INITIAL_RATING
    if LOSER in rows:
        assert rows[LOSER].won == 0 and rows[LOSER].rating <= glicko2.INITIAL_RATING


@settings(max_examples=100, deadline=None)
@given(seasons())
def test_rating_twice_gives_identical_ratings(periods):
    assert rate_periods(periods) == rate_periods(list(periods))
