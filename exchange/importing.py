"""Importing a tournament from a deal log (CSV): check the whole file first, then write it.

The file is UTF-8 CSV with one row per deal and this header (the format
`exchange.exporting.deal_log_dataset` writes)::

    round,table,player_a,player_b,deal,winner,game_points,reason

`winner` is ``A``, ``B`` or ``draw``; `reason` is one of the reason codes of docs/rules.md §2;
the deals of a match (one match = one round and table) are numbered 1, 2, ... Files saved by
Excel are accepted as they come: a UTF-8 byte-order mark, ``;`` as separator (when the header
has ``;`` and no ``,``), CRLF line ends, spaces around values and header names, blank lines,
upper-case header names and winners.

Two passes, in constant memory per deal:

* `parse_deal_log(source)` touches no database: it streams the file (bytes, or a binary file
  object: an upload, a file on disk) through the csv reader line by line, checks every row
  (each deal with `rules.quick_result`, each match with `rules.score_match`, the players of a
  match and of a round) and returns an `ImportPlan`. Of each deal it keeps one 8-byte number
  (its deal number, line and result, `PlannedMatch.packed`), never the row; of each match a
  small object; of the errors only the first `MAX_ERRORS` by line and a count. Everything
  wrong with the file is collected in `plan.errors` as ``line N: message`` sentences (line
  numbers of the file, header = line 1), translated into the active language; nothing is
  raised for a user's mistake.
* `import_plan_apply(...)` writes an error-free plan as a new finished (or running)
  round-robin tournament in one transaction, in batches of `BATCH_SIZE` rows (`bulk_create`,
  with the history rows the one-by-one path writes); given a `claim`, a second import of the
  same claim, even at the same moment, makes nothing and raises `AlreadyImported` with the
  first one's tournament.

Both take a `progress(stage, done, total)` callable, called every `PROGRESS_EVERY` rows or
batch: stage `"check"` counts lines read of the file's lines, `"write"` deals written of the
plan's deals.

Only CSV is read (streamed). An XLSX workbook could not be streamed this way: it is a zip
archive whose sheet must be unpacked whole (tablib/openpyxl load it into memory), so the
import does not take one; save the sheet as CSV UTF-8.

Every cell may hold anything (thousands of digits, control characters, a megabyte of text):
the reader answers ``line N: message`` for it, never an exception. One file holds at most
`MAX_ROWS` deal rows and `MAX_BYTES` bytes, through the site and the command alike.
"""

from __future__ import annotations

import codecs
import csv
import heapq
import io
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from club.models import Player
from club.services import players_like, players_named
from core.messages import user_message
from core.numbers import grouped
from core.text import clean_name, refused_character
from events.models import Entry, Pairing, Round, Tournament
from exchange.models import ImportClaim
from ratings import services as rating_services
from scoring import rules
from scoring.models import Deal, Match
from standings.tie_breaks import DEFAULT_TIE_BREAKS, MatchResult, Standing, compute_standings

COLUMNS: tuple[str, ...] = (
    "round", "table", "player_a", "player_b", "deal", "winner", "game_points", "reason",
)
"""The columns of a deal log, in the order the export writes them (any order is read)."""

MAX_BYTES = 40 * 1024 * 1024
"""Largest file one import reads (40 MB: 250,000 rows of long Cyrillic names)."""
MAX_ROWS = 250_000
"""Most deal rows one import reads, through the site or the command: the largest round robin
the site plays (100 players, double: 9,900 matches) at 25 deals a match. It protects the
server's time, not its memory (which no longer grows with the deals): checking 250,000 rows
takes some 3 seconds of CPU and writing them about 25 seconds of the worker (10,000 deals a
second), and 40 MB is what one upload may hold."""
MAX_ERRORS = 100
"""Errors listed at most; the rest are counted in one last line."""
MAX_NUMBER = 999
"""Highest round, table and deal number accepted."""
NAME_MAX_LENGTH = Player._meta.get_field("name").max_length
FORMULA_STARTS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")
"""How a text cell may start that a spreadsheet would run as a formula (OWASP "CSV
injection"). The export writes such a name with a leading ``'``; the reader takes it off."""
SHOWN_LENGTH = 40
"""A bad value is quoted in its error message up to this many characters."""
BATCH_SIZE = 2_000
"""Deals one batch of the writer creates (with their history rows)."""
MATCH_BATCH_SIZE = 500
"""Matches (and their pairings) one batch of the writer creates: a model object is some
kilobytes, and a season of 13,000 matches must not hold them all at once."""
PROGRESS_EVERY = 5_000
"""Lines read between two `progress` calls of the check."""

Progress = Callable[[str, int, int], None]
"""`progress(stage, done, total)`: stage ``"check"`` (lines read of the file's lines) or
``"write"`` (deals written of the plan's deals)."""

_WHOLE_NUMBER = re.compile(r"[0-9]+")
_LINE_PIECES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_UNREAD = 255
"""The score code of a deal whose result could not be read."""
_LINE_BITS, _CODE_BITS = 32, 8


