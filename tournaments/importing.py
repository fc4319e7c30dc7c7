"""Importing a tournament from a deal log (CSV): check the whole file first, then write it.

The file is UTF-8 CSV with one row per deal and this header (the format
`tournaments.exporting.deal_log_dataset` writes)::

    round,table,player_a,player_b,deal,winner,game_points,reason

`winner` is ``A``, ``B`` or ``draw``; `reason` is one of RULES.md §5; the deals of a match
(one match = one round and table) are numbered 1, 2, ... Files saved by Excel are accepted as
they come: a UTF-8 byte-order mark, ``;`` as separator (when the header has ``;`` and no ``,``),
CRLF line ends, spaces around values and header names, blank lines, upper-case header names
and winners.

Two steps:

* `parse_deal_log(data)` touches no database: it reads and checks every row (each deal with
  `rules.quick_result`, each match with `rules.score_match`, the players of a match and of a
  round) and returns an `ImportPlan`. Everything wrong with the file is collected in
  `plan.errors` as ``line N: message`` sentences (line numbers of the file, header = line 1),
  translated into the active language; nothing is raised for a user's mistake.
* `import_plan_apply(...)` writes an error-free plan as a new finished (or running)
  round-robin tournament in one transaction; given a `claim` (the site's preview digest), a
  second import of the same preview, even at the same moment, makes nothing and raises
  `AlreadyImported` with the first one's tournament.

Every cell may hold anything (thousands of digits, control characters, a megabyte of text):
the reader answers ``line N: message`` for it, never an exception. One file holds at most
`MAX_ROWS` deal rows (`SITE_MAX_ROWS` through the site's upload).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from simple_history.utils import bulk_create_with_history

from club.messages import user_message
from club.models import Player
from club.numbers import grouped
from club.services import players_named
from club.validators import clean_name, refused_character
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tournaments import rating_services
from tournaments.models import Entry, ImportClaim, Pairing, Round, Tournament
from tournaments.pure.standings import DEFAULT_TIE_BREAKS, MatchResult, Standing, compute_standings

COLUMNS: tuple[str, ...] = (
    "round", "table", "player_a", "player_b", "deal", "winner", "game_points", "reason",
)
"""The columns of a deal log, in the order the export writes them (any order is read)."""

MAX_BYTES = 40 * 1024 * 1024
"""Largest file one import reads (40 MB: 250,000 rows of long Cyrillic names)."""
MAX_ROWS = 250_000
"""Most deal rows one import reads: the largest round robin the site plays (100 players,
double: 9,900 matches) at 25 deals a match. Measured on a small machine: 218,000 rows read in
3 s of CPU and 280 MB, and written in about 2 minutes (the `import_tournament` command)."""
SITE_MAX_BYTES = 5 * 1024 * 1024
"""Largest file the site's upload takes (it is kept in the session until confirmed)."""
SITE_MAX_ROWS = 20_000
"""Most deal rows the site's upload takes: about 1,800 matches, written in some 10 seconds of
one request; larger files go through the `import_tournament` command."""
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

_WHOLE_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class PlannedDeal:
    """One deal row: its line in the file, its number in the match and its result."""

    line: int
    number: int
    score: rules.DealScore


