"""The rules of Santase ("66", Сантасе): validating and scoring one deal and a whole match.

Pure Python, no Django import: frozen dataclasses in, frozen dataclasses out. Forms, imports, the
API, services and tests all go through the names below (docs/rules.md §5 fixes them).

Two units never share a name here:

* **card points** and **totals** are counted inside one deal: the cards of the won tricks
  (0-120, docs/rules.md §1), plus marriage points (20/40) and the +10 for the last trick where that
  applies; the 66 a player needs is a total.
* **game points** are what a deal scores in the match: 0-3 per deal, up to the game target
  (11 by default) per match.

Sources: the project's rule book ``docs/rules.md``, whose sections "docs/rules.md §n" below
refers to (§1 the game, §2 game points, §4 record checks, §5 this API, §6 the match, §7 house
rules), and three Bulgarian rule texts, called seed 000, seed 002 and seed 003 there. Where the
sources disagree, ``HouseRules`` holds the choice (docs/rules.md §7).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "ALLOWED_HOUSE_RULE_VALUES",
    "CARD_POINTS_IN_PACK",
    "ENDS",
    "ERROR_CODES",
    "GAME_TARGET_CHOICES",
    "LAST_TRICK_BONUS",
    "MARRIAGE_POINT_SUMS",
    "MAX_CARD_POINTS",
    "MAX_OPPONENT_TRICKS_AT_CLOSE",
    "MAX_TRICKS_BEFORE_CLOSE",
    "MIN_CARD_POINTS",
    "PRESETS",
    "REASONS",
    "SEATS",
    "STOCK_AFTER_DEALING",
    "TRICKS_IN_DEAL",
    "WINNING_TOTAL",
    "DealRecord",
    "DealScore",
    "End",
    "HouseRules",
    "InvalidDeal",
    "MatchScore",
    "Seat",
    "dealer_of_each_deal",
    "deal_index",
    "final_score_highest",
    "final_score_valid",
    "describe_field",
    "game_points_by_reason",
    "marriages_needed",
    "other",
    "quick_result",
    "running_scores",
    "score_deal",
    "score_match",
    "validate_deal",
]

# --------------------------------------------------------------------------------------------
# Seats and constants
# --------------------------------------------------------------------------------------------

Seat = Literal["A", "B"]
"""One of the two players of a match: seat ``"A"`` or seat ``"B"``."""

SEATS: tuple[Seat, Seat] = ("A", "B")
"""Both seats, in display order."""

End = Literal["claim", "exhausted", "closed_played_out"]
"""How a deal ended: the type of ``DealRecord.end`` (values in ``ENDS``)."""

ENDS: tuple[str, ...] = ("claim", "exhausted", "closed_played_out")
"""How a deal can end (docs/rules.md §4, §5): a claim of 66 ("Стига"), the stock ran out and
all 12 tricks were played, or the stock was closed and all 12 tricks were played."""

CARD_POINTS_IN_PACK = 120
"""Card points in the 24-card pack: 4 x (A 11 + 10 10 + K 4 + Q 3 + J 2 + 9 0)
(docs/rules.md §1)."""

TRICKS_IN_DEAL = 12
"""Tricks in a deal played to the end (24 cards, two per trick)."""

WINNING_TOTAL = 66
"""The total (card points + marriage points [+ last-trick bonus]) a player needs to win a deal."""

LAST_TRICK_BONUS = 10
"""Added to the total of the last-trick winner when the stock ran out (docs/rules.md §2, seeds 000,
002, 003); counted in the same unit as card points, never a game point."""

STOCK_AFTER_DEALING = 12
"""Cards in the stock after dealing 6 to each player, the face-up trump card included; each
trick draws two of them while the stock is open (seeds 000, 002, 003)."""

MAX_TRICKS_BEFORE_CLOSE: dict[str, int] = {"stock_over_two": 4, "stock_not_empty": 5}
"""Most tricks played before the stock is closed, per ``HouseRules.close_when``: after t tricks
the stock holds 12 - 2t cards. ``"stock_over_two"`` (seeds 000, 003: not with only two cards
left) needs 12 - 2t > 2, so t <= 4; ``"stock_not_empty"`` (seed 002: while the deck has cards)
needs 12 - 2t >= 1, so t <= 5 (with 6 tricks the stock is empty)."""

MAX_OPPONENT_TRICKS_AT_CLOSE: dict[str, int] = {
    rule: tricks - 1 for rule, tricks in MAX_TRICKS_BEFORE_CLOSE.items()
}
"""Most tricks the closer's opponent can hold at the close, per ``HouseRules.close_when``: 3
(``"stock_over_two"``) or 4 (``"stock_not_empty"``). Only the player on lead closes, and after
t >= 1 tricks that is the winner of trick t, so the opponent won at most t - 1 of them (and none
when the closer closes before the first trick)."""

MIN_CARD_POINTS: tuple[int, ...] = (0, 0, 0, 4, 8, 14, 20, 28, 36, 56, 76, 98, 120)
"""Least card points a player can hold with k tricks, indexed by k (docs/rules.md §4)."""

MAX_CARD_POINTS: tuple[int, ...] = (0, 22, 44, 64, 84, 92, 100, 106, 112, 116, 120, 120, 120)
"""Most card points a player can hold with k tricks, indexed by k (docs/rules.md §4)."""

MARRIAGE_POINT_SUMS: tuple[int, ...] = (0, 20, 40, 60, 80, 100)
"""Possible marriage points of one player in a deal: three plain marriages of 20 and one trump
marriage of 40 exist (docs/rules.md §1, §4)."""

REASONS: tuple[str, ...] = (
    "won",
    "schneider",
    "capot",
    "false_claim",
    "closer_failed",
    "opponent_out_after_close",
    "last_trick",
    "draw",
)
"""Why a deal scored what it did (docs/rules.md §2). ``won`` 1, ``schneider`` 2 and ``capot`` 3 game
points come from the loser's total (§2); the others follow the house rules (§7); ``draw`` 0."""

ERROR_CODES: tuple[str, ...] = (
    "inconsistent_record",
    "card_points_over_120",
    "card_points_without_trick",
    "card_points_outside_trick_capacity",
    "invalid_marriage_sum",
    "marriage_points_without_trick",
    "played_out_not_120",
    "claimant_without_trick",
    "marriages_exceed_leads",
    "match_finished",
    "points_do_not_match_reason",
)
"""Every ``InvalidDeal.code``, stable: the Django layer maps each one to a translated message.
The first nine are the checks of docs/rules.md §4, in the order ``validate_deal`` applies them."""

_REASON_LABELS: dict[str, str] = {
    "won": "A plain win",
    "schneider": "A schneider",
    "capot": "A capot",
    "false_claim": "A false claim",
    "closer_failed": "A failed close",
    "opponent_out_after_close": "Going out after the opponent closed",
    "last_trick": "Winning by the last trick",
    "draw": "A draw",
}


def other(seat: Seat) -> Seat:
    """Return the opponent of ``seat`` ("A" -> "B", "B" -> "A").

    Raises ``ValueError`` for anything that is not a seat (a programming error, not a user one).
    """
    if seat == "A":
        return "B"
    if seat == "B":
        return "A"
    raise ValueError(f"A seat is 'A' or 'B', not {seat!r}.")


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------

