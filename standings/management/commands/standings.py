"""`manage.py standings TOURNAMENT_ID [--format text|csv|trf]`: print a tournament's
standings, as an aligned table (default), as the CSV the standings download gives (without
the BOM), or as FIDE's tournament report file (TRF-16, `exchange.trf`; a Swiss or a round
robin only, else exit 1)."""

from django.core.management.base import BaseCommand, CommandError

from events.models import Tournament
from exchange.exporting import csv_text, standings_dataset, text_table
from exchange.trf import NotExportable, trf_text


class Command(BaseCommand):
    help = "Print a tournament's standings (text table, CSV or FIDE TRF-16)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--format", choices=["text", "csv", "trf"], default="text")

    def handle(self, *args, tournament_id, **options):
        try:
            tournament = Tournament.objects.get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise CommandError(f"There is no tournament {tournament_id}.") from None
        if options["format"] == "trf":
            try:
                self.stdout.write(trf_text(tournament), ending="")
            except NotExportable:
                raise CommandError("Only a Swiss or a round robin has a TRF report.") from None
            return
        data = standings_dataset(tournament)
        if options["format"] == "csv":
            self.stdout.write(csv_text(data, lineterminator="\n"), ending="")
        else:
            self.stdout.write(text_table(data), ending="")