def _pack(deal: int, line: int, code: int) -> int:
    """One deal as `PlannedMatch.packed` keeps it: sorting these sorts by deal, then line."""
    return (deal << (_LINE_BITS + _CODE_BITS)) | (line << _CODE_BITS) | code


def _unpack(value: int) -> tuple[int, int, int]:
    """(deal number, line, score code) of a packed deal."""
    return (value >> (_LINE_BITS + _CODE_BITS), (value >> _CODE_BITS) & 0xFFFFFFFF,
            value & 0xFF)


@dataclass(frozen=True)
class PlannedDeal:
    """One deal row: its line in the file, its number in the match and its result."""

    line: int
    number: int
    score: rules.DealScore


class PlannedMatch:
    """One match of the file (a round and a table), its deals and its result.

    `packed` holds its deals in order, one 8-byte number each (deal number, line, result: see
    `deals`); `scores` is the table of the results those numbers point into (one per plan).
    Slots, and the result as plain fields (`result` builds the `rules.MatchScore`): a
    200,000-deal season has some 13,000 of these in memory at once.
    """

    __slots__ = ("round", "table", "player_a", "player_b", "line", "packed", "scores",
                 "unscored", "scored", "points_a", "points_b", "winner", "finished",
                 "next_dealer")

    def __init__(self, round_: int, table: int, scores: list[rules.DealScore]) -> None:
        self.round, self.table, self.scores = round_, table, scores
        self.player_a: str | None = None
        self.player_b: str | None = None
        self.line = 0
        """The line of the match's first row naming both players."""
        self.packed = array("Q")
        self.unscored = False
        """A row of it could not be scored (a value not read, other players)."""
        self.scored = False
        self.points_a = self.points_b = 0
        self.winner: rules.Seat | None = None
        self.finished = False
        self.next_dealer: rules.Seat = "A"

    def set_result(self, result: rules.MatchScore) -> None:
        self.scored = True
        self.points_a, self.points_b = result.game_points["A"], result.game_points["B"]
        self.winner, self.finished, self.next_dealer = (
            result.winner, result.finished, result.next_dealer)

    @property
    def result(self) -> rules.MatchScore | None:
        """The match after its deals (`rules.score_match`), None if it was not scored."""
        if not self.scored:
            return None
        return rules.MatchScore({"A": self.points_a, "B": self.points_b}, self.finished,
                                self.winner, self.next_dealer)

    @property
    def game_points(self) -> tuple[int, int]:
        """(A's, B's) game points after the deals."""
        return self.points_a, self.points_b

    @property
    def deal_count(self) -> int:
        return len(self.packed)

    @property
    def deals(self) -> tuple[PlannedDeal, ...]:
        """The deals 1..n with their lines (built on each call: kept only as `packed`)."""
        return tuple(
            PlannedDeal(line, number, self.scores[code])
            for number, line, code in map(_unpack, self.packed)
        )

    def deal_scores(self) -> list[rules.DealScore]:
        """The results of deals 1..n."""
        return [self.scores[value & 0xFF] for value in self.packed]


@dataclass
class ImportPlan:
    """What a deal log would create. `errors` empty means it can be applied.

    `players` are names in order of first appearance (their draw numbers); `matches` are
    ordered by round, then table.
    """

    house_rules: rules.HouseRules
    players: list[str] = field(default_factory=list)
    matches: list[PlannedMatch] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def rounds(self) -> list[int]:
        return sorted({match.round for match in self.matches})

    @property
    def deal_count(self) -> int:
        return sum(match.deal_count for match in self.matches)

    @property
    def finished_count(self) -> int:
        return sum(1 for match in self.matches if match.finished)

    def standings(self, tie_breaks=DEFAULT_TIE_BREAKS) -> list[Standing]:
        """The standings the import would produce (players are names; no lots drawn)."""
        results = [
            MatchResult(m.player_a, m.player_b, m.result.game_points["A"],
                        m.result.game_points["B"], m.result.winner)
            for m in self.matches
            if m.finished
        ]
        return compute_standings(self.players, results, tie_breaks)


