"""FIDE's Tournament Report File (TRF-16) of a Swiss or a round robin, out and back in.

The layout is FIDE's (Handbook C.04 Annex 2, TRF16); docs/trf.md says what maps to what. In
short: the header lines 012 (name), 022 (venue), 042 and 052 (start and end dates,
``YYYY/MM/DD``), 062 (players), 092 (the format: `TYPES`) and, for a Swiss, ``XXR`` (the
rounds planned, the extension pairing programs read); then one ``001`` line per player:

====== =====================================================================
cols   field
====== =====================================================================
1-3    ``001``
5-8    start number (the draw number), right-aligned
10     sex (blank)         11-13 title (blank)
15-47  name (33 characters; a longer name is cut)
49-52  rating (blank: the site's rating is not a FIDE rating)
54-56  federation (blank)  58-68 FIDE id (blank)  70-79 birth date (blank)
81-84  points, ``11.5`` style
86-89  rank (0: not ranked, a player whose results are cancelled)
92-99  round 1: opponent 92-95 (``0000`` none), colour 97, result 99;
       round r starts at column 92 + 10 (r - 1)
====== =====================================================================

Santase has no colours: the player who dealt first in the match is White (``w``), the other
Black (``b``). Results: ``1``/``0`` a match won/lost, ``+``/``-`` won/lost by forfeit, ``-``
on both sides a match closed unplayed (a withdrawal), blank a match not over yet; with
opponent ``0000``: ``F`` the bye of an event whose bye scores a win, ``U`` a bye that scores
nothing (a round robin's rest, or a Swiss's bye set to score nothing), ``Z`` a round the
player was not paired in. There are no draws (``=``) and no half-point byes (``H``).

The file is UTF-8 text (names in Cyrillic stay so); columns count characters. Lines end
with LF; a CR before it is accepted.

`trf_text(tournament)` writes it; `parse_trf(data)` reads it without touching the database
and collects every problem as ``line N: message`` (translated); `trf_import(plan, ...)` writes
an error-free plan as a new event in one transaction.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.text import character_code, refused_character
from events.models import Entry, Pairing, Records, Round, Tournament, default_tie_breaks
from exchange.importing import players_for_names
from scoring.models import Match, Seat
from standings import selectors
from standings.tie_breaks import LOTS

NAME_WIDTH = 33
"""Columns 15-47 of a player line."""

FIRST_ROUND_COLUMN = 92
"""Column (1-based) where round 1's opponent starts; each round takes 10 columns."""

TYPES: dict[str, str] = {
    Tournament.Format.SWISS: "Individual: Swiss-System",
    Tournament.Format.ROUND_ROBIN: "Individual: Round robin",
    Tournament.Format.DOUBLE_ROUND_ROBIN: "Individual: Double round robin",
}
"""The 092 line of each format the file may hold (read back case-insensitively)."""

MAX_BYTES = 2_000_000
"""A file at most this big is read (some 9,000 players at 20 rounds)."""

MAX_PLAYERS = 9999
"""Start numbers have four columns."""

MAX_ROUNDS = 99

BYE_WIN, BYE_NOTHING, NOT_PAIRED = "F", "U", "Z"


class NotExportable(ValueError):
    """The event's format has no TRF here (a knockout, a club night, groups)."""


def _date(value: datetime.date) -> str:
    return value.strftime("%Y/%m/%d")


def _end_date(tournament: Tournament, matches: list[Match]) -> datetime.date:
    ends = [timezone.localdate(match.finished_at) for match in matches if match.finished_at]
    return max([tournament.date, *ends])


def _points(value: float) -> str:
    return f"{value:4.1f}"


