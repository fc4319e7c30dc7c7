"""Swiss pairings (formats.swiss.pairing): Hypothesis properties checked against a brute
force over every possible pairing of small fields, and examples worked out by hand."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from formats.swiss.pairing import (
    RoundPairing,
    SwissPlayer,
    first_dealer_of,
    pair_round,
    ranking_order,
    round_cost,
    solve_networkx,
    suggested_rounds,
)

BYE = "bye"


def all_pairings(nodes):
    """Every perfect matching of `nodes` (a list), as lists of 2-tuples."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for index, other in enumerate(rest):
        for tail in all_pairings(rest[:index] + rest[index + 1:]):
            yield [(first, other), *tail]


def costs(players, pairs):
    """(second byes, rematches, bye receiver's score, pairs of players two or more off
    first-deal balance the same way) of one pairing (BYE for the bye)."""
    by_id = {player.id: player for player in players}
    second_byes = rematches = bye_score = absolute = 0
    for a, b in pairs:
        if BYE in (a, b):
            taker = by_id[b if a == BYE else a]
            second_byes += taker.byes > 0
            bye_score = taker.score
            continue
        rematches += b in by_id[a].opponents
        balance_a, balance_b = by_id[a].dealer_balance, by_id[b].dealer_balance
        absolute += balance_a * balance_b > 0 and min(abs(balance_a), abs(balance_b)) >= 2
    return second_byes, rematches, bye_score, absolute


@st.composite
def fields(draw, least=2, most=9):
    """A field before some round: scores, who met whom (symmetric), byes, first deals."""
    count = draw(st.integers(least, most))
    ids = list(range(1, count + 1))
    met = {player: set() for player in ids}
    for a in ids:
        for b in ids:
            if a < b and draw(st.booleans()):
                met[a].add(b)
                met[b].add(a)
    players = []
    for player in ids:
        first = draw(st.integers(0, 3))
        second = draw(st.integers(max(0, first - 2), first + 2))
        players.append(SwissPlayer(
            id=player, number=player, score=draw(st.integers(0, 4)),
            opponents=frozenset(met[player]), byes=draw(st.integers(0, 1)),
            dealt_first=first, dealt_second=second,
            last_dealt_first=draw(st.sampled_from([None, True, False])),
        ))
    return players


def chosen_pairs(pairing):
    pairs = [tuple(pair) for pair in pairing.pairs]
    return pairs + ([(pairing.bye, BYE)] if pairing.bye is not None else [])


@settings(max_examples=150, deadline=None)
@given(fields())
def test_every_player_once_and_the_bye_only_when_odd(players):
    pairing = pair_round(players)
    seen = [player for pair in pairing.pairs for player in pair]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    assert sorted(seen) == sorted(player.id for player in players)
    assert (pairing.bye is not None) == (len(players) % 2 == 1)


@settings(max_examples=150, deadline=None)
@given(fields(most=8))
def test_no_rematch_and_no_second_bye_while_avoidable_and_the_bye_to_the_lowest_group(players):
    """Brute force: no pairing has fewer second byes; none with as few has fewer rematches;
    none with as few of both gives the bye to a lower score; none with all that the same
    pairs fewer players who are both two off first-deal balance the same way."""
    nodes = [player.id for player in players] + ([BYE] if len(players) % 2 else [])
    best = min(costs(players, pairs) for pairs in all_pairings(nodes))
    assert costs(players, chosen_pairs(pair_round(players))) == best


@settings(max_examples=150, deadline=None)
@given(fields())
def test_first_dealer_keeps_the_balance_within_one_where_possible(players):
    """In each pair, whoever deals first gains +1 and the other -1; the chosen seats never
    leave a player further from balance than the other way round would, and both stay
    within one unless the two were off the same way already."""
    by_id = {player.id: player for player in players}
    for first, second in pair_round(players).pairs:
        a, b = by_id[first], by_id[second]
        chosen = max(abs(a.dealer_balance + 1), abs(b.dealer_balance - 1))
        swapped = max(abs(b.dealer_balance + 1), abs(a.dealer_balance - 1))
        assert chosen <= swapped
        if abs(a.dealer_balance) <= 1 and abs(b.dealer_balance) <= 1 and not (
            a.dealer_balance == b.dealer_balance != 0
        ):
            assert chosen <= 1


