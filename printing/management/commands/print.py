"""Build one PDF now, without Celery.

    python manage.py print 3 --what round --round 2 --lang en --out round-2.pdf
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from core.messages import user_message
from events.models import Tournament
from printing import jobs, kinds
from printing.errors import PrintError


class Command(BaseCommand):
    help = (
        "Print a tournament's scorecards, round pack (round sheet + scorecards), standings, "
        "bracket or cross-table to a PDF file, synchronously."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", help="the tournament's number (id)")
        parser.add_argument(
            "--what", required=True, help=f"one of: {', '.join(kinds.KINDS)}"
        )
        parser.add_argument("--round", dest="round_number", help="round number (scorecards, round)")
        parser.add_argument(
            "--filled", action="store_true", help="print the entered deals on the scorecards"
        )
        parser.add_argument(
            "--lang", default=None,
            help=f"language: {', '.join(code for code, _ in settings.LANGUAGES)} "
                 "(default the event's language)",
        )
        parser.add_argument("--out", required=True, help="the PDF file to write")

    def handle(self, *args, tournament_id, what, round_number, filled, lang, out, **options):
        # Validated here, not by argparse `choices`/`type`: a bad value is a CommandError
        # (exit code 1, one clear line) from the command line and from call_command alike.
        tournament = Tournament.objects.filter(pk=_number(tournament_id, "tournament id")).first()
        if tournament is None:
            raise CommandError(f"No tournament with id {tournament_id}.")
        number = _number(round_number, "round") if round_number is not None else None
        lang = lang or tournament.language
        try:
            jobs.check_request(tournament, what, number, lang)
        except PrintError as error:
            with translation.override("en"):  # the command's other messages are English
                raise CommandError(user_message(error)) from None
        pdf, _ = kinds.build(
            tournament=tournament, kind=what, round_number=number, language=lang, filled=filled,
        )
        path = Path(out).expanduser().resolve()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(pdf)
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}.") from None
        self.stdout.write(str(path))


def _number(value: str, what: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise CommandError(f"The {what} must be a whole number, not {value!r}.") from None
    if number < 1:
        raise CommandError(f"The {what} must be 1 or more, not {number}.")
    return number
