"""How fast the PDFs build: seconds per scorecard page and for a 32-match round pack.

Standalone (`make bench` runs it): a throwaway SQLite database in a temporary directory, a
64-player round robin started the usual way (`tournaments.services.tournament_start`), then
round 1 (32 matches) printed. Targets: under 0.1 s per scorecard page and under 4 s for the
pack (round sheet + 32 scorecards = 17 pages). Prints the figures and whether each target is
met; never fails.
"""

import datetime
import io
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYERS = 64
PAGE_TARGET_SECONDS = 0.1
PACK_TARGET_SECONDS = 4.0
REPEATS = 3


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="print-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ["MEDIA_ROOT"] = str(Path(workdir) / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    warnings.simplefilter("ignore")  # the development SECRET_KEY warning

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from club.models import Player
    from tournaments import selectors, services
    from tournaments.models import Tournament
    from tournaments.printing import documents

    started = time.perf_counter()
    tournament = Tournament.objects.create(
        name="Бенчмарк 64", date=datetime.date(2026, 12, 5), venue="Читалище „Светлина“",
        format=Tournament.Format.ROUND_ROBIN,
    )
    for player in Player.objects.bulk_create(
        Player(name=f"Играч Бенчмарков {number}") for number in range(1, PLAYERS + 1)
    ):
        services.entry_add(tournament=tournament, player=player)
    services.tournament_start(tournament=tournament)
    round_ = tournament.rounds.get(number=1)
    pairings = list(selectors.pairings_of_round(round_).select_related("round__tournament"))
    matches = sum(1 for p in pairings if not p.is_bye)
    print(f"set-up: {PLAYERS}-player round robin, round 1 has {matches} matches "
          f"({time.perf_counter() - started:.1f} s)")

    documents.render_scorecards(pairings[:2], False, "bg")  # warm-up: fonts, templates

    page_times, pack_times, pages = [], [], 0
    for _ in range(REPEATS):
        started = time.perf_counter()
        pdf = documents.render_scorecards(pairings, False, "bg")
        elapsed = time.perf_counter() - started
        pages = page_count(pdf)
        page_times.append(elapsed / pages)
        started = time.perf_counter()
        pack = documents.render_round_pack(round_, "bg")
        pack_times.append(time.perf_counter() - started)
    pack_pages = page_count(pack)

    per_page, pack_seconds = statistics.median(page_times), statistics.median(pack_times)
    started = time.perf_counter()
    sum(i * i for i in range(2_000_000))  # a fixed loop: this machine's speed varies by run
    print(f"calibration loop {(time.perf_counter() - started) * 1000:.0f} ms")
    print(f"scorecards: {pages} pages, {per_page:.3f} s per page "
          f"(target < {PAGE_TARGET_SECONDS} s): {verdict(per_page < PAGE_TARGET_SECONDS)}")
    print(f"round pack: {pack_pages} pages, {pack_seconds:.2f} s "
          f"(target < {PACK_TARGET_SECONDS} s): {verdict(pack_seconds < PACK_TARGET_SECONDS)}")
    print(f"(median of {REPEATS}; {len(pack) / 1024:.0f} KiB per pack)")


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader  # a dev dependency (`pip install -e ".[dev]"`), as is the bench

    return len(PdfReader(io.BytesIO(pdf)).pages)


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