@settings(max_examples=120, deadline=None)
@given(fields(least=2, most=16))
def test_the_fast_solver_pairs_at_the_same_cost_as_networkx(players):
    """rustworkx (the default) and networkx's pure-Python blossom solve the same graph: their
    pairings may differ between equal choices, never in cost, level by level."""
    fast, reference = pair_round(players), pair_round(players, solve=solve_networkx)
    assert round_cost(players, fast) == round_cost(players, reference)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 24), st.integers(0, 2**32))
def test_the_fast_solver_matches_networkx_round_by_round_of_a_whole_event(count, seed):
    """Fields as events make them (score groups, few rematches left late): every round, the
    default solver's pairing costs what networkx's does."""
    rng = random.Random(seed)
    for players in fields_of_an_event(count, suggested_rounds(count) + 1, rng):
        reference = pair_round(players, solve=solve_networkx)
        assert round_cost(players, pair_round(players)) == round_cost(players, reference)


def test_round_cost_sums_each_level_over_the_pairs_and_the_bye():
    # Nine fresh players: one score group, half = 9 // 2 = 4. 1-5, 2-6, 3-7, 4-8 are 4 apart
    # (shape 0 each) and 9, the last, takes the bye (8 - position 8 = 0): cost nothing.
    players = [SwissPlayer(n, n) for n in range(1, 10)]
    best = RoundPairing(pairs=((1, 5), (6, 2), (3, 7), (8, 4)), bye=9)
    assert round_cost(players, best) == (0, 0, 0, 0, 0, 0, 0)
    # 2-3, 4-5, 6-7, 8-9 are 1 apart (shape |1 - 4| = 3 each, 12) and 1 takes the bye
    # (8 - position 0 = 8): 20 on the last level.
    worse = RoundPairing(pairs=((2, 3), (4, 5), (6, 7), (8, 9)), bye=1)
    assert round_cost(players, worse) == (0, 0, 0, 0, 0, 0, 20)
    # Had 1 met 5 already, the first pairing would hold one rematch.
    met = [SwissPlayer(n, n, opponents=frozenset({6 - n}) if n in (1, 5) else frozenset())
           for n in range(1, 10)]
    assert round_cost(met, best) == (0, 1, 0, 0, 0, 0, 0)


def fields_of_an_event(count, rounds, rng):
    """The field before each round of an event paired by `pair_round`, random winners."""
    state = {
        player: dict(score=0, opponents=set(), byes=0, first=0, second=0, last=None)
        for player in range(1, count + 1)
    }
    for _ in range(rounds):
        players = field_of(state)
        yield players
        play_round(state, pair_round(players), rng)


def field_of(state):
    """The SwissPlayer of each player of `state` ({id: their record so far})."""
    return [
        SwissPlayer(player, player, s["score"], frozenset(s["opponents"]), s["byes"],
                    s["first"], s["second"], s["last"])
        for player, s in state.items()
    ]


def play_round(state, pairing, rng):
    """Record `pairing` in `state` with random winners (a bye scores a win)."""
    for first, second in pairing.pairs:
        state[first]["opponents"].add(second)
        state[second]["opponents"].add(first)
        state[first]["first"] += 1
        state[second]["second"] += 1
        state[first]["last"], state[second]["last"] = True, False
        state[rng.choice((first, second))]["score"] += 1
    if pairing.bye is not None:
        state[pairing.bye]["byes"] += 1
        state[pairing.bye]["score"] += 1


def play_event(count, rounds, seed):
    """A whole event by `pair_round`: random winners; returns the pairings round by round."""
    rng = random.Random(seed)
    state = {
        player: dict(score=0, opponents=set(), byes=0, first=0, second=0, last=None)
        for player in range(1, count + 1)
    }
    history = []
    for _ in range(rounds):
        players = field_of(state)
        pairing = pair_round(players)
        history.append(pairing)
        play_round(state, pairing, rng)
    return history, state


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 16), st.integers(0, 2**32))
def test_a_whole_event_has_no_second_bye_and_balanced_first_deals(count, seed):
    """⌈log₂ n⌉ + 1 rounds (fewer than n): nobody has two byes, and nobody dealt first two
    more times than second, or the other way. (Rematches: a round paired one at a time may
    be unable to avoid one late in a small field; each round avoids it when it can, above.)"""
    rounds = min(suggested_rounds(count), count - 1)
    history, state = play_event(count, rounds, seed)
    byes = [pairing.bye for pairing in history if pairing.bye is not None]
    assert len(byes) == len(set(byes))
    assert all(abs(s["first"] - s["second"]) <= 2 for s in state.values())


