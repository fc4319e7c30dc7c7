"""The deal list of one match, built once: the match page, its htmx answer, the scorecard and
the deal-log export all show these rows (one presenter per page part).

Each row is a stored deal with what `scoring.rules` works out from the deals before it: who
dealt it and the running score in game points. Game points only: card points are not stored.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from scoring import rules
from scoring.models import Deal, Match, reason_label


@dataclass(frozen=True)
class SheetRow:
    """One deal of a match, as every deal list shows it.

    `winner` and `dealer` are seats ("A", "B"; `winner` is None for a draw), `game_points` what
    the deal scored, `game_points_a`/`game_points_b` the running score after it, both in game
    points. `reason` is one of `rules.REASONS`, `reason_label` its label under the match's house
    rules in the language active when the sheet was built. `winner_name` and `dealer_name` are
    the players' names ("" for a draw's winner, or when the sheet was built without names)."""

    number: int
    winner: rules.Seat | None
    game_points: int
    reason: str
    reason_label: str
    dealer: rules.Seat
    game_points_a: int
    game_points_b: int
    winner_name: str = ""
    dealer_name: str = ""


@dataclass(frozen=True)
class MatchSheet:
    """A match's deals in order (`rows`) and what follows them: the game points so far
    (`game_points_a`/`game_points_b`), whether the rules see the match won (`finished`), who
    deals next (`next_dealer`, a seat) and the number of the next deal. `last_number` is the
    number of the last deal (what an undo names), None before the first deal."""

    house_rules: rules.HouseRules
    rows: tuple[SheetRow, ...]
    game_points_a: int
    game_points_b: int
    finished: bool
    next_dealer: rules.Seat
    next_number: int

    @property
    def last_number(self) -> int | None:
        return self.rows[-1].number if self.rows else None

    @property
    def scores(self) -> list[rules.DealScore]:
        """The deals as `rules.DealScore`s (game points), in order."""
        return [
            rules.DealScore(row.winner, row.game_points, None, row.reason) for row in self.rows
        ]


def sheet_of(match: Match, deals: Sequence[Deal], *, names: bool = True) -> MatchSheet:
    """The sheet of `match` from `deals`, its stored deals in number order (already read: no
    query but the players' names with `names`, which `select_related("player_a",
    "player_b")` saves). Dealers and running scores come from `rules.running_scores` and
    `rules.dealer_of_each_deal` under the match's house rules snapshot.

    Raises `rules.InvalidDeal` when the stored deals break the rules (a bug: every deal went
    through `scoring.services`)."""
    return _sheet(match, [(deal.number, deal.score()) for deal in deals], names)


def sheet_of_scores(match: Match, scores: Sequence[rules.DealScore], *,
                    names: bool = True) -> MatchSheet:
    """As `sheet_of`, from the match's deals as `rules.DealScore`s (game points) in number
    order, deal 1 first (`Deal.match_scores`, which `scoring.services.deal_record` returns):
    no query of the deals."""
    return _sheet(match, list(enumerate(scores, start=1)), names)


def _sheet(match: Match, numbered: list[tuple[int, rules.DealScore]],
           names: bool) -> MatchSheet:
    house_rules = match.house_rules()
    scores = [score for _number, score in numbered]
    dealers = rules.dealer_of_each_deal(scores, house_rules, match.first_dealer)
    states = rules.running_scores(scores, house_rules, match.first_dealer)
    after = states[-1] if states else rules.score_match([], house_rules, match.first_dealer)
    labels: dict[str, str] = {}
    seat_names = {"A": match.player_a.name, "B": match.player_b.name} if names else {}
    rows = []
    for (number, score), dealer, state in zip(numbered, dealers, states, strict=True):
        if score.reason not in labels:
            labels[score.reason] = reason_label(score.reason, house_rules)
        winner = score.winner or None
        rows.append(SheetRow(
            number=number, winner=winner, game_points=score.game_points,
            reason=score.reason, reason_label=labels[score.reason], dealer=dealer,
            game_points_a=state.game_points["A"], game_points_b=state.game_points["B"],
            winner_name=seat_names.get(winner, "") if winner else "",
            dealer_name=seat_names.get(dealer, ""),
        ))
    return MatchSheet(
        house_rules=house_rules, rows=tuple(rows), game_points_a=after.game_points["A"],
        game_points_b=after.game_points["B"], finished=after.finished,
        next_dealer=after.next_dealer,
        next_number=len(rows) + 1,
    )


def match_sheet(match: Match, *, names: bool = True) -> MatchSheet:
    """The sheet of `match`, its deals read in one query (`sheet_of`)."""
    return sheet_of(match, list(match.deals.order_by("number")), names=names)