class ImportRejected(Exception):
    """`import_plan_apply` was given a plan with errors; `.errors` lists them."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = list(errors)


class AlreadyImported(Exception):
    """`import_plan_apply` was given a claim that an import has already taken; `.tournament`
    is the tournament it made (None if that tournament has been deleted since)."""

    def __init__(self, tournament: Tournament | None) -> None:
        super().__init__(f"Already imported as tournament {getattr(tournament, 'pk', None)}.")
        self.tournament = tournament


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


class _Errors:
    """`line N: message` errors, sorted by line when done. Keeps only the `MAX_ERRORS` first
    by line (a file of 200,000 bad rows costs no more memory than one of 200) and counts all."""

    def __init__(self) -> None:
        self.kept: list[tuple[int, int, str]] = []  # a heap of (-line, -order, message)
        self.count = 0
        self.fatal = False

    def stop(self, line: int, message: str) -> None:
        """An error that makes the rest pointless (file too long): the only one listed."""
        self.kept, self.count, self.fatal = [(-line, 0, message)], 1, True

    def add(self, line: int, message: str) -> None:
        self.count += 1
        item = (-line, -self.count, message)
        if len(self.kept) < MAX_ERRORS:
            heapq.heappush(self.kept, item)
        elif item > self.kept[0]:  # an earlier line than the latest kept one
            heapq.heapreplace(self.kept, item)

    def __bool__(self) -> bool:
        return bool(self.count)

    def __len__(self) -> int:
        return self.count

    def lines(self) -> list[str]:
        ordered = sorted((-line, -order, message) for line, order, message in self.kept)
        shown = [
            _("line %(line)s: %(message)s") % {"line": line, "message": message}
            for line, _order, message in ordered
        ]
        hidden = self.count - len(shown)
        if hidden:
            shown.append(ngettext(
                "… and %(count)s more error.", "… and %(count)s more errors.", hidden
            ) % {"count": hidden})
        return shown


class _NotUtf8(Exception):
    def __init__(self, line: int) -> None:
        self.line = line


def _text_lines(stream: BinaryIO) -> Iterator[str]:
    """The file's lines as text, with their line ends, as `io.StringIO(newline="")` splits
    them (``\\n``, ``\\r\\n`` and a lone ``\\r``); a UTF-8 byte-order mark taken off. Raises
    `_NotUtf8` with the (1-based) line of the first byte that is not UTF-8."""
    # readline splits at b"\n" only (iterating a Django `File` would split at b"\r" too).
    for number, raw in enumerate(iter(stream.readline, b""), start=1):
        if number == 1 and raw.startswith(codecs.BOM_UTF8):
            raw = raw[len(codecs.BOM_UTF8):]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _NotUtf8(number) from None
        if "\r" in text[:-2]:  # a lone carriage return ends a line too
            yield from _LINE_PIECES.findall(text)
        else:
            yield text


def _delimiter(first: str) -> str:
    """``;`` when the header line has ``;`` and no ``,`` (Excel in a Bulgarian locale);
    a tab for a tab-separated header; else ``,``."""
    if "," in first:
        return ","
    if ";" in first:
        return ";"
    if "\t" in first:
        return "\t"
    return ","


def _with_delimiter(lines: Iterator[str]) -> tuple[str, Iterator[str]]:
    """The delimiter of the first line that is not blank, and all the lines again."""
    seen: list[str] = []
    for text in lines:
        seen.append(text)
        if text.strip("\r\n"):
            return _delimiter(text.split("\n", 1)[0]), _chain(seen, lines)
    return ",", iter(seen)


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _shown(value: str) -> str:
    """`value` as a message quotes it: control and format characters (those a name may not
    hold, `core.text`) as U+FFFD, at most `SHOWN_LENGTH` characters (a cell may hold a
    megabyte)."""
    value = "".join("\ufffd" if refused_character(char) else char for char in value)
    return value if len(value) <= SHOWN_LENGTH else value[: SHOWN_LENGTH - 1] + "…"


@dataclass(slots=True)
class _Row:
    """One deal row as read: the values that could be read, `None` for those that could not;
    `code` indexes the reader's table of results (`_UNREAD`: not read)."""

    line: int
    round: int | None
    table: int | None
    player_a: str | None
    player_b: str | None
    deal: int | None
    code: int


