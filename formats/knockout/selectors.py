"""Reads of a knockout: its bracket, column by column, and its players ranked by how far
they went."""

from dataclasses import dataclass

from events.models import Entry, Pairing, Tournament
from formats.knockout.bracket import place_of_loser
from formats.knockout.labels import THIRD_PLACE, round_labels
from scoring.models import Match, Seat
from standings.selectors import group_tables


@dataclass(frozen=True)
class BracketSide:
    """One line of a bracket box: a seat of a pairing."""

    seat: str
    entry: Entry | None
    game_points: int | None
    """Once the match has started."""
    won: bool
    lost: bool
    bye: bool
    """A first-round bye: no player here, the other side goes through."""
    walkover: bool
    """This side went through without playing (a bye, or the opponent withdrew)."""
    place: str = ""
    """After a group stage: the group place the player went on from ("A1": winner of A)."""

    @property
    def seed(self) -> int | str | None:
        """The small mark beside the name: the seed, or after a group stage the group place."""
        if self.place:
            return self.place
        return self.entry.number if self.entry else None

    @property
    def name(self) -> str:
        return self.entry.player.name if self.entry else ""

    @property
    def withdrawn(self) -> bool:
        return bool(self.entry and self.entry.withdrawn)


@dataclass(frozen=True)
class BracketMatch:
    """One box of the bracket: a pairing, its two sides and where it stands.

    `state`: "waiting" (a player is not known yet), "scheduled", "playing", "finished",
    "forfeited", "bye" (a first-round bye) or "walkover" (the opponent withdrew)."""

    pairing: Pairing
    label: str
    sides: tuple[BracketSide, BracketSide]
    state: str

    @property
    def match(self) -> Match | None:
        return self.pairing.match

    @property
    def index(self) -> int:
        return self.pairing.bracket_index

    @property
    def winner(self) -> Entry | None:
        return next((side.entry for side in self.sides if side.won), None)

    @property
    def loser(self) -> Entry | None:
        if self.winner is None:
            return None
        return next((side.entry for side in self.sides if not side.won), None)


@dataclass(frozen=True)
class BracketColumn:
    number: int
    label: str
    matches: list[BracketMatch]


@dataclass(frozen=True)
class Bracket:
    columns: list[BracketColumn]
    third_place: BracketMatch | None
    champion: Entry | None
    runner_up: Entry | None
    third: Entry | None

    @property
    def rounds(self) -> int:
        return len(self.columns)

    @property
    def final(self) -> BracketMatch | None:
        return self.columns[-1].matches[0] if self.columns else None

    @property
    def playing(self) -> int:
        """How many matches are being played right now."""
        boxes = [box for column in self.columns for box in column.matches]
        boxes += [self.third_place] if self.third_place else []
        return sum(1 for box in boxes if box.state == "playing")


def _bracket_match(
    pairing: Pairing, label: str, first: int = 1, places: dict[int, str] | None = None
) -> BracketMatch:
    match = pairing.match
    sides = []
    for seat in (Seat.A, Seat.B):
        entry = pairing.entry(seat)
        if match is not None:
            started = match.status != Match.Status.SCHEDULED
            points = match.game_points_a if seat == Seat.A else match.game_points_b
            points = points if started else None
            won = match.winner == seat
            lost = bool(match.winner) and not won
            walkover = bye = False
        else:
            points = None
            walkover = pairing.walkover == seat and entry is not None
            won = walkover
            lost = bool(pairing.walkover) and pairing.walkover != seat and entry is not None
            bye = (pairing.walkover and pairing.walkover != seat and entry is None
                   and pairing.round.number == first)
        place = (places or {}).get(entry.pk, "") if entry else ""
        sides.append(BracketSide(seat, entry, points, won, lost, bool(bye), walkover, place))
    if match is not None:
        state = match.status
    elif pairing.walkover and pairing.round.number == first and pairing.entry_b_id is None:
        state = "bye"
    elif pairing.walkover:
        state = "walkover"
    else:
        state = "waiting"
    return BracketMatch(pairing, label, (sides[0], sides[1]), state)


def bracket(tournament: Tournament) -> Bracket:
    """The knockout bracket of `tournament`: a column per round (top to bottom), the
    third-place match, and the podium once known. One query; after a group stage, two more
    (each player's group place, `group_tables`)."""
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament, bracket_index__isnull=False)
        .select_related("round", "entry_a__player", "entry_b__player", "match")
        .order_by("round__number", "is_third_place", "bracket_index")
    )
    first = min((p.round.number for p in pairings), default=1)
    count = max((p.round.number for p in pairings), default=0) - first + 1
    labels = round_labels(count) if count > 0 else {}
    places = {}
    if pairings and tournament.group_count:
        places = {
            entry.pk: f"{table.letter}{place}"
            for table in group_tables(tournament)
            for place, entry in enumerate(table.qualifiers(), start=1)
        }
    columns: dict[int, BracketColumn] = {}
    third_place = None
    for pairing in pairings:
        number = pairing.round.number
        label = labels[number - first + 1]
        if pairing.is_third_place:
            third_place = _bracket_match(pairing, str(THIRD_PLACE), first, places)
            continue
        column = columns.setdefault(number, BracketColumn(number, label, []))
        column.matches.append(_bracket_match(pairing, label, first, places))
    ordered = [columns[number] for number in sorted(columns)]
    final = ordered[-1].matches[0] if ordered else None
    return Bracket(
        columns=ordered, third_place=third_place,
        champion=final.winner if final else None,
        runner_up=final.loser if final else None,
        third=third_place.winner if third_place else None,
    )


def knockout_ranking(tournament: Tournament) -> list[tuple[int, Entry]]:
    """The knockout's players ranked by how far they went (`bracket.place_of_loser`):
    the champion 1, the final's loser 2, the semifinal losers 3 (or, after a third-place
    match, its winner 3 and loser 4), the quarterfinal losers 5, ...; players still in are
    ranked by the round they are in, as if they lost it; equal places by seed. One query
    (`bracket`)."""
    drawn = bracket(tournament)
    rounds = drawn.rounds
    places: dict[int, tuple[int, Entry]] = {}
    # The knockout's own rounds, 1 the first: after a group stage its columns are numbered
    # on from the group rounds.
    for number, column in enumerate(drawn.columns, start=1):
        for box in column.matches:
            for side in box.sides:
                if side.entry is None:
                    continue
                place = place_of_loser(number, rounds)
                if number == rounds and side.won:
                    place = 1
                if side.won and number < rounds:
                    continue  # placed by a later round
                places[side.entry.pk] = (place, side.entry)
    if drawn.third_place is not None and drawn.third_place.winner is not None:
        places[drawn.third_place.loser.pk] = (4, drawn.third_place.loser)
    return sorted(places.values(), key=lambda item: (item[0], item[1].number or 0))
