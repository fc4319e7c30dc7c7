"""Swiss standings with FIDE's tie-breaks (Handbook C.07), in one published order.

Pure: no Django. Players are any hashable ids; games and byes are plain values.

Order: score first (a win 1 point, a loss 0, a bye 1 or 0 by the event's setting), then each
tie-break of `SWISS_TIE_BREAKS`, applied once, in turn, to the players still level after the
ones before it; then the lot drawn at the start (lower first).

Unplayed rounds (C.07 Article 16): a bye, a forfeit (won or lost) and a round in which a
player was not paired (a late entry's first rounds, a withdrawn player's last ones) are
unplayed rounds.

- In an opponent's score as it counts for Buchholz and Sonneborn–Berger (the *adjusted*
  score), each of the opponent's unplayed rounds counts as a draw: ½ point.
- A player's own unplayed round counts as a game against a virtual opponent whose score is
  the player's own score; it scores for Sonneborn–Berger only what the player scored in
  that round (a bye or forfeit win: 1 × own score).
- Buchholz cut 1 and median Buchholz cut unplayed rounds first.

Santase has no draws: a player's real score is whole; only adjusted scores have halves.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from standings.tie_breaks import break_ties, meeting_index, ranked, split_by

BUCHHOLZ = "buchholz"
BUCHHOLZ_CUT_1 = "buchholz_cut_1"
MEDIAN_BUCHHOLZ = "median_buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
PROGRESSIVE_SCORE = "progressive_score"
DIRECT_ENCOUNTER = "direct_encounter"
GAME_POINT_DIFFERENCE = "game_point_difference"

SWISS_TIE_BREAKS: tuple[str, ...] = (
    BUCHHOLZ, BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER, PROGRESSIVE_SCORE,
    DIRECT_ENCOUNTER, GAME_POINT_DIFFERENCE,
)
"""The published order of a Swiss's tie-breaks (docs/formats.md "Swiss"), after the score."""


@dataclass(frozen=True)
class SwissGame:
    """A decided match of round `round`, in game points; `forfeit`: won without play."""

    round: int
    player_a: Hashable
    player_b: Hashable
    winner: Literal["A", "B"]
    game_points_a: int = 0
    game_points_b: int = 0
    forfeit: bool = False


class _Round(NamedTuple):
    opponent: Hashable | None
    points: int
    played: bool


_NOT_PAIRED = _Round(None, 0, False)


@dataclass
class SwissStanding:
    """One player's line: `score` in points (byes included as scored), `byes` had,
    `tie_breaks` one value per name of `SWISS_TIE_BREAKS` (Buchholz values in points, with
    halves; `direct_encounter` None where it was not applied)."""

    player: Hashable
    rank: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    byes: int = 0
    score: int = 0
    game_points_for: int = 0
    game_points_against: int = 0
    tie_breaks: dict[str, float | int | None] = field(default_factory=dict)

    @property
    def game_point_difference(self) -> int:
        return self.game_points_for - self.game_points_against