def trf_text(tournament: Tournament) -> str:
    """The event's TRF-16 report (module docstring), LF line ends. Points and ranks are the
    standings' (`selectors.standings_with_withdrawn`). Raises `NotExportable` for a format
    other than a Swiss or a round robin."""
    if tournament.format not in TYPES:
        raise NotExportable(tournament.format)
    swiss = tournament.format == Tournament.Format.SWISS
    entries = list(tournament.entries.select_related("player").order_by("number"))
    number = {entry.pk: entry.number for entry in entries}
    pairings = list(Pairing.objects.filter(round__tournament=tournament)
                    .select_related("round", "match").order_by("round__number", "table", "pk"))
    rounds = max([0, *tournament.rounds.values_list("number", flat=True)])
    bye = BYE_WIN if swiss and tournament.bye_scores_win else BYE_NOTHING
    blocks: dict[tuple[int, int], str] = {}
    for pairing in pairings:
        r = pairing.round.number
        if pairing.entry_b_id is None:
            blocks[(pairing.entry_a_id, r)] = f"0000 - {bye}"
            continue
        match = pairing.match
        for seat, entry_id, other in ((Seat.A, pairing.entry_a_id, pairing.entry_b_id),
                                      (Seat.B, pairing.entry_b_id, pairing.entry_a_id)):
            colour = "w" if match.first_dealer == seat else "b"
            if match.status == Match.Status.FINISHED:
                result = "1" if match.winner == seat else "0"
            elif match.status == Match.Status.FORFEITED:
                result = "+" if match.winner == seat else "-"
            elif match.status == Match.Status.UNPLAYED:
                result = "-"
            else:
                result = " "
            blocks[(entry_id, r)] = f"{number[other]:4d} {colour} {result}"
    table = selectors.standings_with_withdrawn(tournament)
    rows = {entry.pk: row for entry, row in table.ranked}
    lines = [
        f"012 {tournament.name}",
        *([f"022 {tournament.venue}"] if tournament.venue else []),
        f"042 {_date(tournament.date)}",
        f"052 {_date(_end_date(tournament, [p.match for p in pairings if p.match]))}",
        f"062 {len(entries)}",
        f"092 {TYPES[tournament.format]}",
        *([f"XXR {tournament.swiss_rounds or rounds}"] if swiss else []),
    ]
    for entry in entries:
        row = rows.get(entry.pk)
        points = (row.score if swiss else row.won) if row is not None else 0
        rank = row.rank if row is not None else 0
        name = entry.player.name[:NAME_WIDTH].ljust(NAME_WIDTH)
        head = f"001 {entry.number:4d} {'':4} {name} {'':4} {'':3} {'':11} {'':10} "
        head += f"{_points(points)} {rank:4d}"
        played = "".join(
            "  " + blocks.get((entry.pk, r), f"0000 - {NOT_PAIRED}") for r in range(1, rounds + 1)
        )
        lines.append((head + played).rstrip())
    return "\n".join(lines) + "\n"


@dataclass
class PlannedPlayer:
    number: int
    name: str
    points: float
    rank: int
    line: int
    blocks: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    """Round -> (opponent start number or 0, colour, result code)."""


