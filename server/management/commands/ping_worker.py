import time

from django.core.management.base import BaseCommand, CommandError

from server.models import Heartbeat
from server.tasks import record_heartbeat


class Command(BaseCommand):
    help = "Send a heartbeat task and wait until a worker (or the eager runner) has written it."

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait")

    def handle(self, *args, timeout: float, **options):
        before = Heartbeat.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        record_heartbeat.delay("ping_worker")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            beat = Heartbeat.objects.filter(pk__gt=before, note="ping_worker").first()
            if beat:
                self.stdout.write(f"Heartbeat written by {beat.hostname}")
                return
            time.sleep(0.2)
        raise CommandError(f"No worker answered within {timeout:g} s. Is `make worker` running?")