def swiss_standings(
    players: Iterable[Hashable],
    games: Iterable[SwissGame],
    byes: Iterable[tuple[int, Hashable]] = (),
    *,
    completed_rounds: int = 0,
    bye_points: int = 1,
    lots: Mapping[Hashable, int] | None = None,
) -> list[SwissStanding]:
    """Rank `players` by score, then `SWISS_TIE_BREAKS` in order, then `lots`.

    `games`: the decided matches; `byes`: (round, player) pairs; `bye_points`: what a bye
    scores (1, the default, or 0); `completed_rounds`: rounds 1..N are over, so a player with
    neither a game nor a bye in one of them was not paired (an unplayed round, 0 points).
    Raises `ValueError` for a game or bye naming an unknown player, or a player twice in one
    round.
    """
    lots = lots or {}
    players = list(players)
    rounds: dict[Hashable, dict[int, _Round]] = {player: {} for player in players}
    rows = {player: SwissStanding(player) for player in players}
    games = list(games)

    def record(player, number, entry):
        if player not in rounds:
            raise ValueError(f"Unknown player: {player!r}")
        if number in rounds[player]:
            raise ValueError(f"{player!r} twice in round {number}")
        rounds[player][number] = entry

    for game in games:
        winner_a = game.winner == "A"
        record(game.player_a, game.round, _Round(game.player_b, int(winner_a), not game.forfeit))
        record(game.player_b, game.round, _Round(game.player_a, int(not winner_a),
                                                 not game.forfeit))
        for player, scored, conceded, won in (
            (game.player_a, game.game_points_a, game.game_points_b, winner_a),
            (game.player_b, game.game_points_b, game.game_points_a, not winner_a),
        ):
            row = rows[player]
            row.played += 1
            row.won += won
            row.lost += not won
            row.game_points_for += scored
            row.game_points_against += conceded
    for number, player in byes:
        record(player, number, _Round(None, bye_points, False))
        rows[player].byes += 1

    last = {player: max([completed_rounds, *rounds[player]]) for player in players}
    for player in players:
        for number in range(1, last[player] + 1):
            rounds[player].setdefault(number, _NOT_PAIRED)
        rows[player].score = sum(entry.points for entry in rounds[player].values())

    def adjusted(player) -> float:
        return sum(entry.points if entry.played else 0.5 for entry in rounds[player].values())

    adjusted_score = {player: adjusted(player) for player in players}

    for player in players:
        row, own = rows[player], rows[player].score
        played, unplayed, berger = [], [], 0.0
        for entry in rounds[player].values():
            if entry.played:
                played.append(adjusted_score[entry.opponent])
                berger += entry.points * adjusted_score[entry.opponent]
            else:
                unplayed.append(own)
                berger += entry.points * own
        berger = float(berger)
        values = {
            BUCHHOLZ: float(sum(played) + sum(unplayed)),
            BUCHHOLZ_CUT_1: _cut(played, unplayed, low=1, high=0),
            MEDIAN_BUCHHOLZ: _cut(played, unplayed, low=1, high=1),
            SONNEBORN_BERGER: berger,
            PROGRESSIVE_SCORE: _progressive(rounds[player]),
            DIRECT_ENCOUNTER: None,
            GAME_POINT_DIFFERENCE: row.game_point_difference,
        }
        row.tie_breaks = {name: values[name] for name in SWISS_TIE_BREAKS}

    groups = split_by([players], lambda p: rows[p].score)
    meetings = meeting_index((game.player_a, game.player_b,
                              game.player_a if game.winner == "A" else game.player_b)
                             for game in games)
    groups = break_ties(groups, SWISS_TIE_BREAKS,
                        lambda name: lambda p: rows[p].tie_breaks[name],
                        encounter=DIRECT_ENCOUNTER, meetings=meetings)
    for player, wins in groups.encounter_values.items():
        rows[player].tie_breaks[DIRECT_ENCOUNTER] = wins
    groups = split_by(groups, lambda p: -lots[p] if p in lots else float("-inf"))
    return ranked(groups, rows)


def _cut(played: list[float], unplayed: list[float], *, low: int, high: int) -> float:
    """Buchholz without its `low` least and `high` most significant values; the unplayed
    rounds' values are the first low ones cut (C.07 Article 16)."""
    unplayed_sorted = sorted(unplayed)
    cut_unplayed = unplayed_sorted[:low]
    rest = sorted(played + unplayed_sorted[low:])
    rest = rest[low - len(cut_unplayed):]
    if high:
        rest = rest[:-high] if len(rest) > high else []
    return float(sum(rest))


def _progressive(rounds: Mapping[int, _Round]) -> int:
    """The sum of the running score after each round (cumulative score)."""
    total = running = 0
    for number in sorted(rounds):
        running += rounds[number].points
        total += running
    return total
