from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from server.demo import DEMO_KNOCKOUT, DEMO_ORGANISER, DEMO_PASSWORD, load_demo


class Command(BaseCommand):
    help = (
        "Load the demo club, players, round robin and knockout (safe to run again). "
        "Refused with DEBUG off: the demo organiser's password is published."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-demo-on-server", action="store_true",
            help="load the demo even with DEBUG off (a public demo site, never a real club)",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["allow_demo_on_server"]:
            raise CommandError(
                f"DEBUG is off: this looks like a real club's server, and the demo would add "
                f"the organiser «{DEMO_ORGANISER}» with the published password. Create the "
                f"first organiser with `manage.py createsuperuser` instead (README), or pass "
                f"--allow-demo-on-server for a public demo site."
            )
        tournament = load_demo()
        organiser = get_user_model().objects.get(username=DEMO_ORGANISER)
        login = (
            f"{DEMO_ORGANISER} / {DEMO_PASSWORD}"
            if organiser.check_password(DEMO_PASSWORD)
            else f"{DEMO_ORGANISER} (its password was changed and stays so)"
        )
        self.stdout.write(
            f"Demo ready: tournament #{tournament.pk} «{tournament.name}» and the knockout "
            f"«{DEMO_KNOCKOUT}». Organiser log-in: {login}"
        )