@dataclass
class TrfPlan:
    """What `parse_trf` read: the event's fields and players, and `errors` (``line N:
    message`` sentences, translated; empty: the plan may be imported)."""

    name: str = ""
    venue: str = ""
    start: datetime.date | None = None
    end: datetime.date | None = None
    format: str = Tournament.Format.SWISS
    planned_rounds: int | None = None
    players: list[PlannedPlayer] = field(default_factory=list)
    rounds: int = 0
    bye_scores_win: bool = True
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class TrfRejected(Exception):
    """The file has errors (`errors`, ``line N: message``); nothing was written."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


RESULTS = frozenset("10+- FUZ")
IGNORED_HEADERS = ("032", "072", "082", "102", "112", "122", "132", "142", "152", "162",
                   "172", "182", "192", "202", "212", "222")
"""Header lines other programs write that carry nothing this site keeps: read past."""


def _read_date(text: str) -> datetime.date | None:
    try:
        return datetime.datetime.strptime(text.strip(), "%Y/%m/%d").date()
    except ValueError:
        return None


def parse_trf(data: bytes) -> TrfPlan:
    """Read a TRF file (`data`, at most `MAX_BYTES`) into a `TrfPlan`, checking it whole:
    the header, every player line's columns and codes, and that both sides of each match
    agree (opponents, opposite colours, results). Touches no database; raises nothing for a
    user's mistake."""
    plan = TrfPlan()

    def error(line: int, message: str) -> None:
        plan.errors.append(_("line %(line)s: %(message)s") % {"line": line, "message": message})

    if len(data) > MAX_BYTES:
        plan.errors.append(_("The file is larger than %(limit)s bytes.") % {"limit": MAX_BYTES})
        return plan
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        line = data[:problem.start].count(b"\n") + 1
        error(line, _("the file is not UTF-8 text."))
        return plan
    seen_type = False
    for line_number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip() or line.startswith("###"):
            continue
        char = refused_character(line)
        if char is not None:
            error(line_number, _("the line holds the control or invisible character "
                                 "%(code)s.") % {"code": character_code(char)})
            continue
        code, value = line[:3], line[4:].strip()
        if code == "012":
            if not value or len(value) > 160:
                error(line_number, _("the event's name must be 1 to 160 characters long."))
            plan.name = value
        elif code == "022":
            if len(value) > 160:
                error(line_number, _("the city may be at most 160 characters long."))
            plan.venue = value
        elif code in ("042", "052"):
            date = _read_date(value) if value else None
            if value and date is None:
                error(line_number, _("write the date as YYYY/MM/DD."))
            if code == "042":
                plan.start = date
            else:
                plan.end = date
        elif code == "062":
            continue
        elif code == "092":
            seen_type = True
            found = [key for key, label in TYPES.items() if label.casefold() == value.casefold()]
            if not found:
                error(line_number, _("the type of event must be one of: %(types)s.")
                      % {"types": "; ".join(TYPES.values())})
            else:
                plan.format = found[0]
        elif code == "XXR":
            if not value.isdigit() or not 1 <= int(value) <= MAX_ROUNDS:
                error(line_number, _("the number of rounds must be 1 to %(most)s.")
                      % {"most": MAX_ROUNDS})
            else:
                plan.planned_rounds = int(value)
        elif code == "001":
            _read_player(plan, line_number, line, error)
        elif code in IGNORED_HEADERS or code.startswith("XX"):
            continue
        else:
            error(line_number, _("a line must start with 001, 012, 022, 042, 052, 062, 092 "
                                 "or another code of the TRF format."))
    if plan.name == "":
        plan.errors.append(_("The file has no event name (line 012)."))
    if plan.start is None:
        plan.errors.append(_("The file has no start date (line 042)."))
    if not seen_type:
        plan.errors.append(_("The file has no type of event (line 092)."))
    if len(plan.players) < 2:
        plan.errors.append(_("The file has fewer than two players (lines 001)."))
    if not plan.errors:
        _check_players(plan, error)
    return plan


def _read_player(plan: TrfPlan, line_number: int, line: str, error) -> None:
    number_text, name = line[4:8].strip(), line[14:47].strip()
    if not number_text.isdigit() or not 1 <= int(number_text) <= MAX_PLAYERS:
        error(line_number, _("the start number (columns 5-8) must be 1 to %(most)s.")
              % {"most": MAX_PLAYERS})
        return
    if not name:
        error(line_number, _("the player's name (columns 15-47) is empty."))
    try:
        points = float(line[80:84])
    except ValueError:
        error(line_number, _("the points (columns 81-84) must be a number like 2.0."))
        points = -1.0
    rank_text = line[85:89].strip()
    if not rank_text.isdigit():
        error(line_number, _("the rank (columns 86-89) must be a whole number."))
    player = PlannedPlayer(int(number_text), " ".join(name.split()), points,
                           int(rank_text) if rank_text.isdigit() else 0, line_number)
    rest = line[FIRST_ROUND_COLUMN - 1:]
    rounds = (len(rest) + 9) // 10
    if rounds > MAX_ROUNDS:
        error(line_number, _("at most %(most)s rounds fit.") % {"most": MAX_ROUNDS})
        return
    for r in range(1, rounds + 1):
        block = rest[(r - 1) * 10:(r - 1) * 10 + 8].ljust(8)
        column = FIRST_ROUND_COLUMN + (r - 1) * 10
        opponent, colour, result = block[0:4].strip() or "0000", block[5], block[7].upper()
        if block[4] != " " or block[6] != " " or rest[(r - 1) * 10 + 8:r * 10].strip():
            error(line_number, _("round %(round)s (column %(column)s) is not laid out as "
                                 "opponent, colour, result.") % {"round": r, "column": column})
            continue
        if not opponent.isdigit():
            error(line_number, _("round %(round)s: the opponent must be a start number.")
                  % {"round": r})
            continue
        if colour not in "wb- " or result not in RESULTS:
            error(line_number, _("round %(round)s: %(code)s is not a result this site keeps "
                                 "(no draws, no half-point byes).")
                  % {"round": r, "code": repr(colour + " " + result)})
            continue
        opponent_number = int(opponent)
        if opponent_number and (colour not in "wb" or result in "FUZ"):
            error(line_number, _("round %(round)s: a match needs the colour w or b and the "
                                 "result 1, 0, +, - or blank.") % {"round": r})
            continue
        if not opponent_number and result not in "FUZ ":
            error(line_number, _("round %(round)s: with no opponent (0000) the result must "
                                 "be F, U or Z.") % {"round": r})
            continue
        player.blocks[r] = (opponent_number, colour,
                            NOT_PAIRED if not opponent_number and result == " " else result)
    plan.rounds = max(plan.rounds, rounds)
    plan.players.append(player)


