"""How fast the PDFs build: a scorecard page and a 32-match round pack, against a trivial page.

Standalone (`make bench` runs it): a throwaway SQLite database in a temporary directory, a
64-player round robin started the usual way (`events.services.tournament_start`), then
round 1 (32 matches) printed: its blank scorecards (16 A4 pages, two cards a page) and its
round pack as the print job builds it (`documents.render_round_pack`: the round sheet, then the
32 scorecards; 17 pages).

The floor, measured in the same process between the builds: a trivial one-page document (a
line of text in the same font, no image) built the same way (`printing.pdf.render_html`: the
same font configuration, stylesheet, URL fetcher and `write_pdf`). Each build starts from empty
QR and image caches, as the first print of a new round does (a reprint finds its QR codes made).
Wall-clock medians decide the targets; the process's CPU time is printed beside them, for a
machine shared with other work.

Targets: a scorecard page <= 2.5x the floor; the round pack <= 1 s. The looser
targets are printed too: < 0.1 s a scorecard page, < 4 s for the pack. `--repeats N` (default
5; medians). Prints the figures, the load average and the calibration loop, and as its last
line one JSON object; never fails.
"""

import argparse
import datetime
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import calibration_ms  # noqa: E402

PLAYERS = 64
PAGE_RATIO_TARGET = 2.5
PACK_TARGET_SECONDS = 1.0
OLD_PAGE_TARGET_SECONDS = 0.1
OLD_PACK_TARGET_SECONDS = 4.0
FLOOR_RUNS = 3
"""Trivial documents timed before each build (the floor is their median over all repeats)."""
TRIVIAL_HTML = (
    '<!doctype html><html lang="bg"><head><meta charset="utf-8"><title>Под</title></head>'
    "<body><p>Кръг 1 · Маса 1 — Играч Бенчмарков 1 срещу Играч Бенчмарков 2</p></body></html>"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats

    workdir = tempfile.mkdtemp(prefix="print-bench-")
    try:
        run(workdir, repeats)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)  # the throwaway database and media


def run(workdir: str, repeats: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ["MEDIA_ROOT"] = str(Path(workdir) / "media")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    warnings.simplefilter("ignore")  # the development SECRET_KEY warning

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from club.models import Player
    from events import selectors, services
    from events.models import Tournament
    from printing import documents, pdf, scorecard

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

    # Warm-up: WeasyPrint's import, fonts, the stylesheet, templates, the grid image.
    documents.render_scorecards(pairings[:2], False, "bg")
    pdf.render_html([TRIVIAL_HTML])

    cpu_times: dict[str, list[float]] = {"floor": [], "cards": [], "pack": []}

    def timed(kind, build):
        scorecard.qr_image.cache_clear()  # a new round's QR codes are not made yet
        started, cpu = time.perf_counter(), time.process_time()
        result = build()
        cpu_times[kind].append(time.process_time() - cpu)
        return time.perf_counter() - started, result

    floor_times, card_times, pack_times = [], [], []
    for _ in range(repeats):
        for _ in range(FLOOR_RUNS):
            elapsed, trivial = timed("floor", lambda: pdf.render_html([TRIVIAL_HTML]))
            floor_times.append(elapsed)
        elapsed, cards = timed(
            "cards", lambda: documents.render_scorecards(pairings, False, "bg"))
        card_times.append(elapsed)
        elapsed, pack = timed("pack", lambda: documents.render_round_pack(round_, "bg"))
        pack_times.append(elapsed)
    cpu = {kind: statistics.median(times) for kind, times in cpu_times.items()}

    trivial_pages, pages, pack_pages = page_count(trivial), page_count(cards), page_count(pack)
    floor = statistics.median(floor_times) / trivial_pages
    per_page = statistics.median(card_times) / pages
    pack_seconds = statistics.median(pack_times)
    ratio = per_page / floor
    load = os.getloadavg()
    calibration = calibration_ms()
    met = {
        "page_ratio": ratio <= PAGE_RATIO_TARGET,
        "pack": pack_seconds <= PACK_TARGET_SECONDS,
        "old_page": per_page < OLD_PAGE_TARGET_SECONDS,
        "old_pack": pack_seconds < OLD_PACK_TARGET_SECONDS,
    }
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"calibration loop {calibration:.0f} ms; medians of {repeats}")
    print(f"floor: a trivial one-page document, {floor * 1000:.1f} ms")
    print(f"scorecards: {pages} pages, {per_page * 1000:.1f} ms per page = {ratio:.2f}x the floor "
          f"(target <= {PAGE_RATIO_TARGET}x): {verdict(met['page_ratio'])}; "
          f"old target < {OLD_PAGE_TARGET_SECONDS} s: {verdict(met['old_page'])}")
    print(f"round pack: {pack_pages} pages, {pack_seconds:.2f} s = "
          f"{pack_seconds / floor:.0f}x the floor (target <= {PACK_TARGET_SECONDS} s): "
          f"{verdict(met['pack'])}; old target < {OLD_PACK_TARGET_SECONDS} s: "
          f"{verdict(met['old_pack'])}")
    print(f"({len(pack) / 1024:.0f} KiB per pack; CPU time of this process, medians: floor "
          f"{cpu['floor'] * 1000:.1f} ms, scorecard page {cpu['cards'] / pages * 1000:.1f} ms = "
          f"{cpu['cards'] / pages / cpu['floor']:.2f}x, pack {cpu['pack']:.2f} s)")
    print(json.dumps({
        "load_average": [round(value, 2) for value in load],
        "calibration_ms": round(calibration),
        "repeats": repeats,
        "floor_ms": round(floor * 1000, 2),
        "scorecard_pages": pages,
        "scorecard_page_ms": round(per_page * 1000, 2),
        "scorecard_page_ratio": round(ratio, 2),
        "scorecard_page_ratio_target": PAGE_RATIO_TARGET,
        "pack_pages": pack_pages,
        "pack_s": round(pack_seconds, 3),
        "pack_ratio": round(pack_seconds / floor, 1),
        "pack_target_s": PACK_TARGET_SECONDS,
        "pack_kib": round(len(pack) / 1024),
        "cpu_floor_ms": round(cpu["floor"] * 1000, 2),
        "cpu_scorecard_page_ms": round(cpu["cards"] / pages * 1000, 2),
        "cpu_pack_s": round(cpu["pack"], 3),
        "old_scorecard_page_target_s": OLD_PAGE_TARGET_SECONDS,
        "old_pack_target_s": OLD_PACK_TARGET_SECONDS,
        "met": met,
    }, ensure_ascii=False))


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader  # a dev dependency (`pip install -e ".[dev]"`), as is the bench

    return len(PdfReader(io.BytesIO(pdf)).pages)


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
