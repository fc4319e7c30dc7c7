"""`manage.py entry_links EVENT_ID [--round N]`: the players' links of an event's open matches,
one line each -- table, players, URL (`SITE_URL` + `/p/<token>/`) -- to send to the players or
print. A finished (or forfeited, or unplayed) match has no line; a bye has no match."""

from django.core.management.base import BaseCommand, CommandError

from core.site_address import is_loopback
from events.models import Pairing, Tournament
from printing.scorecard import site_url
from tableside import table_entry


class Command(BaseCommand):
    help = "Print the players' entry links of an event's open matches."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--round", type=int, dest="round_number")

    def handle(self, *args, event_id, round_number=None, **options):
        try:
            event = Tournament.objects.get(pk=event_id)
        except Tournament.DoesNotExist:
            raise CommandError(f"There is no event {event_id}.") from None
        if not table_entry.players_may_enter(event.entry_mode):
            raise CommandError(
                f"In event {event_id} only the organisers enter results (entry mode "
                f"{event.entry_mode}); there are no players' links."
            )
        pairings = (
            Pairing.objects.filter(round__tournament=event, match__isnull=False)
            .exclude(match__status__in=("finished", "forfeited", "unplayed"))
            .select_related("round", "match__player_a", "match__player_b")
            .order_by("round__number", "table", "pk")
        )
        if round_number is not None:
            pairings = pairings.filter(round__number=round_number)
        base = site_url().rstrip("/")
        if is_loopback(base):
            self.stderr.write(
                f"These links open {base}, this computer's own address: a phone cannot open "
                f"it. Serve the club's network with `make club` (or `manage.py serve_club`).")
        for pairing in pairings:
            match = pairing.match
            table = pairing.table if pairing.table is not None else "-"
            self.stdout.write(
                f"{pairing.round.number}\t{table}\t{match.player_a.name} – "
                f"{match.player_b.name}\t{base}{table_entry.entry_path(match)}"
            )