@settings(max_examples=40, deadline=None)
@given(st.integers(9, 24), st.integers(0, 2**32))
def test_a_field_of_nine_or_more_meets_nobody_twice_in_log2_plus_one_rounds(count, seed):
    history, _ = play_event(count, suggested_rounds(count), seed)
    met = [frozenset(pair) for pairing in history for pair in pairing.pairs]
    assert len(met) == len(set(met))


def test_round_one_of_nine_top_half_meets_bottom_half_and_nine_rests():
    # Nine players, all on 0: S1 = 1..4, S2 = 5..8 (FIDE Dutch: 1-5, 2-6, 3-7, 4-8), and
    # the lowest-ranked, 9, has the bye. Seats: higher-ranked deals first on odd tables.
    pairing = pair_round([SwissPlayer(n, n) for n in range(1, 10)])
    assert pairing.pairs == ((1, 5), (6, 2), (3, 7), (8, 4))
    assert pairing.bye == 9


def test_round_two_pairs_score_groups_and_avoids_the_rematch():
    # After 1-5 (1 won), 2-6 (6 won), 3-7 (3 won), 4-8 (8 won), bye 9 (a win):
    # on 1 point: 1, 3, 6, 8, 9 (five: one floats down); on 0: 2, 4, 5, 7.
    # The bye goes to the lowest group: 7 (the lowest-ranked there, no bye yet).
    won = {1, 3, 6, 8, 9}
    opponents = {1: 5, 5: 1, 2: 6, 6: 2, 3: 7, 7: 3, 4: 8, 8: 4}
    first = {1, 6, 3, 8}
    players = [
        SwissPlayer(n, n, score=int(n in won),
                    opponents=frozenset({opponents[n]}) if n in opponents else frozenset(),
                    byes=int(n == 9), dealt_first=int(n in first),
                    dealt_second=int(n in opponents and n not in first),
                    last_dealt_first=(n in first) if n in opponents else None)
        for n in range(1, 10)
    ]
    pairing = pair_round(players)
    assert pairing.bye == 7
    pairs = [frozenset(pair) for pair in pairing.pairs]
    # 1 point: 1, 3, 6, 8, 9 -> four of them pair inside, one meets the 0-point group.
    one_point = {1, 3, 6, 8, 9}
    inside = [pair for pair in pairs if pair <= one_point]
    assert len(inside) == 2
    assert not any(frozenset((a, opponents[a])) in pairs for a in opponents)


def test_first_dealer_by_balance_then_last_match_then_table():
    even = SwissPlayer("x", 1, dealt_first=1, dealt_second=1, last_dealt_first=True)
    behind = SwissPlayer("y", 2, dealt_first=0, dealt_second=2, last_dealt_first=False)
    assert first_dealer_of(even, behind, table=1) == ("y", "x")
    fresh = SwissPlayer("z", 3, dealt_first=1, dealt_second=1, last_dealt_first=False)
    assert first_dealer_of(even, fresh, table=1) == ("z", "x")
    a, b = SwissPlayer("a", 1), SwissPlayer("b", 2)
    assert first_dealer_of(a, b, table=1) == ("a", "b")
    assert first_dealer_of(a, b, table=2) == ("b", "a")


def test_suggested_rounds_is_log2_plus_one():
    # 9 players: log2 9 = 3.17 -> 4, + 1 = 5; 8: 3 + 1 = 4; 2: 1 + 1 = 2.
    assert [suggested_rounds(n) for n in (2, 8, 9, 16, 17)] == [2, 4, 5, 5, 6]


def test_ranking_is_score_then_number():
    players = [SwissPlayer(1, 1, score=0), SwissPlayer(2, 2, score=1), SwissPlayer(3, 3, 1)]
    assert [p.id for p in ranking_order(players)] == [2, 3, 1]