PAIRED_RESULTS = {"1": "0", "0": "1", "+": "-", "-": "+-", " ": " "}
"""The result each side's result allows on the other side ("-" against "-": unplayed)."""


def _check_players(plan: TrfPlan, error) -> None:
    by_number: dict[int, PlannedPlayer] = {}
    names: dict[str, int] = {}
    for player in plan.players:
        if player.number in by_number:
            error(player.line, _("start number %(number)s is used twice.")
                  % {"number": player.number})
        by_number[player.number] = player
        if player.name.casefold() in names:
            error(player.line, _("%(name)s is named twice.") % {"name": player.name})
        names[player.name.casefold()] = player.line
    if sorted(by_number) != list(range(1, len(by_number) + 1)):
        plan.errors.append(_("The start numbers must be 1 to %(count)s, each once.")
                           % {"count": len(by_number)})
    swiss = plan.format == Tournament.Format.SWISS
    byes = {code for p in plan.players for _o, _c, code in p.blocks.values() if code in "FU"}
    if not swiss and BYE_WIN in byes:
        plan.errors.append(_("A round robin's rest scores nothing: write it U, not F."))
    if byes == {BYE_WIN, BYE_NOTHING}:
        plan.errors.append(_("The byes are F in some rounds and U in others; an event's "
                             "byes all score the same."))
    plan.bye_scores_win = swiss and byes != {BYE_NOTHING}
    if swiss and plan.planned_rounds is not None and plan.planned_rounds < plan.rounds:
        plan.errors.append(_("The file has %(rounds)s rounds but line XXR plans "
                             "%(planned)s.") % {"rounds": plan.rounds,
                                                "planned": plan.planned_rounds})
    for r in range(1, plan.rounds + 1):
        round_byes = [p for p in plan.players if p.blocks.get(r, (0, "", "Z"))[2] in "FU"]
        if len(round_byes) > 1:
            plan.errors.append(_("Round %(round)s has %(count)s byes; one at most.")
                               % {"round": r, "count": len(round_byes)})
    for player in plan.players:
        points = 0
        for r, (opponent, colour, result) in sorted(player.blocks.items()):
            if result in "1+" or result == BYE_WIN:
                points += 1
            if not opponent:
                continue
            other = by_number.get(opponent)
            theirs = other.blocks.get(r) if other is not None else None
            if opponent == player.number or theirs is None or theirs[0] != player.number:
                error(player.line, _("round %(round)s: player %(opponent)s does not have "
                                     "this player as opponent.")
                      % {"round": r, "opponent": opponent})
            elif theirs[1] == colour:
                error(player.line, _("round %(round)s: both players have the colour "
                                     "%(colour)s.") % {"round": r, "colour": colour})
            elif theirs[2] not in PAIRED_RESULTS[result]:
                error(player.line, _("round %(round)s: the result %(ours)s does not match "
                                     "the opponent's %(theirs)s.")
                      % {"round": r, "ours": repr(result), "theirs": repr(theirs[2])})
        if player.points >= 0 and abs(player.points - points) > 1e-9:
            error(player.line, _("the points say %(points)s but the results add up to "
                                 "%(sum)s.") % {"points": f"{player.points:.1f}",
                                                "sum": f"{points:.1f}"})


