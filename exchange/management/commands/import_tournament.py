"""`manage.py import_tournament FILE.csv --name NAME [--date YYYY-MM-DD] [--rules pagat]
[--organiser USERNAME] [--club ID]`: a tournament from a deal log (format:
`exchange.importing`).

The tournament belongs to the club `--club` (its id; the club page and season ladders list the
event), by default the organiser's club when the organiser organises exactly one, else to no
club.

The players are the club's (or, with no club, the players of no club), found by name or by
the name written another way ("ivan petrov" for Иван Петров: `importing.names_matched`,
among the players the organiser may see, or all without `--organiser`); each name found the
second way is printed with its player. The new tournament's id is printed alone on the last
line (for scripts). Any error in the file rejects all of it: the `line N: message` list is
shown and nothing is written (exit 1). Messages are in English whatever the site's language.
A file holds at most `importing.MAX_ROWS` deals (`importing.MAX_BYTES`), as through the
site. The file is read as it streams, never whole.

While it reads and writes, a progress bar on stderr (`ProgressBar`): redrawn in place on a
terminal, a line at each tenth otherwise (a log); none with `--verbosity 0`.
"""

import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.utils import timezone, translation

from club.models import Club
from events.forms import own_club
from exchange.importing import import_plan_apply, names_matched, parse_deal_log
from scoring import rules

STAGE_LABELS = {"check": "checking", "write": "writing"}


class ProgressBar:
    """`importing.Progress` drawn on `stream` (a command's `OutputWrapper`, a terminal when
    `tty`): ``checking [####....]  40% 80,000/200,001 lines``; in place on a terminal, else
    one line at each tenth."""

    WIDTH = 30
    UNITS = {"check": "lines", "write": "deals"}

    def __init__(self, stream: OutputWrapper, *, tty: bool) -> None:
        self.stream, self.tty = stream, tty
        self.last: tuple[str, int] | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        fraction = min(1.0, done / total) if total else 1.0
        tenth = int(fraction * 10)
        if not self.tty and self.last == (stage, tenth):
            return
        self.last = (stage, tenth)
        filled = int(fraction * self.WIDTH)
        text = (f"{STAGE_LABELS[stage]:8} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                f"{int(fraction * 100):3d}% {done:,}/{total:,} {self.UNITS[stage]}")
        if self.tty:
            self.stream.write("\r" + text, style_func=str, ending="\n" if fraction >= 1 else "")
        else:
            self.stream.write(text, style_func=str)
        self.stream.flush()


class Command(BaseCommand):
    help = (
        "Import a round-robin tournament from a deal-log CSV "
        "(round,table,player_a,player_b,deal,winner,game_points,reason)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="UTF-8 CSV file, one row per deal")
        parser.add_argument("--name", required=True, help="name of the new tournament")
        parser.add_argument("--date", help="YYYY-MM-DD (default: today)")
        parser.add_argument(
            "--rules", default="default",
            help=f"house-rules preset: {', '.join(rules.PRESETS)} (default: default)",
        )
        parser.add_argument("--organiser", help="username of the tournament's organiser")
        parser.add_argument(
            "--club", type=int,
            help="id of the tournament's club (default: the organiser's club, if exactly one)",
        )

    def handle(self, *args, **options):
        progress = None
        if options["verbosity"] > 0:
            progress = ProgressBar(self.stderr, tty=self.stderr.isatty())
        with translation.override("en"):
            tournament, plan, names = self._import(options, progress)
        self.stdout.write(
            f"Imported «{tournament.name}»: {len(plan.players)} players, "
            f"{len(plan.matches)} matches ({plan.finished_count} finished), "
            f"{plan.deal_count} deals, {len(plan.rounds)} rounds; status {tournament.status}; "
            f"club: {tournament.club or '(none)'}."
        )
        for name, player in names.matched:
            self.stdout.write(f"{name}: the register's {player.name} (id {player.pk}).")
        for name, players in names.unmatched:
            alike = ", ".join(player.name for player in players)
            self.stdout.write(f"{name}: a new player, although the register has {alike}.")
        self.stdout.write(str(tournament.pk))

    def _import(self, options, progress):
        name = " ".join(options["name"].split())
        if not name:
            raise CommandError("--name is empty; give the tournament a name.")
        try:
            house_rules = rules.HouseRules.preset(options["rules"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        date = timezone.localdate()
        if options["date"]:
            try:
                date = datetime.date.fromisoformat(options["date"])
            except ValueError:
                raise CommandError(
                    f"--date {options['date']!r} is not a date; write it as YYYY-MM-DD."
                ) from None
        organiser = None
        if options["organiser"]:
            users = get_user_model().objects
            try:
                organiser = users.get(**{users.model.USERNAME_FIELD: options["organiser"]})
            except users.model.DoesNotExist:
                raise CommandError(f"There is no user {options['organiser']!r}.") from None
        club = own_club(organiser) if organiser is not None else None
        if options["club"] is not None:
            club = Club.objects.filter(pk=options["club"]).first()
            if club is None:
                raise CommandError(f"There is no club with id {options['club']}.")
        try:
            with Path(options["file"]).open("rb") as file:
                plan = parse_deal_log(file, house_rules=house_rules, progress=progress)
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error.strerror}.") from None
        if plan.errors:
            raise CommandError(
                f"{options['file']} was not imported; nothing was written:\n"
                + "\n".join(plan.errors)
            )
        names = names_matched(plan.players, club=club, organiser=organiser)
        try:
            tournament = import_plan_apply(
                plan=plan, name=name, date=date, house_rules=house_rules, organiser=organiser,
                club=club, progress=progress,
            )
        except ValidationError as error:
            messages = [f"{field}: {' '.join(errors)}"
                        for field, errors in error.message_dict.items()]
            raise CommandError("Not imported: " + "; ".join(messages)) from None
        return tournament, plan, names