class _RowReader:
    """Checks the values of one row and reports each problem. Each distinct (winner, game
    points, reason) is checked by `rules.quick_result` once; `scores` is the table of results
    the rows' codes point into."""

    def __init__(self, errors: _Errors, house_rules: rules.HouseRules) -> None:
        self.errors = errors
        self.house_rules = house_rules
        self.scores: list[rules.DealScore] = []
        self._codes: dict[tuple, tuple[int, str | None]] = {}

    def whole(self, line: int, column: str, value: str, low: int, high: int) -> int | None:
        if not value:
            self.errors.add(line, _("%(column)s is empty; it must be a whole number.")
                            % {"column": column})
            return None
        if not _WHOLE_NUMBER.fullmatch(value):
            self.errors.add(line, _("%(column)s must be a whole number, not “%(value)s”.")
                            % {"column": column, "value": _shown(value)})
            return None
        # Digits beyond the highest number's are out of range: no int() of thousands of digits
        # (Python refuses more than 4,300).
        digits = value.lstrip("0") or "0"
        if len(digits) > len(str(high)) or not low <= int(digits) <= high:
            self.errors.add(line, _("%(column)s must be from %(low)s to %(high)s, not %(value)s.")
                            % {"column": column, "low": low, "high": high,
                               "value": _shown(value)})
            return None
        return int(digits)

    def player(self, line: int, column: str, value: str) -> str | None:
        if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
            value = value[1:]  # the export's guard against spreadsheet formulas
        try:
            name = clean_name(value)  # the one rule of the site's forms
        except ValidationError as error:
            self.errors.add(line, _(
                "%(column)s contains the control or invisible character %(code)s; a name is "
                "plain text."
            ) % {"column": column, "code": error.params["code"]})
            return None
        if not name:
            self.errors.add(line, _("%(column)s is empty; every deal names both players.")
                            % {"column": column})
            return None
        if len(name) > NAME_MAX_LENGTH:
            self.errors.add(line, _("%(column)s is longer than %(max)s characters.")
                            % {"column": column, "max": NAME_MAX_LENGTH})
            return None
        return name

    def winner(self, line: int, value: str) -> tuple[bool, rules.Seat | None]:
        """(read, seat): ``A``/``B`` -> that seat, ``draw`` -> None, any case."""
        if value.upper() in rules.SEATS:
            return True, value.upper()
        if value.lower() == "draw":
            return True, None
        self.errors.add(line, _("winner must be A, B or draw, not “%(value)s”.")
                        % {"value": _shown(value)})
        return False, None

    def reason(self, line: int, value: str) -> str | None:
        reason = value.lower()
        if reason in rules.REASONS:
            return reason
        self.errors.add(line, _("unknown reason “%(value)s”; use one of: %(reasons)s.")
                        % {"value": _shown(value), "reasons": ", ".join(rules.REASONS)})
        return None

    def code(self, line: int, winner: rules.Seat | None, game_points: int, reason: str) -> int:
        """The result's code in `scores` (`_UNREAD` after reporting an `InvalidDeal`)."""
        key = (winner, game_points, reason)
        known = self._codes.get(key)
        if known is None:
            try:
                score = rules.quick_result(winner, game_points, reason, self.house_rules)
            except rules.InvalidDeal as error:
                known = (_UNREAD, user_message(error))
            else:
                self.scores.append(score)
                known = (len(self.scores) - 1, None)
            if len(self._codes) < 4096:  # only a few dozen results are valid
                self._codes[key] = known
        code, message = known
        if message is not None:
            self.errors.add(line, message)
        return code

    def row(self, line: int, values: dict[str, str]) -> _Row:
        round_ = self.whole(line, "round", values["round"], 1, MAX_NUMBER)
        table = self.whole(line, "table", values["table"], 1, MAX_NUMBER)
        player_a = self.player(line, "player_a", values["player_a"])
        player_b = self.player(line, "player_b", values["player_b"])
        if player_a and player_a == player_b:
            self.errors.add(line, _("%(name)s is on both seats; a match needs two players.")
                            % {"name": player_a})
            player_a = player_b = None
        deal = self.whole(line, "deal", values["deal"], 1, MAX_NUMBER)
        winner_read, winner = self.winner(line, values["winner"])
        game_points = self.whole(line, "game_points", values["game_points"], 0, MAX_NUMBER)
        reason = self.reason(line, values["reason"])
        code = _UNREAD
        if winner_read and game_points is not None and reason is not None:
            code = self.code(line, winner, game_points, reason)
        return _Row(line, round_, table, player_a, player_b, deal, code)


def _rows(
    lines: Iterator[str], delimiter: str, errors: _Errors, row_reader: _RowReader,
    progress: Progress | None, total_lines: int,
) -> Iterator[_Row]:
    """Every non-blank row under the header, checked value by value; at most `MAX_ROWS`."""
    reader = csv.reader(lines, delimiter=delimiter)
    header: dict[str, int] | None = None
    width = 0
    count = 0
    last_line = 0
    while True:
        try:
            record = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            if "field limit" in str(error):  # "field larger than field limit (131072)"
                errors.add(reader.line_num, _(
                    "a value on this line is longer than %(max)s characters, the most one CSV "
                    "value may hold."
                ) % {"max": grouped(csv.field_size_limit())})
            else:
                errors.add(reader.line_num, _(
                    "this line cannot be read as CSV; check its quotation marks."
                ))
            return
        line, last_line = last_line + 1, reader.line_num
        if progress is not None and line % PROGRESS_EVERY == 0:
            progress("check", last_line, max(total_lines, last_line))
        values = [value.strip() for value in record]
        if not any(values):
            continue  # a blank line, or a row of empty cells
        if header is None:
            header = _read_header(line, values, errors)
            if header is None:
                return
            width = len(values)
            continue
        if count >= MAX_ROWS:
            errors.stop(line, _("the file has more than %(max)s deal rows, the most one import "
                                "reads.") % {"max": grouped(MAX_ROWS)})
            return
        if len(values) < width or any(values[width:]):
            errors.add(line, _(
                "this row has %(found)s values, but the header names %(expected)s columns."
            ) % {"found": len(values), "expected": width})
            continue
        count += 1
        yield row_reader.row(line, {name: values[i] for name, i in header.items()})
    if header is None:
        errors.add(1, _("the file is empty; its first line must be the header: %(columns)s.")
                   % {"columns": ",".join(COLUMNS)})
    elif not count and not errors:
        errors.add(last_line or 1, _("the file has a header but no deals."))


