"""Reads of the ratings: the rating periods from the record, a player's rating and its
history, and each player's chance before a match."""

import math
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter

from club.models import Player
from events.models import Tournament
from ratings.glicko2 import INITIAL_RATING, Rating
from ratings.models import PlayerRating, RatingHistory
from ratings.periods import PROVISIONAL_MATCHES, RatedMatch, RatingPeriod, win_chance
from scoring.models import Match, Seat


def rating_periods() -> list[RatingPeriod]:
    """The input of `ratings.periods.rate_periods`: one period per public event (tournament
    or club night) with at least one rated match, oldest first (by date, then id), each with
    its finished matches by id. Forfeited matches (and walkovers, which have no match) are not
    rated; neither are private events. Player ids. One query."""
    rows = (
        Match.objects.filter(
            status=Match.Status.FINISHED, winner__in=[Seat.A, Seat.B],
            pairing__round__tournament__is_public=True,
        )
        .order_by("pairing__round__tournament__date", "pairing__round__tournament_id", "pk")
        .values_list("pairing__round__tournament_id", "player_a_id", "player_b_id", "winner")
    )
    return [
        RatingPeriod(event, tuple(RatedMatch(a, b, winner) for _event, a, b, winner in group))
        for event, group in groupby(rows, key=itemgetter(0))
    ]


def rating_points(player: Player) -> list[RatingHistory]:
    """The player's stored ratings after each event they played (`RatingHistory`, rebuilt by
    `rating_services.player_ratings_recompute`: public events only), oldest first, each with
    its tournament. One query."""
    return list(
        RatingHistory.objects.filter(player=player).select_related("tournament")
        .order_by("tournament__date", "tournament_id")
    )


def ratings_of(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """The stored ratings (`PlayerRating`) of these players, by player id; a player never
    rated is missing. One query."""
    return {
        rating.player_id: rating
        for rating in PlayerRating.objects.filter(player_id__in=list(player_ids))
    }


def _whole(value: float) -> int:
    """`value` rounded half up, as the templates' `floatformat` shows it."""
    return math.floor(value + 0.5)


@dataclass(frozen=True)
class RatingStep:
    """A player's rating after one event they played: `rating` and `deviation` in rating
    points; `change` since the event before (since the newcomer's 1500 for the first), in
    whole rating points, the difference of the two ratings as shown (rounded)."""

    tournament: Tournament
    rating: float
    deviation: float
    change: int


@dataclass(frozen=True)
class PlayerRatingRecord:
    """A player's stored rating (None: never rated) and their rating after each event they
    played, newest first."""

    rating: PlayerRating | None
    steps: list[RatingStep]
    provisional_matches: int = PROVISIONAL_MATCHES
    """Rated matches needed for an established rating (`ratings.periods`)."""

    @property
    def margin(self) -> float:
        """Two deviations, in rating points: the true strength lies within the rating ± this
        with about 95 % probability."""
        return 2 * self.rating.deviation

    @property
    def low(self) -> float:
        return self.rating.rating - self.margin

    @property
    def high(self) -> float:
        return self.rating.rating + self.margin


def player_rating(player: Player) -> PlayerRatingRecord:
    """`player`'s rating and its history (`RatingHistory`, in the order the ratings were
    computed: by event date, then id). Ratings come from public events only, so anyone may
    see them. Two queries."""
    rating = PlayerRating.objects.filter(player=player).first()
    steps, before = [], INITIAL_RATING
    for point in RatingHistory.objects.filter(player=player).select_related("tournament"):
        steps.append(RatingStep(point.tournament, point.rating, point.deviation,
                                _whole(point.rating) - _whole(before)))
        before = point.rating
    return PlayerRatingRecord(rating, steps[::-1])


@dataclass(frozen=True)
class MatchChances:
    """Each seat's expected chance to win, in whole percent (`a` + `b` = 100); `provisional`:
    at least one of the two ratings is provisional."""

    a: int
    b: int
    provisional: bool


def match_chances(match: Match) -> MatchChances | None:
    """Before `match` is over, each player's chance to win it from the stored ratings
    (`ratings.periods.win_chance`); None once it is over or if either player has no
    rating yet. One query."""
    if match.is_over:
        return None
    ratings = ratings_of([match.player_a_id, match.player_b_id])
    if len(ratings) < 2:
        return None
    rating_a, rating_b = ratings[match.player_a_id], ratings[match.player_b_id]
    chance = win_chance(Rating(rating_a.rating, rating_a.deviation),
                        Rating(rating_b.rating, rating_b.deviation))
    a = _whole(100 * chance)
    return MatchChances(a, 100 - a, rating_a.provisional or rating_b.provisional)
