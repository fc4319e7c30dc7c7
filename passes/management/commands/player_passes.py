"""`manage.py player_passes CLUB_ID [--create]`: the passes of a club's players, one line each
-- name, a tab, the pass's address (`SITE_URL` + `/pass/<token>/`, as its QR code carries it)
-- to send to the players or print. A player without a pass that opens (none made yet, or
revoked) has no line on the standard output: they are named on the standard error, so the
output can be piped as it is; `--create` first makes a pass for every player who has none (a
revoked pass stays revoked: the organiser renews it)."""

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from core.site_address import is_loopback, site_url
from passes import services


class Command(BaseCommand):
    help = "Print the passes of a club's players (name, tab, address)."

    def add_arguments(self, parser):
        parser.add_argument("club_id", type=int)
        parser.add_argument("--create", action="store_true",
                            help="make a pass for every player of the club who has none")

    def handle(self, *args, club_id, create=False, **options):
        club = Club.objects.filter(pk=club_id).first()
        if club is None:
            raise CommandError(f"There is no club {club_id}.")
        base = site_url().rstrip("/")
        if is_loopback(base):
            self.stderr.write(
                f"These passes open {base}, this computer's own address: a phone cannot open "
                f"it. Serve the club's network with `make club` (or `manage.py serve_club`).")
        for player, player_pass in services.passes_of_club(club):
            if player_pass is None and create:
                player_pass = services.pass_make(player)
            if player_pass is None:
                self.stderr.write(f"{player.name}\tno pass (make one with --create)")
            elif not player_pass.is_valid:
                self.stderr.write(f"{player.name}\tpass revoked (renew it on the player's page)")
            else:
                self.stdout.write(f"{player.name}\t{services.pass_url(player_pass)}")