def _read_header(line: int, values: list[str], errors: _Errors) -> dict[str, int] | None:
    names = [value.lstrip("\ufeff").strip().lower() for value in values]
    missing = [column for column in COLUMNS if column not in names]
    repeated = sorted({name for name in names if name in COLUMNS and names.count(name) > 1})
    if missing:
        errors.add(line, _(
            "the header lacks the column(s) %(missing)s; the first line must name the columns "
            "%(columns)s."
        ) % {"missing": ", ".join(missing), "columns": ",".join(COLUMNS)})
    if repeated:
        errors.add(line, _("the header names the column(s) %(columns)s more than once.")
                   % {"columns": ", ".join(repeated)})
    if missing or repeated:
        return None
    return {column: names.index(column) for column in COLUMNS}


# --------------------------------------------------------------------------------------------
# Checking matches and rounds
# --------------------------------------------------------------------------------------------


def _pair(name_a: str, name_b: str) -> str:
    return f"{name_a} – {name_b}"


class _Grouper:
    """Players in order of first appearance and the matches (rounds and tables) of the rows:
    each match's players come from its first row naming both."""

    def __init__(self, errors: _Errors, scores: list[rules.DealScore]) -> None:
        self.errors, self.scores = errors, scores
        self.players: dict[str, str] = {}  # each name once: rows share the one string
        self.matches: dict[int, PlannedMatch] = {}  # by round * 1000 + table
        self.keys_read = True  # every row's round, table and deal could be read

    def add(self, row: _Row) -> None:
        player_a = player_b = None
        if row.player_a and row.player_b:
            player_a = self.players.setdefault(row.player_a, row.player_a)
            player_b = self.players.setdefault(row.player_b, row.player_b)
        if row.round is None or row.table is None or row.deal is None:
            self.keys_read = False
        if row.round is None or row.table is None:
            return
        number = row.round * (MAX_NUMBER + 1) + row.table
        match = self.matches.get(number)
        if match is None:
            match = self.matches[number] = PlannedMatch(row.round, row.table, self.scores)
        if player_a is None:
            match.unscored = True
        elif match.player_a is None:
            match.player_a, match.player_b, match.line = player_a, player_b, row.line
        elif (player_a, player_b) != (match.player_a, match.player_b):
            match.unscored = True
            self.errors.add(row.line, _(
                "round %(round)s, table %(table)s is %(pair)s (line %(first)s), not "
                "%(other)s; all deals of a match have the same players on the same seats."
            ) % {"round": row.round, "table": row.table, "first": match.line,
                 "pair": _pair(match.player_a, match.player_b),
                 "other": _pair(player_a, player_b)})
        if row.deal is None:
            match.unscored = True
        else:
            match.packed.append(_pack(row.deal, row.line, row.code))
            if row.code == _UNREAD:
                match.unscored = True


def _check_deal_numbers(match: PlannedMatch, errors: _Errors, *, gaps: bool) -> bool:
    """Deals numbered 1..n, each once; rows may come in any order. Gaps are reported only
    when `gaps` (every row's round, table and deal could be read, so none is just elsewhere).
    Leaves `match.packed` sorted by deal, then line."""
    place = {"round": match.round, "table": match.table}
    match.packed = array("Q", sorted(match.packed))
    seen: dict[int, int] = {}
    good = True
    for deal, line, _code in map(_unpack, match.packed):
        if deal in seen:
            errors.add(line, _(
                "deal %(deal)s of round %(round)s, table %(table)s is already on line %(first)s."
            ) % {**place, "deal": deal, "first": seen[deal]})
            good = False
            continue
        expected = len(seen) + 1
        if deal != expected and good and gaps:
            if expected == 1:
                message = _(
                    "round %(round)s, table %(table)s starts at deal %(deal)s; the deals of a "
                    "match are numbered from 1."
                )
            else:
                message = _(
                    "round %(round)s, table %(table)s goes from deal %(previous)s to deal "
                    "%(deal)s; deal %(expected)s is missing."
                )
            errors.add(line, message % {
                **place, "deal": deal, "previous": expected - 1, "expected": expected,
            })
            good = False
        seen[deal] = line
    return good


def _score_matches(grouper: _Grouper, house_rules, errors: _Errors) -> list[PlannedMatch]:
    """The matches with players, ordered by round and table, each checked and scored."""
    matches = []
    for number in sorted(grouper.matches):
        match = grouper.matches[number]
        if match.player_a is None:
            continue  # no row of it named both players: each such row has its error
        matches.append(match)
        numbers_ok = _check_deal_numbers(match, errors, gaps=grouper.keys_read)
        if not numbers_ok or not grouper.keys_read or match.unscored:
            continue
        try:
            match.set_result(rules.score_match(match.deal_scores(), house_rules, "A"))
        except rules.InvalidDeal as error:
            index = rules.deal_index(error.field)
            line = _unpack(match.packed[index])[1] if index is not None else match.line
            errors.add(line, user_message(error))
    return matches


