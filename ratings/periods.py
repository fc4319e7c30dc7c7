"""Player ratings over every event, from plain match results (Glicko-2). Pure: no Django.

A rating period is one event (a tournament or a club night); the periods come in date order
(`ratings.selectors.rating_periods` decides which matches count: finished matches of public
events; forfeits and walkovers never). In each period every player who played is rated by
`ratings.glicko2.rate` against their opponents' ratings at the start of the period (the
paper's rule: a period's games are simultaneous), and every player rated before who did not
play gets the paper's step 6 (`glicko2.rate_absent`: the deviation grows, capped at a
newcomer's `glicko2.INITIAL_DEVIATION`, a house choice so that an absent player is never less
known than one never seen). Players enter the system with their first match.

A player with fewer than `PROVISIONAL_MATCHES` rated matches is provisional, and shown so.

Deterministic: periods are taken in the order given, players within a period by id, sums are
exactly rounded (`math.fsum`), and the output is sorted on explicit keys; the same record gives
the same ratings to the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ratings import glicko2

PROVISIONAL_MATCHES = 10
"""Rated matches a player needs before their rating is established (fewer: provisional)."""
MAX_DEVIATION = glicko2.INITIAL_DEVIATION
"""The most an absent player's deviation grows to, in rating points (step 6, capped)."""


@dataclass(frozen=True)
class RatedMatch:
    """A finished match between two players (ids: ints) and its winner's seat."""

    player_a: int
    player_b: int
    winner: Literal["A", "B"]


@dataclass(frozen=True)
class RatingPeriod:
    """The matches of one event (`event`: the tournament's id), in any order."""

    event: int
    matches: tuple[RatedMatch, ...]


@dataclass(frozen=True)
class RatedPlayer:
    """A player's rating after the last period: `rating` and `deviation` in rating points,
    `volatility` sigma; `matches`, `won`, `lost` count rated matches."""

    player: int
    rating: float
    deviation: float
    volatility: float
    matches: int
    won: int
    lost: int

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


@dataclass(frozen=True)
class RatingAfterEvent:
    """`player`'s rating (rating points) and deviation at the end of `event`, in which they
    played; `matches` counts their rated matches up to and including it."""

    player: int
    event: int
    rating: float
    deviation: float
    volatility: float
    matches: int


@dataclass(frozen=True)
class Ratings:
    """Everyone rated, best first (rating, then lower deviation, then id), and each player's
    rating after each event they played, in period order (players by id within one)."""

    players: tuple[RatedPlayer, ...]
    history: tuple[RatingAfterEvent, ...]


@dataclass
class _Tally:
    rating: glicko2.Rating
    matches: int = 0
    won: int = 0
    lost: int = 0


def rate_periods(periods: Iterable[RatingPeriod]) -> Ratings:
    """Rate every player of `periods` (oldest first) with Glicko-2, starting everyone at
    `glicko2.Rating()` (1500 rating points, deviation 350, volatility 0.06).

    Returns `Ratings`. Raises `ValueError` for a match of a player against themselves or a
    winner other than "A" or "B" (the record's constraints forbid both).
    Source: Glickman, "Example of the Glicko-2 system" (2013), steps 1-8 per period.
    """
    tallies: dict[int, _Tally] = {}
    history: list[RatingAfterEvent] = []
    for period in periods:
        games: dict[int, list[tuple[int, float]]] = {}
        for match in period.matches:
            if match.player_a == match.player_b or match.winner not in ("A", "B"):
                raise ValueError(f"Not a match that can be rated: {match}.")
            score_a = 1.0 if match.winner == "A" else 0.0
            games.setdefault(match.player_a, []).append((match.player_b, score_a))
            games.setdefault(match.player_b, []).append((match.player_a, 1.0 - score_a))
        for player in games:
            tallies.setdefault(player, _Tally(glicko2.Rating()))
        before = {player: tally.rating for player, tally in tallies.items()}
        for player in sorted(tallies):
            tally = tallies[player]
            played = games.get(player)
            if not played:
                tally.rating = glicko2.rate_absent(tally.rating, max_deviation=MAX_DEVIATION)
                continue
            tally.rating = glicko2.rate(
                tally.rating,
                [glicko2.Result(before[opponent], score) for opponent, score in played],
            )
            tally.matches += len(played)
            tally.won += sum(1 for _opponent, score in played if score == 1)
            tally.lost += sum(1 for _opponent, score in played if score == 0)
            history.append(RatingAfterEvent(
                player, period.event, tally.rating.rating, tally.rating.deviation,
                tally.rating.volatility, tally.matches,
            ))
    rows = [
        RatedPlayer(player, t.rating.rating, t.rating.deviation, t.rating.volatility,
                     t.matches, t.won, t.lost)
        for player, t in tallies.items()
    ]
    rows.sort(key=lambda row: (-row.rating, row.deviation, row.player))
    return Ratings(tuple(rows), tuple(history))


def win_chance(player: glicko2.Rating, opponent: glicko2.Rating) -> float:
    """`player`'s expected chance (0..1) to beat `opponent` before they meet: the paper's
    step 3 function E on the Glicko-2 scale, with the deviations of both players combined,
    E(mu, mu_j, sqrt(phi^2 + phi_j^2)): both ratings are uncertain, so g takes the combined
    deviation, as Glickman's "The Glicko system" (1995) does for the expected outcome of a game
    between two rated players. Ratings and deviations in rating points; the volatilities play
    no part.

    The two players' chances add up to 1. Equal ratings: 0.5 whatever the deviations.
    """
    mu = (player.rating - glicko2.INITIAL_RATING) / glicko2.SCALE
    mu_j = (opponent.rating - glicko2.INITIAL_RATING) / glicko2.SCALE
    phi = math.hypot(player.deviation, opponent.deviation) / glicko2.SCALE
    return glicko2.expected_score(mu, mu_j, phi)


@dataclass(frozen=True)
class SeedCandidate:
    """A player to be seeded by rating: `key` (the caller's id, e.g. an entry's), `name`,
    and `rating` and `deviation` in rating points, both None for a player never rated."""

    key: int
    name: str
    rating: float | None = None
    deviation: float | None = None


def seed_order(candidates: Iterable[SeedCandidate]) -> list[int]:
    """The keys of `candidates` as seeds 1, 2, ...: the rated players first, by rating (highest
    first), equal ratings by deviation (the better known first), then by name; the unrated
    after them, by name. Names compare case-insensitively (`str.casefold`); the key settles
    two equal names."""
    candidates = list(candidates)
    rated = sorted(
        (c for c in candidates if c.rating is not None),
        key=lambda c: (-c.rating, c.deviation, c.name.casefold(), c.key),
    )
    keys = {c.key for c in rated}
    unrated = sorted(
        (c for c in candidates if c.key not in keys), key=lambda c: (c.name.casefold(), c.key)
    )
    return [c.key for c in rated + unrated]
