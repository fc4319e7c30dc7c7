"""`manage.py standings TOURNAMENT_ID [--format text|csv]`: print a tournament's standings,
as an aligned table (default) or as the CSV the standings download gives (without the BOM)."""

from django.core.management.base import BaseCommand, CommandError

from events.models import Tournament
from exchange.exporting import csv_text, standings_dataset, text_table


class Command(BaseCommand):
    help = "Print a tournament's standings (text table or CSV)."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--format", choices=["text", "csv"], default="text")

    def handle(self, *args, tournament_id, **options):
        try:
            tournament = Tournament.objects.get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise CommandError(f"There is no tournament {tournament_id}.") from None
        data = standings_dataset(tournament)
        if options["format"] == "csv":
            self.stdout.write(csv_text(data, lineterminator="\n"), ending="")
        else:
            self.stdout.write(text_table(data), ending="")
