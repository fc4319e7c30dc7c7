"""A tournament's data out: the standings and the full deal log as `tablib.Dataset`s, which
the views and the `standings` command turn into CSV, XLSX or text.

Column names are fixed keys, not translated, so the files can be read back by programs: the
deal log is exactly the format `tournaments.importing` reads, so exporting and importing gives
the same standings (forfeits and unplayed matches have no deals and are not in the log).
"""

import tablib

from scoring.models import Deal
from tournaments import selectors
from tournaments.importing import COLUMNS as DEAL_LOG_COLUMNS
from tournaments.models import Tournament

STANDINGS_COLUMNS: tuple[str, ...] = (
    "rank", "player", "played", "won", "lost", "gp_for", "gp_against", "gp_diff",
)
"""The first columns of the standings; the tie-break keys of the tournament follow in its
order (`head_to_head`, `game_point_difference`, ... as in `tournaments.pure.standings`). A
tie-break that was not applied (head-to-head of a player nobody is level with) is empty."""


def standings_dataset(tournament: Tournament) -> tablib.Dataset:
    """The standings (`selectors.standings`), best first; game points are `gp_*`."""
    tie_breaks = list(tournament.tie_breaks)
    data = tablib.Dataset(headers=[*STANDINGS_COLUMNS, *tie_breaks], title="standings")
    for entry, row in selectors.standings(tournament):
        data.append([
            row.rank, entry.player.name, row.played, row.won, row.lost, row.game_points_for,
            row.game_points_against, row.game_point_difference,
            *(row.tie_breaks.get(key) for key in tie_breaks),
        ])
    return data


def deal_log_dataset(tournament: Tournament) -> tablib.Dataset:
    """Every deal of the tournament, by round, table and deal number, in the import format
    (`round,table,player_a,player_b,deal,winner,game_points,reason`; a draw's winner is
    `draw`). One query."""
    data = tablib.Dataset(headers=list(DEAL_LOG_COLUMNS), title="deals")
    rows = (
        Deal.objects.filter(match__pairing__round__tournament=tournament)
        .order_by("match__pairing__round__number", "match__pairing__table", "number")
        .values_list(
            "match__pairing__round__number", "match__pairing__table", "match__player_a__name",
            "match__player_b__name", "number", "winner", "game_points", "reason",
        )
    )
    for round_, table, player_a, player_b, number, winner, game_points, reason in rows:
        data.append([
            round_, table, player_a, player_b, number, winner or "draw", game_points, reason,
        ])
    return data


def text_table(data: tablib.Dataset) -> str:
    """`data` as an aligned plain-text table (numbers right, text left; empty shown as -)."""
    header = [str(name) for name in data.headers]
    body = [["-" if value is None else str(value) for value in row] for row in data]
    numeric = [
        all(isinstance(row[i], int) or row[i] is None for row in data)
        for i in range(len(header))
    ]
    widths = [max(len(cell) for cell in [header[i], *(r[i] for r in body)])
              for i in range(len(header))]

    def line(cells):
        return "  ".join(
            cell.rjust(width) if right else cell.ljust(width)
            for cell, width, right in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in body)]) + "\n"
