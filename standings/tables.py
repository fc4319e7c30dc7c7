"""django-tables2 tables of the tournament pages."""

import inspect
from functools import lru_cache
from typing import NamedTuple

import django_tables2 as tables
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import formats
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ratings.periods import PROVISIONAL_MATCHES
from standings.labels import TIE_BREAK_LABELS, TIE_BREAK_SHORT_LABELS

NUMBER = {"th": {"class": "num"}, "td": {"class": "num"}}


def _number(verbose_name):
    return tables.Column(verbose_name=verbose_name, attrs=NUMBER)


class StandingsTable(tables.Table):
    """One row per player (dicts from `standings_rows`); the tie-break columns follow the
    tournament's order."""

    rank = _number(_("#"))
    player = tables.Column(verbose_name=_("Player"), order_by=("player_sort",))
    played = _number(_("Played"))
    won = _number(_("Won"))
    lost = _number(_("Lost"))
    gp_for = _number(_("GP for"))
    gp_against = _number(_("GP against"))
    gp_diff = _number(_("GP diff."))

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: "unsigned" if record.get("unsigned") else ""}

    def __init__(self, data, tie_breaks, **kwargs):
        extra = [
            (key, PointsColumn(
                verbose_name=TIE_BREAK_SHORT_LABELS[key], default="–", attrs={
                    "th": {"class": "num", "title": str(TIE_BREAK_LABELS[key])},
                    "td": {"class": "num"},
                },
            ))
            for key in tie_breaks
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_player(self, value, record):
        name = player_link(value, record["player_pk"]) if record.get("player_pk") else value
        if record["withdrawn"]:
            name = format_html("{} ({})", name, _("withdrawn"))
        return with_unsigned_mark(name, record)

    def body(self) -> list["StandingsRow"]:
        """The rows as `standings/partials/standings_table.html` prints them, in the table's
        order (`RequestConfig` sorts the data), each row's cells as HTML: what django-tables2's
        own template would print — each column's `render_<name>` method (value, record), else
        its column's `render` (value), else the value itself, localized and escaped as a
        template's `{{ value }}`; the column's `default` for a missing or empty value; the
        column's `td` attributes; the row's `row_attrs` class, then "even" or "odd". Each
        column's rendering is worked out once, not once per cell (a 200-player Swiss has
        3,400 cells)."""
        columns = [(str(column.accessor), column.column.empty_values, column.default,
                    self._renderer(column), f"<td {column.attrs['td'].as_html()}>")
                   for column in self.columns]
        row_class = self._row_class()
        rows = []
        printed: dict[tuple, str] = {}  # the same small numbers come back in every row
        for number, record in enumerate(self.data):
            cells = []
            for accessor, empty, default, render, td in columns:
                value = record.get(accessor)
                shown = default if value in empty else render(value, record)
                key = (td, type(shown), shown)
                cell = printed.get(key)
                if cell is None:
                    cell = printed[key] = f"{td}{conditional_escape(localize(shown))}</td>"
                cells.append(cell)
            parity = "odd" if number % 2 else "even"
            css = row_class(record)
            rows.append(StandingsRow(f"{css} {parity}" if css else parity,
                                     mark_safe("".join(cells))))  # noqa: S308 (escaped above)
        return rows

    def _renderer(self, column):
        """How `body` prints a value of the bound `column`: (value, record) -> what the cell
        shows."""
        own = getattr(self, f"render_{column.name}", None)
        if own is not None:
            return lambda value, record: own(value=value, record=record)
        if type(column.column).render is not tables.Column.render:
            return lambda value, record: column.column.render(value=value)
        return lambda value, record: value

    def _row_class(self):
        """record -> the class `row_attrs` gives its row ("" for none): a fixed text, or a
        function of `record` (and `table`), its arguments looked up once."""
        value = self.row_attrs.get("class", "")
        if not callable(value):
            return lambda record: value or ""
        wanted = inspect.signature(value).parameters
        return lambda record: value(**{name: given for name, given in
                                       (("record", record), ("table", self))
                                       if name in wanted}) or ""


class StandingsRow(NamedTuple):
    """One row of `StandingsTable.body`: its CSS class and its cells, as HTML."""

    css_class: str
    cells: str


UNSIGNED_MARK = "*"
"""The mark of a standings row that counts a result not yet signed (`table_entry.
provisional_results`), explained under the table."""


def with_unsigned_mark(name, record: dict):
    """`name` (text or safe HTML) followed by the provisional mark when the row `record`
    counts a result the players have not both signed (`record["unsigned"]`)."""
    if not record.get("unsigned"):
        return name
    return format_html('{}&nbsp;<abbr class="unsigned-mark" title="{}">{}</abbr>', name,
                       _("Counts a result not yet signed by both players"), UNSIGNED_MARK)


def points(value) -> str:
    """A score or tie-break value as the pages print it: whole numbers as they are, halves
    (a Swiss's adjusted scores) with one decimal in the active language: 5, 5.5 (5,5)."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else formats.number_format(value, 1)
    return str(value)


class PointsColumn(tables.Column):
    """A number column whose values may have halves (`points`)."""

    def render(self, value):
        return points(value)


class SwissStandingsTable(StandingsTable):
    """A Swiss's standings: the score (wins, and byes when they score) and the byes before
    the match columns; the tie-break columns in the published order (`SWISS_TIE_BREAKS`)."""

    score = _number(_("Pts"))
    byes = _number(_("Byes"))

    class Meta:
        orderable = True
        attrs = {"class": "standings swiss"}
        sequence = ("rank", "player", "score", "played", "won", "lost", "byes", "...")


def standings_rows(standings, unsigned=frozenset()) -> list[dict]:
    """Plain dicts for `StandingsTable` from `selectors.standings` output (a Swiss's rows
    also carry the score and the byes); `unsigned`: ids of the entries with a provisional
    result (`unsigned_entries`), their rows marked."""
    rows = []
    for entry, row in standings:
        rows.append({
            "score": getattr(row, "score", row.won), "byes": getattr(row, "byes", 0),
            "rank": row.rank, "player": entry.player.name, "player_sort": entry.player.name,
            "player_pk": entry.player_id, "unsigned": entry.pk in unsigned,
            "withdrawn": entry.withdrawn, "played": row.played, "won": row.won,
            "lost": row.lost, "gp_for": row.game_points_for,
            "gp_against": row.game_points_against, "gp_diff": row.game_point_difference,
            **{key: value for key, value in row.tie_breaks.items() if value is not None},
        })
    return rows


# --- Club nights, seasons, players ---------------------------------------------------------


WIDE_ONLY = {"th": {"class": "num wide-only"}, "td": {"class": "num wide-only"}}


def player_link(name: str, pk: int) -> str:
    return format_html('<a href="{}">{}</a>', _player_url(pk, get_script_prefix(),
                                                          get_urlconf(settings.ROOT_URLCONF)),
                       name)


@lru_cache(maxsize=8192)
def _player_url(pk: int, prefix: str, urlconf: str) -> str:
    """The player's page: `reverse` once per player, script prefix and URLconf (a standings
    table of 200 players would reverse 200 links on each rendering)."""
    return reverse("clubs:player", args=[pk], urlconf=urlconf)


class ClubNightStandingsTable(StandingsTable):
    """A night's standings: wins, then GP difference, then GP scored (their own columns)."""

    # A phone shows wins and the difference; the wider screen all the columns.
    lost = tables.Column(verbose_name=_("Lost"), attrs=WIDE_ONLY)
    gp_for = tables.Column(verbose_name=_("GP for"), attrs=WIDE_ONLY)
    gp_against = tables.Column(verbose_name=_("GP against"), attrs=WIDE_ONLY)

    class Meta(StandingsTable.Meta):  # the standings' look and their provisional rows
        pass

    def __init__(self, data, **kwargs):
        super().__init__(data, [], orderable=False, **kwargs)

    def render_player(self, value, record):
        return with_unsigned_mark(player_link(value, record["player_pk"]), record)


