"""Reads several pages share (`tournaments.selectors`)."""

import random

import pytest

from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tournaments import selectors, services
from tournaments.models import Pairing

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

    in_play = selectors.matches_in_play(tournament)

    assert list(in_play) == [matches[0]]
    assert in_play.count() == 1
