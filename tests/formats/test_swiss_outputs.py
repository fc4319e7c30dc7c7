"""A Swiss in the printouts, the exports and the projector: the standings with the score,
the byes and the Swiss tie-break columns, the round sheet with the bye.

The event: nine players (conftest-style fixture of test_swiss_services), round 1 paired
1-5, 6-2, 3-7, 8-4, bye 9, and seat A wins every match 11:0. Worked by hand:
- scores: 1, 6, 3, 8 win (1 point), 9 has the bye (1 point); 5, 2, 7, 4 have 0.
- Buchholz after round 1: a winner's opponent scored 0 -> 0; 9's bye is unplayed, counted as
  a dummy opponent with 9's own score (C.07 (2023) 16.4), 1 -> 1. So 9 leads the 1-point
  group on Buchholz.
- The losers: each opponent scored 1 -> Buchholz 1.
"""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation

from events import registry
from exchange import exporting
from printing import documents
from tests.formats.test_swiss_services import NAMES, event, finish_round  # noqa: F401
from tests.printing.helpers import html_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_round_one(event):  # noqa: F811
    registry.for_tournament(event).start()
    event.refresh_from_db()
    finish_round(event, 1)
    return event


def test_the_standings_export_has_score_byes_and_the_swiss_tie_breaks(after_round_one):
    data = exporting.standings_dataset(after_round_one)
    assert data.headers == [
        "rank", "player", "withdrawn", "played", "won", "lost", "gp_for", "gp_against",
        "game_point_difference", "score", "byes", "buchholz", "buchholz_cut_1",
        "median_buchholz", "sonneborn_berger", "progressive_score", "direct_encounter",
    ]
    rows = {row[1]: dict(zip(data.headers, row, strict=True)) for row in data}
    bye = rows[NAMES[8]]  # number 9
    assert (bye["rank"], bye["played"], bye["score"], bye["byes"], bye["buchholz"]) == (
        1, 0, 1, 1, 1.0)
    first = rows[NAMES[0]]  # number 1 beat 5 (0 points)
    assert (first["score"], first["byes"], first["buchholz"], first["won"]) == (1, 0, 0, 1)
    loser = rows[NAMES[4]]  # number 5 lost to 1 (1 point)
    # The four winners and the four losers are level on everything but the lots drawn at the
    # start: the winners take places 2-5, the losers 6-9.
    assert (loser["score"], loser["buchholz"]) == (0, 1)
    assert loser["rank"] in range(6, 10) and first["rank"] in range(2, 6)


def test_the_csv_download_of_a_swiss(client, after_round_one):
    response = client.get(reverse("data:standings_csv", args=[after_round_one.pk]))
    reader = csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
    headers = next(reader)
    assert "buchholz" in headers and "score" in headers


def test_the_printed_standings_have_the_swiss_columns_and_rule(after_round_one):
    with translation.override("en"):  # as render_standings builds it
        document = documents.standings_document(after_round_one, "en")
    text = html_text(document)
    for header in ("Pts", "Byes", "BH", "BH-1", "Med. BH", "SB", "Prog.", "DE"):
        assert f" {header} " in text, header
    assert "Unplayed rounds (C.07, Article 16)" in text
    assert "a bye scores a win (1)" in text
    assert document.tie_break_labels[0] == "Buchholz (opponents' scores)"


def test_the_round_sheet_prints_the_bye(after_round_one):
    round_ = after_round_one.rounds.get(number=1)
    from events import selectors

    document = documents.round_sheet_document(
        round_, list(selectors.pairings_of_round(round_)), "en")
    text = html_text(document)
    assert f"{NAMES[8]} rests (bye): scores a win" in text


def test_the_projector_shows_the_round_with_the_bye_and_the_score_column(
    client, after_round_one
):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("live:projector", args=[after_round_one.pk])).content
    page = page.decode()
    assert "Round 1" in page and "bye" in page and NAMES[8] in page
    assert ">Pts<" in page and ">BH<" in page


def test_the_standings_pdf_of_a_swiss(after_round_one):
    from tests.printing.helpers import pdf_text

    pages, text = pdf_text(documents.render_standings(after_round_one, "en"))
    assert pages >= 1
    assert "BH-1" in text and "Unplayed rounds" in text