def provisional_counted(provisional: dict, withdrawn=()) -> dict:
    """The results of `provisional` (`table_entry.provisional_results`) that the standings
    count: those of a player whose results a withdrawal cancelled (`withdrawn`: entries) left
    out."""
    cancelled = {entry.pk for entry in withdrawn}
    return {match: pair for match, pair in provisional.items() if not cancelled & set(pair)}


def unsigned_entries(provisional: dict) -> frozenset[int]:
    """The entry ids of both players of each result in `provisional`
    (`table_entry.provisional_results`: {match id: (entry_a id, entry_b id)})."""
    return frozenset(entry for pair in provisional.values() for entry in pair if entry)


class SeasonTable(tables.Table):
    """A season ladder (rows from `season_rows`)."""

    rank = _number(_("#"))
    player = tables.Column(verbose_name=_("Player"))
    played = _number(_("Played"))
    won = _number(_("Won"))
    win_percent = _number(_("Win %"))
    gp_diff = _number(_("GP diff."))
    # Translators: a narrow column header of the season table (Bulgarian: abbreviated).
    rating = tables.Column(verbose_name=pgettext_lazy("column", "Rating"), default="–", attrs={
        "th": {"class": "num", "title": _("Rating over every event (Glicko-2)")},
        "td": {"class": "num"},
    })

    class Meta:
        orderable = False
        attrs = {"class": "standings season"}

    def render_player(self, value, record):
        return player_link(value, record["player_pk"])

    def render_rating(self, value):
        return rating_html(value)

    def render_win_percent(self, value):
        return formats.number_format(value, 1)

    def render_gp_diff(self, value):
        return f"{value:+d}" if value else "0"


def season_rows(rows, players, ratings=None) -> list[dict]:
    """Plain dicts for `SeasonTable` from `ladder.LadderRow`s; `players` by id; `ratings`:
    `PlayerRating` by player id (`selectors.ratings_of`), the unrated missing."""
    ratings = ratings or {}
    return [{
        "rank": row.rank or "", "player": players[row.player].name, "player_pk": row.player,
        "played": row.played, "won": row.won, "win_percent": row.win_percent,
        "gp_diff": row.game_point_difference, "rating": ratings.get(row.player),
    } for row in rows]


def rating_html(rating) -> str:
    """A `PlayerRating` as a whole number of rating points (rounded half up, as the
    templates' `floatformat`), with a "?" (explained on hover) when it is provisional, e.g.
    "1623" or "1548?"."""
    if not rating.provisional:
        return floatformat(rating.rating, 0)
    return format_html(
        '{}<abbr class="provisional" title="{}">?</abbr>',
        floatformat(rating.rating, 0),
        _("Provisional: fewer than %(count)s rated matches") % {"count": PROVISIONAL_MATCHES},
    )


class HeadToHeadTable(tables.Table):
    opponent = tables.Column(verbose_name=_("Opponent"))
    played = _number(_("Played"))
    won = _number(_("Won"))
    lost = _number(_("Lost"))
    gp_for = _number(_("GP for"))
    gp_against = _number(_("GP against"))

    class Meta:
        orderable = False
        attrs = {"class": "standings head-to-head"}

    def render_opponent(self, value, record):
        return player_link(value, record["opponent_pk"])