def _check_rounds(matches: list[PlannedMatch], errors: _Errors) -> None:
    """A player plays at most one match a round (`matches` ordered by round): one round's
    seats in memory at a time."""
    seated: dict[str, PlannedMatch] = {}
    round_ = None
    for match in sorted(matches, key=lambda m: (m.round, m.line)):
        if match.round != round_:
            seated.clear()
            round_ = match.round
        for name in (match.player_a, match.player_b):
            other = seated.setdefault(name, match)
            if other is not match:
                errors.add(match.line, _(
                    "%(name)s already plays in round %(round)s at table %(table)s (line "
                    "%(first)s); a player plays once a round."
                ) % {"name": name, "round": match.round, "table": other.table,
                     "first": other.line})


def _size(source: BinaryIO) -> int | None:
    try:
        position = source.tell()
        size = source.seek(0, io.SEEK_END)
        source.seek(position)
    except (AttributeError, OSError, ValueError):
        return None
    return size - position


def _count_lines(source: BinaryIO) -> int:
    """The file's line count (its ``\\n``, plus one for a last line without), read in 1 MB
    chunks; the stream is put back where it was."""
    position = source.tell()
    count, last = 0, b"\n"
    while chunk := source.read(1024 * 1024):
        count += chunk.count(b"\n")
        last = chunk[-1:]
    source.seek(position)
    return count + (last != b"\n")


