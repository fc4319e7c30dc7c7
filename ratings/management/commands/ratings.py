"""`manage.py ratings [--club ID] [--format text|csv]`: every rated player's Glicko-2 rating,
recomputed from the record (`rating_services.ratings_compute`; nothing is written), best first.

One row per rated player: `player` (name), `rating` and `deviation` (rating points, one
decimal), `volatility` (sigma, six decimals), `matches`, `won`, `lost` (rated matches: finished
matches of public events; forfeits and walkovers are not rated) and `provisional` (`yes` with
fewer than `ratings.PROVISIONAL_MATCHES` matches, else `no`). The ratings always come from
every public event; `--club ID` lists only the players of that club. `--format csv` prints
CSV with that header (column names are fixed keys, not translated); the default is an aligned
table. An unknown club id is refused in the active language (the site's, Bulgarian by
default) with exit status 1.
"""

import tablib
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from club.models import Club, Player
from ratings.services import ratings_compute

COLUMNS: tuple[str, ...] = (
    "player", "rating", "deviation", "volatility", "matches", "won", "lost", "provisional",
)
"""The columns of `ratings_dataset`, in order."""
NUMERIC = frozenset({"rating", "deviation", "volatility", "matches", "won", "lost"})


def ratings_dataset(club: Club | None = None) -> tablib.Dataset:
    """The ratings the record gives now, best first, as a `tablib.Dataset` of `COLUMNS`
    (strings; ratings and deviations in rating points, one decimal): every rated player, or
    only those of `club`. Two queries."""
    rows = ratings_compute().players
    players = Player.objects.filter(pk__in=[row.player for row in rows])
    if club is not None:
        players = players.filter(club=club)
    names = dict(players.values_list("pk", "name"))
    data = tablib.Dataset(headers=list(COLUMNS), title="ratings")
    for row in rows:
        if row.player not in names:
            continue
        data.append([
            names[row.player], f"{row.rating:.1f}", f"{row.deviation:.1f}",
            f"{row.volatility:.6f}", str(row.matches), str(row.won), str(row.lost),
            "yes" if row.provisional else "no",
        ])
    return data


def aligned(data: tablib.Dataset) -> str:
    """`data` as a plain-text table: numbers right-aligned, text left, a rule under the
    header."""
    header = list(data.headers)
    widths = [max(len(cell) for cell in [name, *data[name]]) for name in header]

    def line(cells) -> str:
        return "  ".join(
            cell.rjust(width) if name in NUMERIC else cell.ljust(width)
            for name, cell, width in zip(header, cells, widths, strict=True)
        ).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in data)]) + "\n"


class Command(BaseCommand):
    help = "Print every rated player's Glicko-2 rating, recomputed from the record."

    def add_arguments(self, parser):
        parser.add_argument("--club", type=int, help="only the players of the club with this id")
        parser.add_argument("--format", choices=["text", "csv"], default="text")

    def handle(self, *args, **options):
        club = None
        if options["club"] is not None:
            club = Club.objects.filter(pk=options["club"]).first()
            if club is None:
                raise CommandError(
                    _("There is no club with id %(id)s; the clubs' ids are in the admin.")
                    % {"id": options["club"]}
                )
        data = ratings_dataset(club)
        if options["format"] == "csv":
            self.stdout.write(data.export("csv", lineterminator="\n"), ending="")
        else:
            self.stdout.write(aligned(data), ending="")
