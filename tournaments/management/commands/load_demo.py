from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_KNOCKOUT, DEMO_ORGANISER, DEMO_PASSWORD, load_demo


class Command(BaseCommand):
    help = "Load the demo club, players, round robin and knockout (safe to run again)."

    def handle(self, *args, **options):
        tournament = load_demo()
        self.stdout.write(
            f"Demo ready: tournament #{tournament.pk} «{tournament.name}» and the knockout "
            f"«{DEMO_KNOCKOUT}». Organiser log-in: {DEMO_ORGANISER} / {DEMO_PASSWORD}"
        )
