"""django-tables2 tables of the tournament pages."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournaments.forms import TIE_BREAK_LABELS, TIE_BREAK_SHORT_LABELS

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

    def __init__(self, data, tie_breaks, **kwargs):
        extra = [
            (key, tables.Column(
                verbose_name=TIE_BREAK_SHORT_LABELS[key], default="–", attrs={
                    "th": {"class": "num", "title": str(TIE_BREAK_LABELS[key])},
                    "td": {"class": "num"},
                },
            ))
            for key in tie_breaks
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_player(self, value, record):
        return f"{value} ({_('withdrawn')})" if record["withdrawn"] else value


def standings_rows(standings) -> list[dict]:
    """Plain dicts for `StandingsTable` from `selectors.standings` output."""
    rows = []
    for entry, row in standings:
        rows.append({
            "rank": row.rank, "player": entry.player.name, "player_sort": entry.player.name,
            "withdrawn": entry.withdrawn, "played": row.played, "won": row.won,
            "lost": row.lost, "gp_for": row.game_points_for,
            "gp_against": row.game_points_against, "gp_diff": row.game_point_difference,
            **{key: value for key, value in row.tie_breaks.items() if value is not None},
        })
    return rows
