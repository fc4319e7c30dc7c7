"""`manage.py import_trf FILE [--organiser USERNAME] [--club ID]`: a new Swiss or round robin
from FIDE's tournament report file (TRF-16, `exchange.trf`).

Any problem rejects the whole file: every one is printed as ``line N: message`` and nothing
is written (exit 1). Otherwise the new event's id is printed alone on the last line. Messages
are in English whatever the site's language.
"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from club.models import Club
from exchange.trf import MAX_BYTES, parse_trf, trf_import


class Command(BaseCommand):
    help = "Import a Swiss or round robin from a FIDE TRF-16 file; print the new event's id."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--organiser", help="User name made organiser of the event.")
        parser.add_argument("--club", type=int, help="Id of the club the event belongs to.")

    def handle(self, *args, file: Path, **options):
        with translation.override("en"):
            self._import(file, options)

    def _import(self, file: Path, options: dict) -> None:
        organiser = club = None
        if options["organiser"]:
            try:
                organiser = get_user_model().objects.get(username=options["organiser"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"There is no user {options['organiser']!r}.") from None
        if options["club"] is not None:
            try:
                club = Club.objects.get(pk=options["club"])
            except Club.DoesNotExist:
                raise CommandError(f"There is no club {options['club']}.") from None
        try:
            with file.open("rb") as stream:
                data = stream.read(MAX_BYTES + 1)
        except OSError as problem:
            raise CommandError(f"Cannot read {file}: {problem.strerror}.") from None
        plan = parse_trf(data)
        if plan.errors:
            for message in plan.errors:
                self.stderr.write(message)
            raise CommandError(f"{len(plan.errors)} problem(s) in {file}; nothing imported.")
        tournament = trf_import(plan, organiser=organiser, club=club)
        self.stdout.write(str(tournament.pk))