_FIELD_LABELS: dict[str, str] = {
    "end": "how the deal ended",
    "card_points": "card points",
    "marriage_points": "marriage points",
    "tricks": "tricks",
    "claim_by": "player who claimed 66",
    "closed_by": "player who closed the stock",
    "last_trick_by": "winner of the last trick",
    "opponent_tricks_at_close": "opponent's tricks when the stock was closed",
    "winner": "winner",
    "game_points": "game points",
    "reason": "reason",
    "first_dealer": "first dealer",
    "deals": "deals",
}

_DEALS_INDEX = re.compile(r"^deals\[(\d+)\](?:\.(.+))?$")


def deal_index(field: str | None) -> int | None:
    """The 0-based deal index a ``score_match`` error's field names: ``"deals[7]"`` -> 7,
    ``"deals[7].card_points.A"`` -> 7; ``None`` for any other field (or ``None``). The one
    place the ``deals[i]`` form is read (the error's ``params["deal_number"]`` is the same
    deal counted from 1)."""
    match = _DEALS_INDEX.match(field or "")
    return int(match.group(1)) if match else None


def describe_field(field: str | None) -> str:
    """Name a record field in plain English words, lower case, for messages.

    ``field`` is the dotted name carried by ``InvalidDeal.field``: ``"card_points.A"`` ->
    ``"card points of player A"``, ``"claim_by"`` -> ``"player who claimed 66"``, ``"deals[7]"``
    -> ``"deal 8"`` (deals are counted from 1 for organisers), ``None`` -> ``"deal record"``.
    Every ``InvalidDeal`` message contains this text (compared case-insensitively).
    """
    if field is None:
        return "deal record"
    match = _DEALS_INDEX.match(field)
    if match:
        number = int(match.group(1)) + 1
        if match.group(2):
            return f"{describe_field(match.group(2))} of deal {number}"
        return f"deal {number}"
    name, _, seat = field.partition(".")
    label = _FIELD_LABELS.get(name, name.replace("_", " "))
    if seat:
        return f"{label} of player {seat}"
    return label


_DEFAULT_MESSAGES: dict[str, str] = {
    "inconsistent_record": "{field}: the deal record does not hold together; check this entry.",
    "card_points_over_120": (
        "{field}: no player, and not both together, can hold more than the 120 card points "
        "of the whole pack."
    ),
    "card_points_without_trick": "{field}: a player who took no trick holds no card points.",
    "card_points_outside_trick_capacity": (
        "{field}: the card points do not fit the number of tricks taken."
    ),
    "invalid_marriage_sum": (
        "{field}: marriages score 20, or 40 in trumps, so a player has 0, 20, 40, 60, 80 or "
        "100, and the pack holds only one 40 and three 20s."
    ),
    "marriage_points_without_trick": (
        "{field}: a marriage can be declared only after winning a trick."
    ),
    "played_out_not_120": (
        "{field}: a deal played to the end shares out all 120 card points in 12 tricks."
    ),
    "claimant_without_trick": "{field}: a player without a trick cannot claim 66.",
    "marriages_exceed_leads": (
        "{field}: each marriage is declared on a lead of its own, after a won trick, so a "
        "player cannot have more marriages than won tricks."
    ),
    "match_finished": (
        "{field}: the match was already won; it ends the moment a player reaches the game target."
    ),
    "points_do_not_match_reason": "{field}: the result does not fit the reason given for it.",
}


class InvalidDeal(ValueError):
    """A deal (or match) record that breaks the rules; the organiser can fix it.

    ``InvalidDeal(code, field=None, message=None)``:

    * ``code`` -- one of ``ERROR_CODES`` (stable; the Django layer translates by code);
    * ``field`` -- the record field concerned, dotted: ``"card_points.A"``, ``"tricks"``,
      ``"claim_by"``, ``"game_points"``, ``"deals[7]"`` (0-based index into the list given to
      ``score_match``), or ``None`` for the record as a whole;
    * ``message`` -- a full English sentence naming the field in plain words (see
      ``describe_field``); a default sentence per code is used when it is not given;
    * ``params`` -- the numbers (and seats) the sentence names, by name, e.g.
      ``{"seat": "A", "marriage_points": 60, "marriages": 2, "tricks": 1}``, so that another
      language can place them in its own sentence (``scoring.messages``); ``{}`` when the
      sentence names none. An error of one deal of a match (``score_match``) adds
      ``deal_number`` (1-based);
    * ``case`` -- which check of the code failed, stable within the code (e.g.
      ``inconsistent_record`` / ``"last_trick_missing"``); with ``code`` it picks the
      translated sentence and says which ``params`` it names. ``""``: the code's general
      sentence.

    ``str(error)`` is the message. Raises ``ValueError`` itself for an unknown code (a bug).
    """

    def __init__(
        self,
        code: str,
        field: str | None = None,
        message: str | None = None,
        params: Mapping[str, Any] | None = None,
        case: str = "",
    ) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"Unknown InvalidDeal code {code!r}; use one of ERROR_CODES.")
        self.code = code
        self.field = field
        self.params = dict(params or {})
        self.case = case
        if not message:
            message = _sentence(_DEFAULT_MESSAGES[code].format(field=describe_field(field)))
        self.message = message
        super().__init__(message)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"InvalidDeal({self.code!r}, field={self.field!r}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Keeps code and field across pickling (Celery results, multiprocessing).
        return (type(self), (self.code, self.field, self.message, self.params, self.case))


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# House rules
# --------------------------------------------------------------------------------------------

GAME_TARGET_CHOICES: tuple[int, ...] = (11, 7, 10)
"""Game targets the UI offers (docs/rules.md §7); ``HouseRules`` accepts any whole number 1-99."""

_GAME_TARGET_RANGE = range(1, 100)

ALLOWED_HOUSE_RULE_VALUES: dict[str, tuple[Any, ...]] = {
    "game_target": GAME_TARGET_CHOICES,
    "first_trick_marriage": ("forbidden", "pending"),
    "last_trick": ("bonus", "none", "wins_deal"),
    "draw_carry_over": (False, True),
    "false_claim_points": (3, 2),
    "failed_close": ("flat", "tricks_at_close", "tricks_at_end"),
    "opponent_out_after_close_points": (3, 2),
    "schneider_below": (33, 31),
    "capot_by": ("tricks", "points"),
    "next_dealer": ("winner", "loser", "alternate"),
    "close_when": ("stock_over_two", "stock_not_empty"),
}
"""The values each ``HouseRules`` option may take, default first (docs/rules.md §7), for form
choices. ``game_target`` lists only what the UI offers; any whole number 1-99 is accepted."""