@transaction.atomic
def trf_import(plan: TrfPlan, *, organiser=None, club=None) -> Tournament:
    """Write an error-free `plan` as a new event and return it; raises `TrfRejected` with the
    plan's errors otherwise (nothing written).

    The event: the file's name, venue (022), date (042), format (092), rounds planned (XXR,
    else the rounds in the file) and bye scoring (F: a bye scores a win; U: nothing); results
    kept as final scores only (TRF has no game points: every match shows 0:0); finished when
    every match is over and, for a Swiss, every planned round is paired. Players come from the
    register of `club` by name as the deal-log import finds them, else are added. Each entry's
    draw number is its start number and its lot its place in the file's ranking (rank, then
    start number), so players the results leave level keep the file's order; a round robin
    so imported breaks ties by lot alone. In a Swiss a player not paired in the last round is
    withdrawn. The white player of a match sits in seat A and dealt first; matches over are
    dated with the end date (052)."""
    if plan.errors:
        raise TrfRejected(plan.errors)
    swiss = plan.format == Tournament.Format.SWISS
    tournament = Tournament(
        name=plan.name, date=plan.start, venue=plan.venue, club=club, format=plan.format,
        status=Tournament.Status.RUNNING, records=Records.FINAL_SCORE,
        swiss_rounds=(plan.planned_rounds or plan.rounds) if swiss else None,
        bye_scores_win=plan.bye_scores_win,
        tie_breaks=default_tie_breaks() if swiss else [LOTS],
    )
    tournament.full_clean()
    tournament._history_user = organiser
    tournament.save()
    if organiser is not None:
        tournament.organisers.add(organiser)
    players = players_for_names([p.name for p in plan.players], club=club, by=organiser)
    order = sorted(plan.players, key=lambda p: (p.rank or MAX_PLAYERS + 1, p.number))
    lots = {p.number: lot for lot, p in enumerate(order, start=1)}
    entries = {}
    for p in plan.players:
        entry = Entry(tournament=tournament, player=players[p.name], number=p.number,
                      lot=lots[p.number],
                      withdrawn=swiss and p.blocks.get(plan.rounds, (0, "", "Z"))[2] == "Z")
        entry._history_user = organiser
        entry.save()
        entries[p.number] = entry
    end = plan.end or plan.start
    finished_at = timezone.make_aware(datetime.datetime.combine(end, datetime.time(12)))
    snapshot = tournament.house_rules().to_dict()
    statuses = {"1": Match.Status.FINISHED, "+": Match.Status.FORFEITED,
                "-": Match.Status.UNPLAYED, " ": Match.Status.SCHEDULED}
    all_over = True
    for r in range(1, plan.rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=r)
        table = 0
        for p in sorted(plan.players, key=lambda p: p.number):
            opponent, colour, result = p.blocks.get(r, (0, "", NOT_PAIRED))
            if not opponent:
                if result in "FU":
                    Pairing.objects.create(round=round_, table=None, entry_a=entries[p.number])
                continue
            if colour != "w":
                continue
            theirs = next(q for q in plan.players if q.number == opponent).blocks[r][2]
            if result in "0-" and theirs in "1+":
                status, winner = statuses[theirs], Seat.B
            else:
                status = statuses[result]
                winner = Seat.A if result in "1+" else ""
            all_over &= status != Match.Status.SCHEDULED
            match = Match(
                player_a=entries[p.number].player, player_b=entries[opponent].player,
                first_dealer=Seat.A, house_rules_snapshot=snapshot, status=status,
                winner=winner,
                finished_at=finished_at if status != Match.Status.SCHEDULED else None,
            )
            match._history_user = organiser
            match.save()
            table += 1
            Pairing.objects.create(round=round_, table=table, entry_a=entries[p.number],
                                   entry_b=entries[opponent], match=match)
    if all_over and (not swiss or plan.rounds >= tournament.swiss_rounds):
        tournament.status = Tournament.Status.FINISHED
        tournament._history_user = organiser
        tournament.save(update_fields=["status"])
    return tournament
