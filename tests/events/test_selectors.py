"""Reads several pages share (`events.selectors`)."""

import random

import pytest

from events import selectors as events_selectors
from events import services
from events.models import Pairing
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db


def deal(match: Match, points: int) -> None:
    reason = {1: "won", 2: "schneider", 3: "capot"}[points]
    scoring_services.deal_record(match=match, score=rules.quick_result("A", points, reason),
                                 by=None)


def test_matches_in_play_are_the_started_matches_not_over(tournament, organiser):
    """Five players: ten matches. One with a deal (in play), one won 12:0 (over), one
    forfeited by a withdrawal (over), the rest not started: one match in play."""
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    matches = [p.match for p in Pairing.objects.filter(
        round__tournament=tournament, match__isnull=False
    ).select_related("match").order_by("round__number", "table")]
    assert len(matches) == 10
    deal(matches[0], 2)
    for points in (3, 3, 3, 3):
        deal(matches[1], points)
    forfeited = next(m for m in matches[2:] if not {m.player_a_id, m.player_b_id} & {
        matches[0].player_a_id, matches[0].player_b_id,
    })
    scoring_services.match_forfeit(match=forfeited, winner="A", by=organiser)

    in_play = events_selectors.matches_in_play(tournament)

    assert list(in_play) == [matches[0]]
    assert in_play.count() == 1


def test_counted_rounds_are_the_decided_results_by_round_as_plain_tuples(tournament, organiser):
    """Five players, one round robin: round 1's two matches decided (one won 12:0 by four
    capots, one forfeited: the game target, 11, to 0), round 2 none, round 3 one won 12:0,
    round 4 one in play (a deal). `rounds` ends at round 3, round 2 empty; the forfeit is 1
    (True as a `MatchResult`)."""
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    pairings = list(Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
                    .select_related("match", "round").order_by("round__number", "table"))
    by_round = {number: [p for p in pairings if p.round.number == number] for number in (1, 3, 4)}
    won, forfeited = by_round[1]
    for points in (3, 3, 3, 3):
        deal(won.match, points)
        deal(by_round[3][0].match, points)
    scoring_services.match_forfeit(match=forfeited.match, winner="A", by=organiser)
    deal(by_round[4][0].match, 2)

    entries, rounds, cancelled = standings_selectors.counted_rounds(tournament)

    assert [entry.number for entry in entries] == [1, 2, 3, 4, 5]
    assert cancelled == set()
    later = by_round[3][0]
    assert rounds == [
        [(won.entry_a_id, won.entry_b_id, 12, 0, "A", 0),
         (forfeited.entry_a_id, forfeited.entry_b_id, 11, 0, "A", 1)],
        [],
        [(later.entry_a_id, later.entry_b_id, 12, 0, "A", 0)],
    ]
    results = standings_selectors.match_results(rounds)
    assert [result.forfeit for result in results] == [False, True, False]
