"""Swiss standings with FIDE's tie-breaks (Handbook C.07), in one published order.

Pure: no Django. Players are any hashable ids; games and byes are plain values.

Order: score first (a win 1 point, a loss 0, a bye 1 or 0 by the event's setting), then each
tie-break of `SWISS_TIE_BREAKS`, applied once, in turn, to the players still level after the
ones before it; then the lot drawn at the start (lower first).

Unplayed rounds (C.07 (2023) Article 16): a bye, a forfeit (won or lost) and a round in
which a player was not paired (a late entry's first rounds, a withdrawn player's last ones)
are unplayed rounds. Of them, a forfeit loss and a round not paired are *voluntarily
unplayed rounds* (VUR: the player did not come, or was not there); a bye (allocated by the
pairing) and a forfeit win are not.

- In an opponent's score as it counts for Buchholz and Sonneborn–Berger (the *adjusted*
  score, Article 16.3), every round counts the points it gave (a bye or a forfeit win its
  real point, a forfeit loss and a late entry's missed rounds 0), except the rounds not
  paired after the opponent's last round that was not a VUR (the rounds after a
  withdrawal), which count as a draw: ½ point each.
- A player's own unplayed round counts as a game against a dummy opponent whose score is
  the player's own score (Article 16.4); it scores for Sonneborn–Berger only what the
  player scored in that round (a bye or forfeit win: 1 × own score).
- Buchholz cut 1 and median Buchholz cut a VUR first as their lowest value (Article 16.5);
  a bye or a forfeit win is cut only when it is the lowest value. Median Buchholz cuts the
  highest value as it is.

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
    voluntary: bool  # a voluntarily unplayed round: a forfeit loss, a round not paired


_NOT_PAIRED = _Round(None, 0, False, True)


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
        record(game.player_a, game.round, _Round(game.player_b, int(winner_a), not game.forfeit,
                                                 game.forfeit and not winner_a))
        record(game.player_b, game.round, _Round(game.player_a, int(not winner_a),
                                                 not game.forfeit, game.forfeit and winner_a))
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
        record(player, number, _Round(None, bye_points, False, False))
        rows[player].byes += 1

    last = {player: max([completed_rounds, *rounds[player]]) for player in players}
    for player in players:
        for number in range(1, last[player] + 1):
            rounds[player].setdefault(number, _NOT_PAIRED)
        rows[player].score = sum(entry.points for entry in rounds[player].values())

    adjusted_score = {player: _adjusted(rounds[player]) for player in players}

    for player in players:
        row, own = rows[player], rows[player].score
        contributions: list[tuple[float, bool]] = []
        berger = 0.0
        for entry in rounds[player].values():
            # A game played: the opponent's adjusted score; an unplayed round: a dummy
            # opponent with the player's own score (Article 16.4).
            value = adjusted_score[entry.opponent] if entry.played else own
            contributions.append((value, entry.voluntary))
            berger += entry.points * value
        berger = float(berger)
        values = {
            BUCHHOLZ: float(sum(value for value, _voluntary in contributions)),
            BUCHHOLZ_CUT_1: _cut(contributions, low=1, high=0),
            MEDIAN_BUCHHOLZ: _cut(contributions, low=1, high=1),
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


def _adjusted(rounds: Mapping[int, _Round]) -> float:
    """A player's score as it counts in their opponents' Buchholz and Sonneborn–Berger
    (C.07 Article 16.3): the points of every round, and ½ for each round not paired after
    the player's last round that was not a voluntarily unplayed one (a withdrawal's)."""
    available = max((number for number, entry in rounds.items() if not entry.voluntary),
                    default=0)
    return sum(entry.points for entry in rounds.values()) + 0.5 * sum(
        1 for number, entry in rounds.items()
        if number > available and entry.opponent is None and entry.voluntary)


def _cut(contributions: list[tuple[float, bool]], *, low: int, high: int) -> float:
    """Buchholz without its `low` least and `high` most significant values. `contributions`:
    (value, voluntarily unplayed) of each round. Each low cut takes the lowest value of a
    voluntarily unplayed round while there is one, else the lowest value (C.07 Articles
    14.1, 16.5); each high cut the highest value."""
    kept = sorted(contributions)
    for _cut_number in range(low):
        if not kept:
            break
        voluntary = [entry for entry in kept if entry[1]]
        kept.remove(voluntary[0] if voluntary else kept[0])
    if high:
        kept = kept[:-high] if len(kept) > high else []
    return float(sum(value for value, _voluntary in kept))


def _progressive(rounds: Mapping[int, _Round]) -> int:
    """The sum of the running score after each round (cumulative score)."""
    total = running = 0
    for number in sorted(rounds):
        running += rounds[number].points
        total += running
    return total