def _is_int(value: object) -> bool:
    """True for a whole number; ``bool`` is not one here (``True`` is not 1 trick)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_choice(value: object, allowed: Iterable[Any]) -> bool:
    """``value`` equals one of ``allowed`` with the same type (so ``True`` is not ``1``)."""
    return any(type(value) is type(choice) and value == choice for choice in allowed)


@dataclass(frozen=True)
class HouseRules:
    """The options a tournament sets where the sources disagree (docs/rules.md §7; defaults first).

    * ``game_target`` -- game points that win the match: 11 (seeds 000, 002, 003); 7 (pagat),
      10; any whole number 1-99 is accepted.
    * ``first_trick_marriage`` -- ``"forbidden"``: a marriage needs a won trick, so a record with
      marriage points and no trick is invalid (seeds 002, 003); ``"pending"``: may be declared on
      the first lead and counts only once its declarer wins a trick (seed 000, pagat).
    * ``last_trick`` -- when the stock ran out: ``"bonus"`` +10 to the last-trick winner's
      total (seeds 000, 002); ``"none"``: no bonus; ``"wins_deal"``: the last-trick winner wins
      the deal, game points from the loser's total (seed 003).
    * ``draw_carry_over`` -- ``True``: each drawn deal adds 1 game point to the winner of the next
      decided deal.
    * ``false_claim_points`` -- game points to the opponent of a false claim: 3 (seed 002), 2.
    * ``failed_close`` -- game points to the opponent of a closer who fails: ``"flat"`` 3 (seeds
      000, 003); ``"tricks_at_close"``: 3 if that opponent had no trick when the stock was closed,
      else 2 (pagat); ``"tricks_at_end"``: the same, counted at the end of the deal.
    * ``opponent_out_after_close_points`` -- game points when the closer's opponent goes out
      first: 3, 2 (pagat).
    * ``schneider_below`` -- a loser's total under this scores 2 game points: 33, 31.
    * ``capot_by`` -- ``"tricks"``: capot (3) when the loser took no trick; ``"points"``: also
      when the loser's total is 0.
    * ``next_dealer`` -- who deals after a decided deal: ``"winner"`` (seed 000), ``"loser"``,
      ``"alternate"``. A draw always keeps the dealer.
    * ``close_when`` -- when the player on lead may close the stock: ``"stock_over_two"`` while
      it holds more than two cards (seeds 000, 003), so the closer's opponent holds at most 3
      tricks at the close; ``"stock_not_empty"`` while it holds any card (seed 002), at most 4
      (``MAX_OPPONENT_TRICKS_AT_CLOSE``).

    Raises ``ValueError`` naming the option for a value it does not allow.
    """

    game_target: int = 11
    first_trick_marriage: Literal["forbidden", "pending"] = "forbidden"
    last_trick: Literal["bonus", "none", "wins_deal"] = "bonus"
    draw_carry_over: bool = False
    false_claim_points: int = 3
    failed_close: Literal["flat", "tricks_at_close", "tricks_at_end"] = "flat"
    opponent_out_after_close_points: int = 3
    schneider_below: int = 33
    capot_by: Literal["tricks", "points"] = "tricks"
    next_dealer: Literal["winner", "loser", "alternate"] = "winner"
    close_when: Literal["stock_over_two", "stock_not_empty"] = "stock_over_two"

    def __post_init__(self) -> None:
        if not (_is_int(self.game_target) and self.game_target in _GAME_TARGET_RANGE):
            raise ValueError(
                f"House rule game_target must be a whole number of game points from 1 to 99, "
                f"not {self.game_target!r}."
            )
        for name, allowed in ALLOWED_HOUSE_RULE_VALUES.items():
            if name == "game_target":
                continue
            value = getattr(self, name)
            if not _is_choice(value, allowed):
                choices = ", ".join(repr(choice) for choice in allowed)
                raise ValueError(f"House rule {name} must be one of {choices}, not {value!r}.")

    @classmethod
    def preset(cls, name: str) -> HouseRules:
        """Return the named preset from ``PRESETS`` (``"default"``, ``"pagat"``).

        Raises ``ValueError`` for an unknown name.
        """
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            known = ", ".join(repr(key) for key in PRESETS)
            raise ValueError(f"Unknown house-rules preset {name!r}; known: {known}.") from None

    @classmethod
    def from_dict(cls, overrides: Mapping[str, Any]) -> HouseRules:
        """Build house rules from the defaults with ``overrides`` (option name -> value) applied.

        The shape of the ``rules`` object of ``deal_vectors.jsonl`` and of stored tournament
        settings. Raises ``ValueError`` for an unknown option name or a value not allowed.
        """
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(str(key) for key in overrides if key not in names)
        if unknown:
            raise ValueError(f"Unknown house rule option(s): {', '.join(unknown)}.")
        return cls(**dict(overrides))

    def to_dict(self) -> dict[str, Any]:
        """All options as a plain dict (option name -> value), the inverse of ``from_dict``."""
        return dataclasses.asdict(self)


PRESETS: dict[str, HouseRules] = {
    "default": HouseRules(),
    "pagat": HouseRules(
        first_trick_marriage="pending",
        failed_close="tricks_at_close",
        opponent_out_after_close_points=2,
        false_claim_points=2,
    ),
}
"""Named house-rule sets (docs/rules.md §7): ``default`` follows the seeds; ``pagat`` follows
pagat.com's description of 66 (first-trick marriage pending, failed close 2 or 3 by tricks at
the close, 2 for going out after the opponent closed and for a false claim)."""


# --------------------------------------------------------------------------------------------
# Records and results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealRecord:
    """What happened in one deal, as the organiser enters it (docs/rules.md §5).

    * ``end`` -- ``"claim"`` (a player said "Стига"/66 and play stopped), ``"exhausted"`` (the
      stock ran out, nobody closed, all 12 tricks played, no claim) or ``"closed_played_out"``
      (the stock was closed and all 12 tricks were played, no claim).
    * ``card_points`` -- ``{"A": int, "B": int}``: card points in each player's won tricks
      (0-120 each, without marriages or the last-trick bonus).
    * ``marriage_points`` -- ``{"A": int, "B": int}``: marriage points declared (0, 20, ... 100).
    * ``tricks`` -- ``{"A": int, "B": int}``: tricks won (0-12 each, at most 12 together).
    * ``claim_by`` -- the seat that claimed 66; required for and only for ``end == "claim"``.
    * ``closed_by`` -- the seat that closed the stock, if anyone did; required for
      ``"closed_played_out"``, allowed with ``"claim"``, forbidden with ``"exhausted"``.
    * ``last_trick_by`` -- winner of the 12th trick; required for ``"exhausted"``, optional (and
      ignored) for ``"closed_played_out"``, forbidden with ``"claim"``.
    * ``opponent_tricks_at_close`` -- tricks the closer's opponent had when the stock was closed
      (0-3, or 0-4 under ``close_when="stock_not_empty"``; 0 when the closer took no trick);
      only with ``closed_by``; needed under ``failed_close="tricks_at_close"`` when the
      closer fails.

    Nothing is checked on construction: ``validate_deal`` checks a record against house rules
    (some checks depend on them) and raises ``InvalidDeal``.
    """

    end: str
    card_points: Mapping[str, int]
    marriage_points: Mapping[str, int]
    tricks: Mapping[str, int]
    claim_by: Seat | None = None
    closed_by: Seat | None = None
    last_trick_by: Seat | None = None
    opponent_tricks_at_close: int | None = None


@dataclass(frozen=True)
class DealScore:
    """The result of one deal.

    * ``winner`` -- the seat that scores, or ``None`` for a draw;
    * ``game_points`` -- game points the winner scores: 1-3, or 0 for a draw (a carried-over
      draw point is added by ``score_match``, not here);
    * ``totals`` -- ``{"A": int, "B": int}``: each player's total at the end of the deal, in
      card-point units: card points + counted marriage points (+10 to the last-trick winner when
      ``last_trick="bonus"`` and the stock ran out). ``None`` when the result came from
      ``quick_result``, where the organiser entered only the outcome and the totals are unknown;
    * ``reason`` -- one of ``REASONS``.
    """

    winner: Seat | None
    game_points: int
    totals: dict[str, int] | None
    reason: str


@dataclass(frozen=True)
class MatchScore:
    """The state of a match after its deals (docs/rules.md §6).

    * ``game_points`` -- ``{"A": int, "B": int}``: game points, recorded as scored (10 + 3 = 13);
    * ``finished`` -- a player has reached the game target;
    * ``winner`` -- that player, else ``None``;
    * ``next_dealer`` -- the seat that deals the next deal.
    """

    game_points: dict[str, int]
    finished: bool
    winner: Seat | None
    next_dealer: Seat


# --------------------------------------------------------------------------------------------
# Validating a deal (docs/rules.md §4)
# --------------------------------------------------------------------------------------------

_PER_SEAT_FIELDS = ("card_points", "marriage_points", "tricks")
_SEAT_FIELDS = ("claim_by", "closed_by", "last_trick_by")


def _inconsistent(
    field: str | None, case: str, message: str, params: Mapping[str, Any] | None = None
) -> InvalidDeal:
    return InvalidDeal("inconsistent_record", field, message, params, case)


def _check_per_seat_field(record: DealRecord, name: str) -> None:
    value = getattr(record, name)
    label = describe_field(name)
    if not isinstance(value, Mapping):
        raise _inconsistent(
            name, "not_per_seat",
            f"The {label} must be given for player A and player B, not as {value!r}.",
        )
    extra = sorted(str(key) for key in value if key not in SEATS)
    if extra:
        raise _inconsistent(
            name, "unknown_seat",
            f"The {label} name a player other than A and B ({', '.join(extra)}); "
            "a match has only seats A and B.",
            params={"seats": ", ".join(extra)},
        )
    for seat in SEATS:
        field = f"{name}.{seat}"
        seat_label = describe_field(field)
        if seat not in value:
            raise _inconsistent(field, "missing", f"The {seat_label} are missing.",
                                params={"seat": seat})
        number = value[seat]
        if not _is_int(number):
            raise _inconsistent(
                field, "not_whole", f"The {seat_label} must be a whole number, not {number!r}.",
                params={"seat": seat},
            )
        if number < 0:
            raise _inconsistent(
                field, "negative", f"The {seat_label} cannot be negative ({number}).",
                params={"seat": seat, "value": number},
            )


def _counted_marriage_points(record: DealRecord, seat: Seat, rules: HouseRules) -> int:
    """Marriage points that count toward ``seat``'s total: a pending first-trick marriage of a
    player who never won a trick counts 0 (docs/rules.md §7 ``first_trick_marriage="pending"``)."""
    if rules.first_trick_marriage == "pending" and record.tricks[seat] == 0:
        return 0
    return record.marriage_points[seat]


def _base_totals(record: DealRecord, rules: HouseRules) -> dict[str, int]:
    """Card points + counted marriage points per seat, without any last-trick bonus."""
    return {
        seat: record.card_points[seat] + _counted_marriage_points(record, seat, rules)
        for seat in SEATS
    }


def _closer_failed(record: DealRecord, totals: Mapping[str, int]) -> bool:
    """The closer ended the deal short of 66: played out, or claimed, below 66."""
    closer = record.closed_by
    if closer is None or totals[closer] >= WINNING_TOTAL:
        return False
    return record.end == "closed_played_out" or (
        record.end == "claim" and record.claim_by == closer
    )


def _check_consistency(record: DealRecord, rules: HouseRules) -> None:
    if not (isinstance(record.end, str) and record.end in ENDS):
        raise _inconsistent(
            "end", "unknown_end",
            f"How the deal ended must be 'claim', 'exhausted' or 'closed_played_out', "
            f"not {record.end!r}.",
        )
    for name in _SEAT_FIELDS:
        value = getattr(record, name)
        if value is not None and not _is_choice(value, SEATS):
            raise _inconsistent(
                name, "not_a_seat",
                f"The {describe_field(name)} must be player A or player B, not {value!r}.",
            )
    for name in _PER_SEAT_FIELDS:
        _check_per_seat_field(record, name)
    at_close = record.opponent_tricks_at_close
    if at_close is not None:
        if not _is_int(at_close):
            raise _inconsistent(
                "opponent_tricks_at_close", "not_whole",
                f"The opponent's tricks when the stock was closed must be a whole number, "
                f"not {at_close!r}.",
            )
        if at_close < 0:
            raise _inconsistent(
                "opponent_tricks_at_close", "negative",
                f"The opponent's tricks when the stock was closed cannot be negative ({at_close}).",
                params={"value": at_close},
            )

    tricks = record.tricks
    for seat in SEATS:
        if tricks[seat] > TRICKS_IN_DEAL:
            raise _inconsistent(
                f"tricks.{seat}", "seat_over_12",
                f"The tricks of player {seat} ({tricks[seat]}) exceed the 12 tricks of a deal.",
                params={"seat": seat, "tricks": tricks[seat]},
            )
    if tricks["A"] + tricks["B"] > TRICKS_IN_DEAL:
        raise _inconsistent(
            "tricks", "both_over_12",
            f"The tricks of both players add up to {tricks['A'] + tricks['B']}, "
            "but a deal has only 12 tricks.",
            params={"tricks": tricks["A"] + tricks["B"]},
        )

    end = record.end
    if end == "claim":
        if record.claim_by is None:
            raise _inconsistent(
                "claim_by", "claimant_missing",
                "A deal that ended with a claim must name the player who claimed 66.",
            )
        if record.last_trick_by is not None:
            raise _inconsistent(
                "last_trick_by", "last_trick_on_claim",
                "A deal that ended with a claim has no winner of the last trick; leave it empty.",
            )
    else:
        if record.claim_by is not None:
            raise _inconsistent(
                "claim_by", "claim_on_played_out",
                "A deal played to the end had no claim; leave the player who claimed 66 empty.",
            )
    if end == "exhausted":
        if record.closed_by is not None:
            raise _inconsistent(
                "closed_by", "closer_on_exhausted",
                "In a deal where the stock ran out nobody closed it; "
                "leave the player who closed the stock empty.",
            )
        if record.last_trick_by is None:
            raise _inconsistent(
                "last_trick_by", "last_trick_missing",
                "A deal where the stock ran out must name the winner of the last trick.",
            )
    if end == "closed_played_out" and record.closed_by is None:
        raise _inconsistent(
            "closed_by", "closer_missing",
            "A closed deal played to the end must name the player who closed the stock.",
        )
    if record.last_trick_by is not None and tricks[record.last_trick_by] == 0:
        raise _inconsistent(
            "last_trick_by", "last_trick_without_trick",
            f"The winner of the last trick, player {record.last_trick_by}, has no trick.",
            params={"seat": record.last_trick_by},
        )

    if at_close is not None:
        if record.closed_by is None:
            raise _inconsistent(
                "opponent_tricks_at_close", "without_close",
                "The opponent's tricks when the stock was closed only apply when someone "
                "closed the stock; name the closer or leave it empty.",
            )
        most = MAX_OPPONENT_TRICKS_AT_CLOSE[rules.close_when]
        if at_close > most:
            played = MAX_TRICKS_BEFORE_CLOSE[rules.close_when]
            stock = STOCK_AFTER_DEALING - 2 * played
            when = (
                "more than two cards" if rules.close_when == "stock_over_two" else "any card"
            )
            raise _inconsistent(
                "opponent_tricks_at_close", "over_limit",
                f"The opponent's tricks when the stock was closed ({at_close}) cannot exceed "
                f"{most}: the stock can be closed only while it holds {when}, so at most "
                f"{played} tricks were played before the close ({stock} cards left), and the "
                f"closer, being on lead, won the last of them.",
                params={
                    "opponent_tricks_at_close": at_close, "most": most, "played": played,
                    "stock": stock,
                },
            )
        opponent = other(record.closed_by)
        if at_close > tricks[opponent]:
            raise _inconsistent(
                "opponent_tricks_at_close", "over_final",
                f"The opponent's tricks when the stock was closed ({at_close}) exceed the "
                f"{tricks[opponent]} trick(s) player {opponent} had at the end.",
                params={
                    "opponent_tricks_at_close": at_close, "seat": opponent,
                    "tricks": tricks[opponent],
                },
            )
        if at_close > 0 and tricks[record.closed_by] == 0:
            # Only the player on lead closes: after a trick that is its winner, so a closer
            # without a trick closed before the first trick, when nobody had one.
            raise _inconsistent(
                "opponent_tricks_at_close", "closer_without_trick",
                f"The opponent's tricks when the stock was closed must be 0 (entered: "
                f"{at_close}): player {record.closed_by}, who closed, took no trick, so closed "
                "the stock before the first trick was played.",
                params={"opponent_tricks_at_close": at_close, "seat": record.closed_by},
            )
    if (
        rules.failed_close == "tricks_at_close"
        and at_close is None
        and _closer_failed(record, _base_totals(record, rules))
    ):
        raise _inconsistent(
            "opponent_tricks_at_close", "needed",
            "The closer failed, and under these house rules the game points depend on the "
            "opponent's tricks when the stock was closed; enter them.",
        )


def _check_card_points(record: DealRecord) -> None:
    card_points, tricks = record.card_points, record.tricks
    for seat in SEATS:
        if card_points[seat] > CARD_POINTS_IN_PACK:
            raise InvalidDeal(
                "card_points_over_120",
                f"card_points.{seat}",
                f"The card points of player {seat} ({card_points[seat]}) exceed 120, "
                "the card points of the whole pack.",
                params={"seat": seat, "card_points": card_points[seat]},
                case="seat",
            )
    both = card_points["A"] + card_points["B"]
    if both > CARD_POINTS_IN_PACK:
        raise InvalidDeal(
            "card_points_over_120",
            "card_points",
            f"The card points of both players add up to {both}, but the whole pack holds only 120.",
            params={"card_points": both},
            case="both",
        )
    for seat in SEATS:
        if tricks[seat] == 0 and card_points[seat] > 0:
            raise InvalidDeal(
                "card_points_without_trick",
                f"card_points.{seat}",
                f"The card points of player {seat} must be 0, because player {seat} took "
                f"no trick (entered: {card_points[seat]}).",
                params={"seat": seat, "card_points": card_points[seat]},
                case="seat",
            )
    for seat in SEATS:
        k = tricks[seat]
        low, high = MIN_CARD_POINTS[k], MAX_CARD_POINTS[k]
        if not low <= card_points[seat] <= high:
            raise InvalidDeal(
                "card_points_outside_trick_capacity",
                f"card_points.{seat}",
                f"The card points of player {seat} ({card_points[seat]}) cannot come from "
                f"{k} trick(s): {k} trick(s) hold between {low} and {high} card points.",
                params={
                    "seat": seat, "card_points": card_points[seat], "tricks": k, "low": low,
                    "high": high,
                },
                case="seat",
            )


def _marriage_splits(marriage_points: int) -> list[tuple[int, int]]:
    """Ways to make ``marriage_points`` as (plain marriages of 20, trump marriages of 40)."""
    return [
        (plain, trump)
        for plain in range(4)
        for trump in range(2)
        if 20 * plain + 40 * trump == marriage_points
    ]


def marriages_needed(marriage_points: int) -> int:
    """The fewest marriages that make ``marriage_points`` (one player's marriage points in a
    deal; 20 for a plain marriage, 40 for the trump one; docs/rules.md §4): 0 -> 0, 20 or 40 -> 1,
    60 -> 2, 80 -> 3, 100 -> 4.

    Raises ``ValueError`` for a sum no marriages make (anything not in ``MARRIAGE_POINT_SUMS``).
    """
    splits = _marriage_splits(marriage_points) if _is_int(marriage_points) else []
    if not splits:
        raise ValueError(
            f"{marriage_points!r} marriage points are not 0, 20, 40, 60, 80 or 100."
        )
    return min(plain + trump for plain, trump in splits)


def _check_marriage_leads(record: DealRecord, rules: HouseRules) -> None:
    """Each marriage is declared on a lead of its own, and a player leads only after winning a
    trick (the deal's first lead aside, which only ``first_trick_marriage="pending"`` lets carry
    a marriage): marriages <= tricks won (+1 under ``"pending"``). In a deal where the stock ran
    out nobody leads after the 12th trick, so its winner has one lead fewer: a player whose only
    trick is the last one has no marriage (or the first lead's one under ``"pending"``).
    docs/rules.md §4, seeds 002, 003."""
    first_lead = 1 if rules.first_trick_marriage == "pending" else 0
    for seat in SEATS:
        points = record.marriage_points[seat]
        needed = marriages_needed(points)
        tricks = record.tricks[seat]
        leads = tricks + first_lead
        if needed <= leads and record.end == "exhausted" and record.last_trick_by == seat:
            leads -= 1
            if needed > leads:
                _raise_last_trick_gives_no_lead(seat, points, needed, tricks, leads, first_lead)
        if needed > leads:
            extra = " plus the deal's first lead" if first_lead else ""
            raise InvalidDeal(
                "marriages_exceed_leads",
                f"marriage_points.{seat}",
                f"The marriage points of player {seat} ({points}) need at least {needed} "
                f"marriages, each declared on a lead of its own after a won trick, but player "
                f"{seat} won only {tricks} trick(s){extra}: at most {leads} marriage(s).",
                params={
                    "seat": seat, "marriage_points": points, "marriages": needed,
                    "tricks": tricks, "leads": leads,
                },
                case="first_lead" if first_lead else "leads",
            )


def _raise_last_trick_gives_no_lead(
    seat: Seat, points: int, needed: int, tricks: int, leads: int, first_lead: int
) -> None:
    """``marriages_exceed_leads`` for the winner of the last trick of a deal where the stock ran
    out, who has the marriages for their tricks' leads but not once the 12th trick (after which
    nobody leads) is taken off."""
    params = {
        "seat": seat, "marriage_points": points, "marriages": needed, "tricks": tricks,
        "leads": leads,
    }
    if tricks == 1 and not first_lead:
        raise InvalidDeal(
            "marriages_exceed_leads",
            f"marriage_points.{seat}",
            f"The marriage points of player {seat} must be 0 (entered: {points}): player "
            f"{seat} won only the last trick, and nobody leads after the last trick, so "
            f"player {seat} never had a lead to declare a marriage on.",
            params=params,
            case="only_last_trick",
        )
    extra = ", counting the deal's first lead" if first_lead else ""
    raise InvalidDeal(
        "marriages_exceed_leads",
        f"marriage_points.{seat}",
        f"The marriage points of player {seat} ({points}) need at least {needed} marriages, "
        f"each declared on a lead of its own after a won trick, but player {seat} won "
        f"{tricks} trick(s), the last of them the deal's last trick, after which nobody "
        f"leads: at most {leads} marriage(s){extra}.",
        params=params,
        case="last_trick_first_lead" if first_lead else "last_trick",
    )


def _check_marriages(record: DealRecord, rules: HouseRules) -> None:
    marriage_points, tricks = record.marriage_points, record.tricks
    for seat in SEATS:
        if marriage_points[seat] not in MARRIAGE_POINT_SUMS:
            raise InvalidDeal(
                "invalid_marriage_sum",
                f"marriage_points.{seat}",
                f"The marriage points of player {seat} ({marriage_points[seat]}) must be "
                "0, 20, 40, 60, 80 or 100: marriages score 20, or 40 in trumps.",
                params={"seat": seat, "marriage_points": marriage_points[seat]},
                case="seat",
            )
    feasible = any(
        plain_a + plain_b <= 3 and trump_a + trump_b <= 1
        for plain_a, trump_a in _marriage_splits(marriage_points["A"])
        for plain_b, trump_b in _marriage_splits(marriage_points["B"])
    )
    if not feasible:
        raise InvalidDeal(
            "invalid_marriage_sum",
            "marriage_points",
            f"The marriage points of both players ({marriage_points['A']} and "
            f"{marriage_points['B']}) need more marriages than the pack holds: one 40 in "
            "trumps and three 20s.",
            params={
                "marriage_points_a": marriage_points["A"],
                "marriage_points_b": marriage_points["B"],
            },
            case="both",
        )
    if rules.first_trick_marriage == "forbidden":
        for seat in SEATS:
            if tricks[seat] == 0 and marriage_points[seat] > 0:
                raise InvalidDeal(
                    "marriage_points_without_trick",
                    f"marriage_points.{seat}",
                    f"The marriage points of player {seat} must be 0, because player {seat} "
                    "took no trick and a marriage can be declared only after winning one.",
                    params={"seat": seat, "marriage_points": marriage_points[seat]},
                    case="seat",
                )


def validate_deal(record: DealRecord, rules: HouseRules | None = None) -> None:
    """Check ``record`` against the rules; return ``None`` or raise the first failure.

    Checks, in this order (docs/rules.md §4), each raising ``InvalidDeal`` with that code:

    1. ``inconsistent_record`` -- unknown ``end``; a seat field not "A"/"B"; a missing or
       unknown seat key; a value that is not a whole number (``bool`` is not) or is negative;
       tricks over 12 per player or together; claim without ``claim_by``; ``claim_by`` on a deal
       played to the end; ``last_trick_by`` on a claim; ``"exhausted"`` without
       ``last_trick_by`` or with ``closed_by``; ``"closed_played_out"`` without ``closed_by``;
       a last-trick winner without a trick; ``opponent_tricks_at_close`` without ``closed_by``,
       over ``MAX_OPPONENT_TRICKS_AT_CLOSE[rules.close_when]`` (3, or 4 under
       ``"stock_not_empty"``), over that opponent's final tricks, or above 0 when the closer
       took no trick (who closed before the first trick); a failed closer under
       ``failed_close="tricks_at_close"`` without ``opponent_tricks_at_close``.
    2. ``card_points_over_120`` -- per player, then both together.
    3. ``card_points_without_trick``.
    4. ``card_points_outside_trick_capacity`` -- outside ``MIN_CARD_POINTS[k]`` ..
       ``MAX_CARD_POINTS[k]`` for k tricks.
    5. ``invalid_marriage_sum`` -- per player not in ``MARRIAGE_POINT_SUMS``; then both together
       needing more than the one 40 and three 20s of the pack.
    6. ``marriage_points_without_trick`` -- only with ``first_trick_marriage="forbidden"``
       (seeds 002, 003); under ``"pending"`` such a marriage simply does not count.
    7. ``played_out_not_120`` -- ``"exhausted"``/``"closed_played_out"``: card points must add
       up to 120 and tricks to 12.
    8. ``claimant_without_trick``.
    9. ``played_out_not_120`` (field ``"end"``) -- a ``"claim"`` in which all 12 tricks were
       taken: with 12 tricks the deal was played out, so it did not end with a claim, and its
       card points add up to 120.
    10. ``marriages_exceed_leads`` -- a player's marriages (``marriages_needed``) exceed the
        tricks they won (+1 for the deal's first lead under ``first_trick_marriage="pending"``),
        less one for the winner of the last trick in ``"exhausted"`` (nobody leads after it).

    ``inconsistent_record`` comes first because the other checks need whole numbers for both
    seats; the rest follow the rows of docs/rules.md §4, each row over both players.

    ``rules`` defaults to ``HouseRules()``.
    """
    rules = _rules_or_default(rules)
    if not isinstance(record, DealRecord):
        raise TypeError(f"validate_deal needs a DealRecord, not {type(record).__name__}.")
    _check_consistency(record, rules)
    _check_card_points(record)
    _check_marriages(record, rules)
    if record.end in ("exhausted", "closed_played_out"):
        both = record.card_points["A"] + record.card_points["B"]
        if both != CARD_POINTS_IN_PACK:
            raise InvalidDeal(
                "played_out_not_120",
                "card_points",
                f"The card points of both players add up to {both}, but a deal played to "
                "the end shares out all 120.",
                params={"card_points": both},
                case="card_points",
            )
        tricks = record.tricks["A"] + record.tricks["B"]
        if tricks != TRICKS_IN_DEAL:
            raise InvalidDeal(
                "played_out_not_120",
                "tricks",
                f"The tricks of both players add up to {tricks}, but a deal played to the end "
                "has 12.",
                params={"tricks": tricks},
                case="tricks",
            )
    if record.end == "claim":
        claimant = record.claim_by
        assert claimant is not None  # checked above
        if record.tricks[claimant] == 0:
            raise InvalidDeal(
                "claimant_without_trick",
                "claim_by",
                f"The player who claimed 66, player {claimant}, has no trick, and a player "
                "without a trick cannot claim.",
                params={"seat": claimant},
                case="seat",
            )
        tricks_a, tricks_b = record.tricks["A"], record.tricks["B"]
        if tricks_a + tricks_b == TRICKS_IN_DEAL:
            both = record.card_points["A"] + record.card_points["B"]
            raise InvalidDeal(
                "played_out_not_120",
                "end",
                f"How the deal ended cannot be a claim: all 12 tricks were taken "
                f"({tricks_a} + {tricks_b}), so the deal was played out, and a played-out deal "
                f"shares out all 120 card points (entered: {both}). Choose how it was played "
                "out, or correct the tricks.",
                params={"tricks_a": tricks_a, "tricks_b": tricks_b, "card_points": both},
                case="claim_after_12",
            )
    _check_marriage_leads(record, rules)


def _rules_or_default(rules: HouseRules | None) -> HouseRules:
    if rules is None:
        return HouseRules()
    if not isinstance(rules, HouseRules):
        raise TypeError(f"rules must be HouseRules, not {type(rules).__name__}.")
    return rules


# --------------------------------------------------------------------------------------------
# Scoring a deal (docs/rules.md §2, §7)
# --------------------------------------------------------------------------------------------


def _by_table(
    winner: Seat, totals: dict[str, int], tricks: Mapping[str, int], rules: HouseRules
) -> tuple[int, str]:
    """Game points and reason from the loser's total at the end (docs/rules.md §2, seeds 000,
    003)."""
    loser = other(winner)
    if tricks[loser] == 0 or (rules.capot_by == "points" and totals[loser] == 0):
        return 3, "capot"
    if totals[loser] < rules.schneider_below:
        return 2, "schneider"
    return 1, "won"


def _failed_close_game_points(record: DealRecord, rules: HouseRules) -> int:
    """Game points to the opponent of a closer who failed (docs/rules.md §2, §7
    ``failed_close``)."""
    closer = record.closed_by
    assert closer is not None
    if rules.failed_close == "tricks_at_close":
        return 3 if record.opponent_tricks_at_close == 0 else 2
    if rules.failed_close == "tricks_at_end":
        return 3 if record.tricks[other(closer)] == 0 else 2
    return 3


def score_deal(record: DealRecord, rules: HouseRules | None = None) -> DealScore:
    """Validate ``record`` (see ``validate_deal``) and score it (docs/rules.md §2, §7).

    * **Claim, stock not closed**: a claimant with a total of 66 or more wins by the table
      (loser's total >= ``schneider_below``: 1 ``won``; under it: 2 ``schneider``; loser without
      a trick, or with ``capot_by="points"`` a total of 0: 3 ``capot``); under 66 is a
      ``false_claim``: the opponent scores ``false_claim_points`` (seed 002).
    * **Claim after a close**: the closer claiming 66+ wins by the table; under 66 is
      ``closer_failed`` (seeds 000, 003). The closer's opponent claiming 66+ scores
      ``opponent_out_after_close_points`` (``opponent_out_after_close``); under 66 is a
      ``false_claim`` and the closer scores ``false_claim_points``.
    * **Closed, played out**: no last-trick bonus; the closer with 66+ wins by the table, else
      ``closer_failed``. A failed close scores 3 (``flat``), or 2/3 by whether the opponent had
      a trick at the close (``tricks_at_close``) or at the end (``tricks_at_end``).
    * **Stock ran out** (``exhausted``): ``last_trick="bonus"`` adds 10 to the last-trick winner's
      total, ``"none"`` adds nothing; the higher total wins by the table, equal totals are a
      ``draw`` (no winner, 0 game points; seed 000's 65-65). ``"wins_deal"``: the last-trick
      winner wins (``last_trick``, seed 003), 1/2/3 game points by the loser's total per the
      table, no bonus.

    Returns ``DealScore`` with ``totals`` (card-point units). Raises ``InvalidDeal``.
    """
    rules = _rules_or_default(rules)
    validate_deal(record, rules)
    totals = _base_totals(record, rules)
    tricks = record.tricks
    closer = record.closed_by

    if record.end == "claim":
        claimant = record.claim_by
        assert claimant is not None
        reached = totals[claimant] >= WINNING_TOTAL
        if closer is not None and claimant != closer:
            if reached:
                return DealScore(
                    claimant,
                    rules.opponent_out_after_close_points,
                    totals,
                    "opponent_out_after_close",
                )
            return DealScore(closer, rules.false_claim_points, totals, "false_claim")
        if reached:
            game_points, reason = _by_table(claimant, totals, tricks, rules)
            return DealScore(claimant, game_points, totals, reason)
        if closer is None:
            return DealScore(other(claimant), rules.false_claim_points, totals, "false_claim")
        points = _failed_close_game_points(record, rules)
        return DealScore(other(closer), points, totals, "closer_failed")

    if record.end == "closed_played_out":
        assert closer is not None
        if totals[closer] >= WINNING_TOTAL:
            game_points, reason = _by_table(closer, totals, tricks, rules)
            return DealScore(closer, game_points, totals, reason)
        points = _failed_close_game_points(record, rules)
        return DealScore(other(closer), points, totals, "closer_failed")

    # end == "exhausted"
    last = record.last_trick_by
    assert last is not None
    if rules.last_trick == "wins_deal":
        game_points, _ = _by_table(last, totals, tricks, rules)
        return DealScore(last, game_points, totals, "last_trick")
    if rules.last_trick == "bonus":
        totals[last] += LAST_TRICK_BONUS
    if totals["A"] == totals["B"]:
        return DealScore(None, 0, totals, "draw")
    winner: Seat = "A" if totals["A"] > totals["B"] else "B"
    game_points, reason = _by_table(winner, totals, tricks, rules)
    return DealScore(winner, game_points, totals, reason)


# --------------------------------------------------------------------------------------------
# The organiser's fast path
# --------------------------------------------------------------------------------------------


def _allowed_game_points(reason: str, rules: HouseRules) -> tuple[int, ...]:
    """Game points a deal can score for ``reason`` under ``rules`` (docs/rules.md §2, §7)."""
    return {
        "won": (1,),
        "schneider": (2,),
        "capot": (3,),
        "false_claim": (rules.false_claim_points,),
        "closer_failed": (3,) if rules.failed_close == "flat" else (2, 3),
        "opponent_out_after_close": (rules.opponent_out_after_close_points,),
        "last_trick": (1, 2, 3),
        "draw": (0,),
    }[reason]


def _mismatch(
    field: str, case: str, message: str, params: Mapping[str, Any] | None = None
) -> InvalidDeal:
    return InvalidDeal("points_do_not_match_reason", field, message, params, case)


def quick_result(
    winner: Seat | None, game_points: int, reason: str, rules: HouseRules | None = None
) -> DealScore:
    """Record a deal by its outcome only: who won, how many game points, and why.

    Checks that ``game_points`` (0-3 game points, never card points) is possible for ``reason``
    under ``rules``: ``won`` 1, ``schneider`` 2, ``capot`` 3, ``false_claim``
    ``rules.false_claim_points``, ``closer_failed`` 3 (``failed_close="flat"``) else 2 or 3,
    ``opponent_out_after_close`` ``rules.opponent_out_after_close_points``, ``last_trick`` 1-3
    and only with ``last_trick="wins_deal"``, ``draw`` 0 with ``winner=None`` and only without
    ``"wins_deal"``. ``winner`` is "A" or "B" (``None`` only for a draw).

    Returns ``DealScore`` with ``totals=None`` (the totals are unknown on this path).
    Raises ``InvalidDeal``: code ``inconsistent_record`` (field ``"reason"``) for an unknown
    reason; ``points_do_not_match_reason`` with field ``"reason"``, ``"winner"`` or
    ``"game_points"`` for anything else.
    """
    rules = _rules_or_default(rules)
    if not (isinstance(reason, str) and reason in REASONS):
        raise _inconsistent(
            "reason", "unknown_reason",
            f"The reason {reason!r} is unknown; use one of: {', '.join(REASONS)}.",
        )
    if reason == "last_trick" and rules.last_trick != "wins_deal":
        raise _mismatch(
            "reason", "last_trick_not_played",
            "The reason 'last trick' applies only under the house rule where the last trick "
            "wins the deal, which this tournament does not play.",
        )
    if reason == "draw" and rules.last_trick == "wins_deal":
        raise _mismatch(
            "reason", "draw_not_played",
            "The reason 'draw' is impossible here: under this tournament's house rules the "
            "last trick always decides the deal.",
        )
    if reason == "draw":
        if winner is not None:
            raise _mismatch(
                "winner", "draw_with_winner",
                f"A draw has no winner; leave the winner empty (entered {winner!r}).",
            )
    elif not _is_choice(winner, SEATS):
        raise _mismatch(
            "winner", "winner_missing",
            f"{_REASON_LABELS[reason]} needs a winner, player A or player B (entered {winner!r}).",
            params={"reason": reason},
        )
    allowed = _allowed_game_points(reason, rules)
    if not (_is_int(game_points) and game_points in allowed):
        allowed_text = " or ".join(str(points) for points in allowed)
        if allowed == (1,):  # "1 game point, not 3 game points": grammatical, names the field
            text = f"scores 1 game point, not {game_points!r} game points."
        else:
            text = f"scores {allowed_text} game points, not {game_points!r}."
        params: dict[str, Any] = {"reason": reason, "allowed": allowed}
        if _is_int(game_points):
            params["game_points"] = game_points
        raise _mismatch(
            "game_points", "game_points" if _is_int(game_points) else "game_points_missing",
            f"{_REASON_LABELS[reason]} {text}", params,
        )
    return DealScore(winner, game_points, None, reason)



@functools.lru_cache(maxsize=64)
def game_points_by_reason(rules: HouseRules) -> Mapping[str, tuple[int, ...]]:
    """For each of ``REASONS``, the game points (0-3) ``quick_result`` accepts for it under
    ``rules``, ascending; ``()`` for a reason these rules never give (``last_trick`` unless the
    last trick wins the deal, ``draw`` when it does). docs/rules.md §2, §7.

    Worked out by asking ``quick_result`` itself, so it cannot disagree with it; cached per
    rule set (``HouseRules`` is frozen) and returned read-only. Raises nothing.
    """

    def accepted(reason: str, game_points: int) -> bool:
        try:
            quick_result(None if reason == "draw" else "A", game_points, reason, rules)
        except InvalidDeal:
            return False
        return True

    return types.MappingProxyType({
        reason: tuple(p for p in range(4) if accepted(reason, p)) for reason in REASONS
    })

# --------------------------------------------------------------------------------------------
# The match (docs/rules.md §6)
# --------------------------------------------------------------------------------------------


def _walk_match(
    deals: Sequence[DealScore], rules: HouseRules, first_dealer: Seat
) -> tuple[list[MatchScore], list[Seat]]:
    """The match's state after each deal, and who dealt each deal (one pass, docs/rules.md §1,
    §6)."""
    if not _is_choice(first_dealer, SEATS):
        raise _inconsistent(
            "first_dealer", "not_a_seat",
            f"The first dealer must be player A or player B, not {first_dealer!r}.",
        )
    points = {"A": 0, "B": 0}
    dealer: Seat = first_dealer
    dealers: list[Seat] = []
    states: list[MatchScore] = []
    carried = 0
    match_winner: Seat | None = None
    for index, deal in enumerate(deals):
        field = f"deals[{index}]"
        if match_winner is not None:
            raise InvalidDeal(
                "match_finished",
                field,
                f"Deal {index + 1} comes after the match ended: player {match_winner} had "
                f"already reached {rules.game_target} game points "
                f"({points['A']}:{points['B']}).",
                params={
                    "deal_number": index + 1, "seat": match_winner,
                    "game_target": rules.game_target, "points_a": points["A"],
                    "points_b": points["B"],
                },
                case="after_end",
            )
        if not isinstance(deal, DealScore):
            raise TypeError(f"deals[{index}] must be a DealScore, not {type(deal).__name__}.")
        try:
            quick_result(deal.winner, deal.game_points, deal.reason, rules)
        except InvalidDeal as error:
            raise InvalidDeal(
                error.code, field, f"Deal {index + 1}: {error.message}",
                {**error.params, "deal_number": index + 1}, error.case,
            ) from error
        dealers.append(dealer)
        if deal.winner is None:  # a draw: nothing scored, the same dealer deals again
            if rules.draw_carry_over:
                carried += 1
        else:
            points[deal.winner] += deal.game_points + carried
            carried = 0
            if rules.next_dealer == "winner":
                dealer = deal.winner
            elif rules.next_dealer == "loser":
                dealer = other(deal.winner)
            else:
                dealer = other(dealer)
            if points[deal.winner] >= rules.game_target:
                match_winner = deal.winner
        states.append(MatchScore(dict(points), match_winner is not None, match_winner, dealer))
    if not states:
        states.append(MatchScore(points, False, None, first_dealer))
    return states, dealers


def score_match(
    deals: Sequence[DealScore], rules: HouseRules | None = None, first_dealer: Seat = "A"
) -> MatchScore:
    """Add up a match's deals in order (docs/rules.md §6).

    ``deals`` are ``DealScore`` results (from ``score_deal`` or ``quick_result``); each is
    re-checked with ``quick_result`` against ``rules``. Game points are recorded as scored (a
    player on 10 who wins 3 has 13). The match is finished the moment a player reaches
    ``rules.game_target`` game points. A draw scores nothing and keeps the dealer (seed 000);
    with ``draw_carry_over`` each draw adds 1 game point to the winner of the next decided deal.
    After a decided deal the next dealer is the winner (``next_dealer="winner"``, seed 000), the
    loser (``"loser"``) or the other player than the one who dealt (``"alternate"``).
    ``first_dealer`` deals the first deal. No deals: 0:0, not finished, ``first_dealer`` deals.

    Raises ``InvalidDeal``: ``match_finished`` (field ``"deals[i]"``, 0-based) for a deal after
    the match ended; the deal's own code with field ``"deals[i]"`` when a deal's game points do
    not fit its reason under ``rules``; ``inconsistent_record`` (field ``"first_dealer"``).
    """
    rules = _rules_or_default(rules)
    states, _ = _walk_match(deals, rules, first_dealer)
    return states[-1]


def running_scores(
    deals: Sequence[DealScore], rules: HouseRules | None = None, first_dealer: Seat = "A"
) -> list[MatchScore]:
    """The state of the match after each of ``deals``, in order: ``running_scores(deals)[i]``
    is ``score_match(deals[: i + 1])`` (game points so far, finished, winner, next dealer), in
    one pass instead of one ``score_match`` per deal. The deal list and the scorecard print
    these running totals. No deals: ``[]``. docs/rules.md §6.

    Raises ``InvalidDeal`` as ``score_match`` does.
    """
    rules = _rules_or_default(rules)
    states, _ = _walk_match(deals, rules, first_dealer)
    return states if deals else []


def dealer_of_each_deal(
    deals: Sequence[DealScore], rules: HouseRules | None = None, first_dealer: Seat = "A"
) -> list[Seat]:
    """The seat that dealt each of ``deals``, in order (for the scorecard), by the rules of
    ``score_match``; the dealer of the next deal is ``score_match(...).next_dealer``.

    Raises ``InvalidDeal`` as ``score_match`` does.
    """
    rules = _rules_or_default(rules)
    _, dealers = _walk_match(deals, rules, first_dealer)
    return dealers


# --------------------------------------------------------------------------------------------
# A match known only by its final score (events that keep only match results)
# --------------------------------------------------------------------------------------------


def final_score_highest(rules: HouseRules | None = None) -> int | None:
    """The most game points the winner of a match can end with under ``rules`` (docs/rules.md §6):
    the winner had at most ``game_target - 1`` before the last deal, which scores at most 3
    (a capot, always possible), so ``game_target + 2`` (13 for the default 11). ``None``
    under ``draw_carry_over``: each draw before the last deal adds one more game point to it,
    so there is no upper bound. Raises nothing."""
    rules = _rules_or_default(rules)
    if rules.draw_carry_over:
        return None
    return rules.game_target + 2


def final_score_valid(
    game_points_a: int, game_points_b: int, rules: HouseRules | None = None
) -> bool:
    """Whether a match can end ``game_points_a`` : ``game_points_b`` (game points, seat A
    first) under ``rules`` (docs/rules.md §6): exactly one player has reached the game target, with
    at most ``final_score_highest(rules)`` (11-13 by default; no upper bound under
    ``draw_carry_over``), and the other is below it (0 to ``game_target - 1``; the match
    stops the moment the first player reaches the target, so both can never have it).

    Every such score can be played: the loser's points come from plain wins (1 each) and the
    winner's from plain wins up to ``game_target - 1`` (the deals in any order, the loser's
    first), then one last deal worth the rest (1-3 game points: a plain win, a schneider or a
    capot, which no house rule removes). Returns False for anything that is not a whole
    number of game points from 0 (``bool`` included). Raises nothing.
    """
    rules = _rules_or_default(rules)
    if not (_is_int(game_points_a) and _is_int(game_points_b)):
        return False
    target, highest = rules.game_target, final_score_highest(rules)
    winner, loser = max(game_points_a, game_points_b), min(game_points_a, game_points_b)
    return (
        0 <= loser < target <= winner
        and (highest is None or winner <= highest)
    )
