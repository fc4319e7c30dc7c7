"""`manage.py simulate_event --format swiss|groups|round_robin|knockout --players N [--rounds R]
[--groups G] [--advance K] [--seed S] [--organiser USER]`: create an event of N generated
players, play every match with random legal deals through the recording services, and print
what happened as one JSON object on the last line (`formats.simulation.report`).

Exit status 1 for options that cannot make an event (nothing is written), 2 for a format this
site does not have yet (or a bad option, as argparse does)."""

import json
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from formats import simulation


class Command(BaseCommand):
    help = "Simulate a whole event with random legal deals and print it as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--format", required=True, choices=simulation.CHOICES)
        parser.add_argument("--players", required=True, type=int)
        parser.add_argument("--rounds", type=int, help="Swiss: rounds to play.")
        parser.add_argument("--groups", type=int, help="Groups: how many groups.")
        parser.add_argument("--advance", type=int, help="Groups: players each group sends on.")
        parser.add_argument("--seed", type=int, help="Same seed, same event (and JSON).")
        parser.add_argument("--organiser", help="User name made organiser of the event.")

    def handle(self, *args, **options):
        by = None
        if options["organiser"]:
            try:
                by = get_user_model().objects.get(username=options["organiser"])
            except get_user_model().DoesNotExist:
                raise CommandError(f"There is no user {options['organiser']!r}.") from None
        asked = simulation.Options(
            format=options["format"], players=options["players"], rounds=options["rounds"],
            groups=options["groups"], advance=options["advance"], seed=options["seed"],
        )
        started = time.perf_counter()
        try:
            result = simulation.simulate(asked, by=by)
        except simulation.FormatMissing as error:
            raise CommandError(str(error), returncode=2) from None
        except simulation.BadOptions as error:
            raise CommandError(str(error)) from None
        self.stderr.write(f"Simulated in {time.perf_counter() - started:.1f} s.")
        self.stdout.write(json.dumps(result, ensure_ascii=False))