def parse_deal_log(
    source: bytes | BinaryIO, *, house_rules: rules.HouseRules | None = None,
    progress: Progress | None = None,
) -> ImportPlan:
    """Read and check a deal log under `house_rules` (default rules when not given; the game
    points a reason allows depend on them). No database access.

    `source`: the bytes of a CSV file, or a binary file object open at its start (an upload,
    a file on disk), read line by line, never whole. `progress(stage, done, total)`, if
    given, is called with stage ``"check"`` every `PROGRESS_EVERY` lines and once at the end
    (lines read of the file's lines).

    Returns an `ImportPlan`; `plan.errors` lists every problem (``line N: message``, sorted
    by line, at most `MAX_ERRORS` and a count of the rest; only a file over `MAX_BYTES` gets
    one message without a line) and is empty for a good file. Raises nothing for any
    content of the file.
    """
    house_rules = house_rules or rules.HouseRules()
    plan = ImportPlan(house_rules=house_rules)
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    size = _size(stream)
    if size is not None and size > MAX_BYTES:
        plan.errors = [_("The file is larger than %(max)s MB, the most one import reads.")
                       % {"max": MAX_BYTES // (1024 * 1024)}]
        return plan
    total_lines = _count_lines(stream) if progress is not None and size is not None else 0
    errors = _Errors()
    row_reader = _RowReader(errors, house_rules)
    grouper = _Grouper(errors, row_reader.scores)
    try:
        delimiter, lines = _with_delimiter(_text_lines(stream))
        for row in _rows(lines, delimiter, errors, row_reader, progress, total_lines):
            grouper.add(row)
    except _NotUtf8 as error:
        errors.stop(error.line, _(
            "the file is not UTF-8 text (perhaps Windows-1251 or UTF-16). Save the file as "
            "UTF-8 CSV (in Excel: Save As, “CSV UTF-8”) and import it again."
        ))
    if progress is not None:
        progress("check", total_lines, total_lines)
    if errors.fatal:
        plan.errors = errors.lines()
        return plan
    matches = _score_matches(grouper, house_rules, errors)
    grouper.matches.clear()
    _check_rounds(matches, errors)
    if errors:
        plan.errors = errors.lines()
        return plan
    plan.players = list(grouper.players)
    plan.matches = matches
    return plan


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NamesMatched:
    """How the names of a file meet the register of its club (`names_matched`).

    `players`: the register's player of each name that has one, by name. `matched`: the
    names written another way than in the register ("ivan petrov" for Иван Петров), each
    with its player, in the file's order. `unmatched`: the names that may mean players of
    the register but are added as new players, each with those players: the register has
    several like it, or the file has another name for the same player (two names of a file
    are two players)."""

    players: dict[str, Player]
    matched: list[tuple[str, Player]]
    unmatched: list[tuple[str, list[Player]]]


def names_matched(names: list[str], *, club, organiser=None) -> NamesMatched:
    """The register's player of each of the file's `names` (`NamesMatched`): the one called
    exactly that in `club` (None: players of no club; `club.services.players_named`), else
    the one player whose name has the same key (`club.services.players_like`: "иван петров",
    "Ivan Petrov" for Иван Петров), among the players `organiser` may see (no organiser: all),
    unless the file has another name for that player too. Three queries at most."""
    found = players_named(names, club=club)  # at most one per name and club
    like = players_like([name for name in names if name not in found], club=club,
                        user=organiser)
    single = {name: players[0] for name, players in like.items() if len(players) == 1}
    uses = Counter(player.pk for player in [*found.values(), *single.values()])
    matched, unmatched = [], []
    for name in names:
        if name in single and uses[single[name].pk] == 1:
            found[name] = single[name]
            matched.append((name, single[name]))
        elif name in like:
            unmatched.append((name, like[name]))
    return NamesMatched(players=found, matched=matched, unmatched=unmatched)


def _players(names: list[str], *, club, by) -> dict[str, Player]:
    """The player of each name: the register's (`names_matched`: exactly that name in `club`,
    or that name written another way), else a new one."""
    found = names_matched(names, club=club, organiser=by).players
    new = [Player(name=name, club=club) for name in names if name not in found]
    if new:
        for player in bulk_create_with_history(
            new, Player, batch_size=BATCH_SIZE, default_user=by, default_change_reason="import"
        ):
            found[player.name] = player
    return found


def players_for_names(names: list[str], *, club, by) -> dict[str, Player]:
    """The player of each of `names` (a `club.Club` or None; `by` the organiser, or None):
    the register's, found as the deal-log import finds it (`names_matched`), else a new one
    (history by `by`, reason "import"). By name."""
    return _players(names, club=club, by=by)


def import_claimed(*, digest: str) -> Tournament | None:
    """The tournament an import made under the claim `digest` (a preview's digest), if one
    did and it still exists."""
    claim = ImportClaim.objects.filter(digest=digest).select_related("tournament").first()
    return claim.tournament if claim is not None else None


def _claim(digest: str, organiser) -> ImportClaim:
    """Take `digest` for this import, inside its transaction. A second import with the same
    digest waits here for the first one's transaction (PostgreSQL: the unique index; SQLite:
    the IMMEDIATE transaction) and then raises `AlreadyImported` with its tournament; if the
    first one rolled back, the second one takes the claim and imports."""
    try:
        with transaction.atomic():
            return ImportClaim.objects.create(digest=digest, user=organiser)
    except IntegrityError:
        raise AlreadyImported(import_claimed(digest=digest)) from None


def _batches(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _copy_history(model, ids: list[int], *, history_type: str, by, date) -> None:
    """Add a history row (simple_history's, reason "import", by `by`, at `date`) for each row
    of `model` whose id is in `ids`, as it is now in the database: one ``INSERT ... SELECT``
    over the columns simple_history's historical model tracks.

    What `simple_history.utils.bulk_create_with_history` writes, without building a Python
    object per history row: that was three quarters of the import's write time (profiled on
    20,000 deals), and this copy is one statement the database runs by itself. Honours
    ``SIMPLE_HISTORY_ENABLED`` as the library does."""
    if not ids or not getattr(settings, "SIMPLE_HISTORY_ENABLED", True):
        return
    history = model.history.model
    quote = connection.ops.quote_name
    target = [history._meta.get_field(f.name).column for f in history.tracked_fields]
    source = [model._meta.get_field(f.name).column for f in history.tracked_fields]
    extra = ["history_date", "history_change_reason", "history_type", "history_user"]
    target += [history._meta.get_field(name).column for name in extra]
    when = history._meta.get_field("history_date").get_db_prep_value(date, connection)
    sql = (
        f"INSERT INTO {quote(history._meta.db_table)} ({', '.join(map(quote, target))}) "
        f"SELECT {', '.join(map(quote, source))}, %s, %s, %s, %s "
        f"FROM {quote(model._meta.db_table)} "
        f"WHERE {quote(model._meta.pk.column)} IN ({', '.join(['%s'] * len(ids))})"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [when, "import", history_type, getattr(by, "pk", None), *ids])


def _write_matches(plan: ImportPlan, players: dict[str, Player], entries: dict[int, Entry],
                   rounds: dict[int, Round], snapshot: dict, by, now) -> array:
    """The plan's matches and their pairings, `MATCH_BATCH_SIZE` at a time, with the history
    the one-by-one path leaves: a "+" row of the new match (not started, 0:0) and, for a
    finished match, a "~" row of its result (`scoring.services` saves a finished match with
    history, a running score without). Returns the matches' ids in the plan's order (not the
    objects: memory)."""
    ids = array("q")
    for planned_batch in _batches(plan.matches, MATCH_BATCH_SIZE):
        batch = Match.objects.bulk_create([Match(
            player_a=players[planned.player_a], player_b=players[planned.player_b],
            first_dealer="A", house_rules_snapshot=snapshot, status=Match.Status.SCHEDULED,
        ) for planned in planned_batch])
        _copy_history(Match, [match.pk for match in batch], history_type="+", by=by, date=now)
        scores: dict[tuple, list[int]] = {}
        for planned, match in zip(planned_batch, batch, strict=True):
            ids.append(match.pk)
            status = Match.Status.FINISHED if planned.finished else Match.Status.PLAYING
            key = (status, planned.points_a, planned.points_b, planned.winner or "")
            scores.setdefault(key, []).append(match.pk)
        for (status, points_a, points_b, winner), pks in scores.items():
            # One UPDATE per score: a batch's matches end in a few dozen ways (11:0 ... 0:11).
            Match.objects.filter(pk__in=pks).update(
                status=status, game_points_a=points_a, game_points_b=points_b, winner=winner,
                finished_at=now if status == Match.Status.FINISHED else None,
            )
            if status == Match.Status.FINISHED:
                _copy_history(Match, pks, history_type="~", by=by, date=now)
        Pairing.objects.bulk_create([
            Pairing(round=rounds[planned.round], table=planned.table, match=match,
                    entry_a=entries[match.player_a_id], entry_b=entries[match.player_b_id])
            for planned, match in zip(planned_batch, batch, strict=True)
        ])
    return ids


def _write_deals(plan: ImportPlan, match_ids: array, by, now,
                 progress: Progress | None) -> None:
    """Every deal of the plan, `BATCH_SIZE` at a time, each with its "+" history row (by
    `by`, reason "import"), as `scoring.services.match_import_deals` writes them."""
    total, written = plan.deal_count, 0
    batch: list[Deal] = []
    entered_by = getattr(by, "pk", None)

    def flush() -> None:
        nonlocal written
        Deal.objects.bulk_create(batch)
        _copy_history(Deal, [deal.pk for deal in batch], history_type="+", by=by, date=now)
        written += len(batch)
        batch.clear()
        if progress is not None:
            progress("write", written, total)

    for planned, match_id in zip(plan.matches, match_ids, strict=True):
        for number, score in enumerate(planned.deal_scores(), start=1):
            batch.append(Deal(
                match_id=match_id, number=number, winner=score.winner or "",
                game_points=score.game_points, reason=score.reason, entered_by_id=entered_by,
                entered_at=now,
            ))
            if len(batch) >= BATCH_SIZE:
                flush()
    if batch or progress is not None and not total:
        flush()


@transaction.atomic
def import_plan_apply(*, plan: ImportPlan, name: str, date, house_rules: rules.HouseRules,
                      organiser, club=None, claim: str | None = None,
                      progress: Progress | None = None) -> Tournament:
    """Write an error-free `plan` as a new round-robin tournament and return it.

    `claim` (e.g. an import job's digest, at most 64 characters): write only if no import has
    taken this claim yet; raises `AlreadyImported` (with the tournament that import made) if
    one has, even one running at this moment, so a double click imports once.

    Creates the tournament (house rules `house_rules`, which must be those the plan was read
    with; default tie-breaks; `organiser`, if given, as its organiser), an entry per player
    numbered in order of first appearance (reusing the players of the register of `club`, a
    `club.Club` or None: the tournament's club, whose page and season ladders list it, by
    name or by the name written another way, `names_matched`, as the preview lists them), the
    rounds, pairings and matches (house rules snapshot, first dealer A, the score the plan
    worked out with `rules.score_match`) and the deals: all with `bulk_create`, in batches
    (`MATCH_BATCH_SIZE` matches, `BATCH_SIZE` deals), and no query per deal or match (the
    history rows are copied by the database, `_copy_history`). History rows as the one-by-one path
    writes them (by `organiser`, reason "import"): the players, entries and deals created, each
    match created and, when finished, its result. Status: finished when every match is, else
    running (what the round robin's `match_finished` receiver would leave; the signal is not
    sent per match). All in one transaction: an error anywhere writes nothing.
    `progress(stage, done, total)`, if given, is called after each batch of deals with stage
    ``"write"`` (deals written of the plan's).

    Raises `ImportRejected` for a plan with errors, `django.core.exceptions.ValidationError`
    for a bad name or date, `ValueError` for house rules other than the plan's (a bug).
    """
    if plan.errors:
        raise ImportRejected(plan.errors)
    if house_rules != plan.house_rules:
        raise ValueError("Apply a plan under the house rules it was read with.")
    claimed = _claim(claim, organiser) if claim is not None else None
    tournament = Tournament(
        name=name, date=date, club=club, format=Tournament.Format.ROUND_ROBIN,
        status=Tournament.Status.RUNNING,
    )
    tournament.set_house_rules(house_rules)
    tournament.full_clean()
    tournament._history_user = organiser
    tournament.save()
    if organiser is not None:
        tournament.organisers.add(organiser)

    now = timezone.now()
    players = _players(plan.players, club=tournament.club, by=organiser)
    entries = {
        entry.player_id: entry
        for entry in bulk_create_with_history(
            [Entry(tournament=tournament, player=players[name], number=number)
             for number, name in enumerate(plan.players, start=1)],
            Entry, batch_size=BATCH_SIZE, default_user=organiser,
            default_change_reason="import", default_date=now,
        )
    }
    rounds = {
        round_.number: round_
        for round_ in Round.objects.bulk_create(
            [Round(tournament=tournament, number=number) for number in plan.rounds]
        )
    }
    match_ids = _write_matches(plan, players, entries, rounds, house_rules.to_dict(),
                               organiser, now)
    _write_deals(plan, match_ids, organiser, now, progress)
    if plan.finished_count == len(plan.matches):
        tournament.status = Tournament.Status.FINISHED
        tournament._history_user = organiser
        tournament.save(update_fields=["status"])
        rating_services.ratings_recompute_on_commit()
    if claimed is not None:
        claimed.tournament = tournament
        claimed.save(update_fields=["tournament"])
    return tournament