@dataclass
class PlannedMatch:
    """One match of the file (a round and a table), its deals in order and its result."""

    round: int
    table: int
    player_a: str
    player_b: str
    line: int
    """The line of the match's first row in the file."""
    deals: list[PlannedDeal] = field(default_factory=list)
    result: rules.MatchScore | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None and self.result.finished


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
        return sum(len(match.deals) for match in self.matches)

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
    """`line N: message` errors, sorted by line when done."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, str]] = []
        self.fatal = False

    def stop(self, line: int, message: str) -> None:
        """An error that makes the rest pointless (file too long): the only one listed."""
        self.items = [(line, 0, message)]
        self.fatal = True

    def add(self, line: int, message: str) -> None:
        self.items.append((line, len(self.items), message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def lines(self) -> list[str]:
        ordered = sorted(self.items)
        shown = [
            _("line %(line)s: %(message)s") % {"line": line, "message": message}
            for line, _order, message in ordered[:MAX_ERRORS]
        ]
        hidden = len(ordered) - len(shown)
        if hidden:
            shown.append(ngettext(
                "… and %(count)s more error.", "… and %(count)s more errors.", hidden
            ) % {"count": hidden})
        return shown


def _decode(data: bytes, errors: _Errors) -> str | None:
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        errors.add(line, _(
            "the file is not UTF-8 text (perhaps Windows-1251 or UTF-16). Save the file as "
            "UTF-8 CSV (in Excel: Save As, “CSV UTF-8”) and import it again."
        ))
        return None


def _delimiter(text: str) -> str:
    """``;`` when the header line has ``;`` and no ``,`` (Excel in a Bulgarian locale);
    a tab for a tab-separated header; else ``,``."""
    first = text.lstrip("\r\n").split("\n", 1)[0]
    if "," in first:
        return ","
    if ";" in first:
        return ";"
    if "\t" in first:
        return "\t"
    return ","


def _shown(value: str) -> str:
    """`value` as a message quotes it: control and format characters (those a name may not
    hold, `club.validators`) as U+FFFD, at most `SHOWN_LENGTH` characters (a cell may hold a
    megabyte)."""
    value = "".join("\ufffd" if refused_character(char) else char for char in value)
    return value if len(value) <= SHOWN_LENGTH else value[: SHOWN_LENGTH - 1] + "…"


@dataclass
class _Row:
    """One deal row as read: the values that could be read, `None` for those that could not."""

    line: int
    round: int | None
    table: int | None
    player_a: str | None
    player_b: str | None
    deal: int | None
    score: rules.DealScore | None


class _RowReader:
    """Checks the values of one row and reports each problem."""

    def __init__(self, errors: _Errors, house_rules: rules.HouseRules) -> None:
        self.errors = errors
        self.house_rules = house_rules

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
        score = None
        if winner_read and game_points is not None and reason is not None:
            try:
                score = rules.quick_result(winner, game_points, reason, self.house_rules)
            except rules.InvalidDeal as error:
                self.errors.add(line, user_message(error))
        return _Row(line, round_, table, player_a, player_b, deal, score)


def _read_rows(
    text: str, errors: _Errors, house_rules: rules.HouseRules, *, site: bool
) -> list[_Row]:
    """Every non-blank row under the header, checked value by value; at most `MAX_ROWS`
    (`SITE_MAX_ROWS` for the `site`)."""
    max_rows = SITE_MAX_ROWS if site else MAX_ROWS
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    row_reader = _RowReader(errors, house_rules)
    header: dict[str, int] | None = None
    width = 0
    rows: list[_Row] = []
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
            return rows
        line, last_line = last_line + 1, reader.line_num
        values = [value.strip() for value in record]
        if not any(values):
            continue  # a blank line, or a row of empty cells
        if header is None:
            header = _read_header(line, values, errors)
            if header is None:
                return rows
            width = len(values)
            continue
        if len(rows) >= max_rows:
            if site:
                message = _(
                    "the file has more than %(max)s deal rows, the most the site imports at "
                    "once; import it on the server with the import_tournament command (up to "
                    "%(command_max)s rows)."
                )
            else:
                message = _("the file has more than %(max)s deal rows, the most one import reads.")
            limits = {"max": grouped(max_rows), "command_max": grouped(MAX_ROWS)}
            errors.stop(line, message % limits)
            return rows
        if len(values) < width or any(values[width:]):
            errors.add(line, _(
                "this row has %(found)s values, but the header names %(expected)s columns."
            ) % {"found": len(values), "expected": width})
            continue
        rows.append(row_reader.row(line, {name: values[i] for name, i in header.items()}))
    if header is None:
        errors.add(1, _("the file is empty; its first line must be the header: %(columns)s.")
                   % {"columns": ",".join(COLUMNS)})
    elif not rows and not errors:
        errors.add(last_line or 1, _("the file has a header but no deals."))
    return rows


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


def _group_matches(rows: list[_Row], errors: _Errors) -> tuple[list[str], dict, dict]:
    """Players in order of first appearance, matches by (round, table), and their deal rows."""
    players: dict[str, None] = {}
    matches: dict[tuple[int, int], PlannedMatch] = {}
    deal_rows: dict[tuple[int, int], list[_Row]] = defaultdict(list)
    for row in rows:
        if row.player_a and row.player_b:
            players.setdefault(row.player_a)
            players.setdefault(row.player_b)
        if row.round is None or row.table is None:
            continue
        key = (row.round, row.table)
        match = matches.get(key)
        if row.player_a and row.player_b:
            if match is None:
                match = matches[key] = PlannedMatch(
                    row.round, row.table, row.player_a, row.player_b, row.line
                )
            elif (row.player_a, row.player_b) != (match.player_a, match.player_b):
                errors.add(row.line, _(
                    "round %(round)s, table %(table)s is %(pair)s (line %(first)s), not "
                    "%(other)s; all deals of a match have the same players on the same seats."
                ) % {"round": row.round, "table": row.table, "first": match.line,
                     "pair": _pair(match.player_a, match.player_b),
                     "other": _pair(row.player_a, row.player_b)})
        deal_rows[key].append(row)
    return list(players), matches, deal_rows


def _check_deal_numbers(
    match: PlannedMatch, rows: list[_Row], errors: _Errors, *, gaps: bool
) -> bool:
    """Deals numbered 1..n, each once; rows may come in any order. Gaps are reported only
    when `gaps` (every row's round, table and deal could be read, so none is just elsewhere)."""
    place = {"round": match.round, "table": match.table}
    seen: dict[int, int] = {}
    good = True
    for row in sorted((r for r in rows if r.deal is not None), key=lambda r: (r.deal, r.line)):
        if row.deal in seen:
            errors.add(row.line, _(
                "deal %(deal)s of round %(round)s, table %(table)s is already on line %(first)s."
            ) % {**place, "deal": row.deal, "first": seen[row.deal]})
            good = False
            continue
        expected = len(seen) + 1
        if row.deal != expected and good and gaps:
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
            errors.add(row.line, message % {
                **place, "deal": row.deal, "previous": expected - 1, "expected": expected,
            })
            good = False
        seen[row.deal] = row.line
    return good


def _score_matches(
    matches: dict, deal_rows: dict, house_rules, errors: _Errors, *, keys_read: bool
) -> None:
    for key, match in matches.items():
        rows = deal_rows[key]
        numbers_ok = _check_deal_numbers(match, rows, errors, gaps=keys_read)
        if not numbers_ok or not keys_read or any(r.score is None or r.deal is None for r in rows):
            continue
        if any((r.player_a, r.player_b) != (match.player_a, match.player_b) for r in rows):
            continue
        ordered = sorted(rows, key=lambda r: r.deal)
        match.deals = [PlannedDeal(r.line, r.deal, r.score) for r in ordered]
        try:
            match.result = rules.score_match(
                [deal.score for deal in match.deals], house_rules, "A"
            )
        except rules.InvalidDeal as error:
            index = rules.deal_index(error.field)
            line = match.deals[index].line if index is not None else match.line
            errors.add(line, user_message(error))


def _check_rounds(matches: dict, errors: _Errors) -> None:
    """A player plays at most one match a round."""
    seated: dict[tuple[int, str], PlannedMatch] = {}
    for match in sorted(matches.values(), key=lambda m: m.line):
        for name in (match.player_a, match.player_b):
            other = seated.setdefault((match.round, name), match)
            if other is not match:
                errors.add(match.line, _(
                    "%(name)s already plays in round %(round)s at table %(table)s (line "
                    "%(first)s); a player plays once a round."
                ) % {"name": name, "round": match.round, "table": other.table,
                     "first": other.line})


def parse_deal_log(
    data: bytes, *, house_rules: rules.HouseRules | None = None, site: bool = False
) -> ImportPlan:
    """Read and check a deal log (the bytes of a CSV file) under `house_rules` (default rules
    when not given; the game points a reason allows depend on them). No database access.
    `site`: the site's upload, with its smaller limits (`SITE_MAX_BYTES`, `SITE_MAX_ROWS`
    instead of `MAX_BYTES`, `MAX_ROWS`), whose messages point to the command.

    Returns an `ImportPlan`; `plan.errors` lists every problem (``line N: message``, sorted
    by line, at most `MAX_ERRORS` and a count of the rest; only a file over the size limit
    gets one message without a line) and is empty for a good file. Raises nothing for any
    content of the file.
    """
    house_rules = house_rules or rules.HouseRules()
    plan = ImportPlan(house_rules=house_rules)
    max_bytes = SITE_MAX_BYTES if site else MAX_BYTES
    if len(data) > max_bytes:
        if site:
            message = _(
                "The file is larger than %(max)s MB, the most the site takes; import it on the "
                "server with the import_tournament command (up to %(command_max)s MB)."
            )
        else:
            message = _("The file is larger than %(max)s MB, the most one import reads.")
        plan.errors = [message % {
            "max": max_bytes // (1024 * 1024), "command_max": MAX_BYTES // (1024 * 1024),
        }]
        return plan
    errors = _Errors()
    text = _decode(data, errors)
    if text is None:
        plan.errors = errors.lines()
        return plan
    rows = _read_rows(text, errors, house_rules, site=site)
    if errors.fatal:
        plan.errors = errors.lines()
        return plan
    players, matches, deal_rows = _group_matches(rows, errors)
    keys_read = all(None not in (row.round, row.table, row.deal) for row in rows)
    _score_matches(matches, deal_rows, house_rules, errors, keys_read=keys_read)
    _check_rounds(matches, errors)
    if errors:
        plan.errors = errors.lines()
        return plan
    plan.players = players
    plan.matches = [matches[key] for key in sorted(matches)]
    return plan


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def _players(names: list[str], *, club, by) -> dict[str, Player]:
    """The player of each name: the one with exactly that name in `club` (no club: `None`;
    `club.services.players_named`, the register's one look-up), else a new one."""
    found = players_named(names, club=club)  # at most one per name and club
    new = [Player(name=name, club=club) for name in names if name not in found]
    if new:
        for player in bulk_create_with_history(
            new, Player, default_user=by, default_change_reason="import"
        ):
            found[player.name] = player
    return found


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


@transaction.atomic
def import_plan_apply(*, plan: ImportPlan, name: str, date, house_rules: rules.HouseRules,
                      organiser, club=None, claim: str | None = None) -> Tournament:
    """Write an error-free `plan` as a new round-robin tournament and return it.

    `claim` (the site's preview digest, at most 64 characters): write only if no import has
    taken this claim yet; raises `AlreadyImported` (with the tournament that import made) if
    one has, even one running at this moment, so a double click imports once.

    Creates the tournament (house rules `house_rules`, which must be those the plan was read
    with; default tie-breaks; `organiser`, if given, as its organiser), an entry per player
    numbered in order of first appearance (reusing the players of the same name in `club`, a
    `club.Club` or None: the tournament's club, whose page and season ladders list it), the
    rounds, pairings and matches (house rules snapshot, first dealer A) and the deals, through
    `scoring.services.match_import_deals`. Status: finished when every match is, else running.
    All in one transaction.

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

    players = _players(plan.players, club=tournament.club, by=organiser)
    entries = {
        entry.player_id: entry
        for entry in bulk_create_with_history(
            [Entry(tournament=tournament, player=players[name], number=number)
             for number, name in enumerate(plan.players, start=1)],
            Entry, default_user=organiser, default_change_reason="import",
        )
    }
    rounds = {
        round_.number: round_
        for round_ in Round.objects.bulk_create(
            [Round(tournament=tournament, number=number) for number in plan.rounds]
        )
    }
    snapshot = house_rules.to_dict()
    matches = bulk_create_with_history(
        [Match(player_a=players[m.player_a], player_b=players[m.player_b], first_dealer="A",
               house_rules_snapshot=snapshot) for m in plan.matches],
        Match, default_user=organiser, default_change_reason="import",
    )
    Pairing.objects.bulk_create([
        Pairing(round=rounds[planned.round], table=planned.table, match=match,
                entry_a=entries[match.player_a_id], entry_b=entries[match.player_b_id])
        for planned, match in zip(plan.matches, matches, strict=True)
    ])
    for planned, match in zip(plan.matches, matches, strict=True):
        scoring_services.match_import_deals(
            match=match, scores=[deal.score for deal in planned.deals], by=organiser
        )
    tournament.refresh_from_db(fields=["status"])
    finished = all(match.status == Match.Status.FINISHED for match in matches)
    status = Tournament.Status.FINISHED if finished else Tournament.Status.RUNNING
    if tournament.status != status:
        tournament.status = status
        tournament._history_user = organiser
        tournament.save(update_fields=["status"])
    if status == Tournament.Status.FINISHED:
        rating_services.ratings_recompute_on_commit()
    if claimed is not None:
        claimed.tournament = tournament
        claimed.save(update_fields=["tournament"])
    return tournament
