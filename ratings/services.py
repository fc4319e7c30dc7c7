"""Storing the players' ratings (writes go through services).

The ratings are never updated piecemeal: `player_ratings_recompute` rebuilds them from the
whole record (`selectors.rating_periods` → `ratings.rate_periods`) and replaces the stored
rows in one transaction, so a correction of an old match, a forfeit or an event made private
is reflected by the next run, and two runs over the same record store the same figures.
The Celery task `recompute_ratings` (below) is its adapter, started by
`ratings_recompute_on_commit` whenever an event's results are settled: a tournament becomes
finished, or a result of a finished one changes (`services.tournament_status_update`), a club
night is closed or one of its matches ends after it was (`formats.club_night.services`), an
imported event is finished (`exchange.importing`).
"""

import logging

from celery import shared_task
from django.db import connection, transaction
from django.utils import timezone

from events.versions import bump_matches
from ratings import selectors
from ratings.models import PlayerRating, RatingHistory
from ratings.periods import Ratings, rate_periods
from scoring.models import Match

logger = logging.getLogger(__name__)

LOCK_KEY = 0x66_5241_5445
"""PostgreSQL advisory-lock key (any fixed number) that serialises two recomputations."""


def ratings_compute() -> Ratings:
    """The ratings the record gives now (`ratings.periods.rate_periods` over
    `selectors.rating_periods()`), without storing them: rating points, best first."""
    return rate_periods(selectors.rating_periods())


def _serialise_recomputations() -> None:
    """Two recomputations at once would each delete the rows and insert their own, and the
    second insert would meet the first's rows. PostgreSQL: a transaction-scoped advisory lock
    makes the second wait. SQLite transactions are IMMEDIATE (config.settings): writers already
    queue."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


@transaction.atomic
def player_ratings_recompute(*, computed_at=None) -> int:
    """Recompute every player's rating from the record and store it: replaces all
    `PlayerRating` and `RatingHistory` rows in one transaction. `computed_at` (an aware
    datetime; default now) is stamped on every row. Returns the number of players rated.

    Raises nothing for an empty record (no rows then). Source: Glickman, "Example of the
    Glicko-2 system" (2013), through `ratings.glicko2`.
    """
    _serialise_recomputations()
    computed_at = computed_at or timezone.now()
    ratings = ratings_compute()
    RatingHistory.objects.all().delete()
    PlayerRating.objects.all().delete()
    PlayerRating.objects.bulk_create([
        PlayerRating(
            player_id=row.player, rating=row.rating, deviation=row.deviation,
            volatility=row.volatility, matches=row.matches, won=row.won, lost=row.lost,
            computed_at=computed_at,
        )
        for row in ratings.players
    ])
    RatingHistory.objects.bulk_create([
        RatingHistory(
            player_id=point.player, tournament_id=point.event, rating=point.rating,
            deviation=point.deviation, volatility=point.volatility, matches=point.matches,
        )
        for point in ratings.history
    ])
    # The unfinished matches' pages show each player's chance from these ratings.
    bump_matches(Match.objects.exclude(status__in=Match.OVER))
    return len(ratings.players)


def ratings_recompute_on_commit() -> None:
    """Start the Celery task `recompute_ratings` once the current transaction
    commits (never inside it: a worker could not see the new results yet), or at once
    outside any transaction. Nothing is started if the transaction rolls back. Without a broker
    the task runs eagerly, in the request, after the commit.

    A recomputation that cannot be started or fails is logged, never raised: the results are
    already saved, and the next recomputation (or the `ratings` command) catches up.
    """
    transaction.on_commit(_start_recompute, robust=True)


def _start_recompute() -> None:
    try:
        recompute_ratings.delay()
    except Exception:
        logger.exception("Could not recompute the ratings")


@shared_task
def recompute_ratings() -> int:
    """Recompute and store every player's rating from the record
    (`player_ratings_recompute`); return the number of players rated.

    Started after the commit whenever an event's results are settled
    (`ratings_recompute_on_commit`); may also run from a schedule. Safe to run twice at once
    (the second waits). `ratings/tasks.py` imports it for Celery's autodiscovery.
    """
    return player_ratings_recompute()
