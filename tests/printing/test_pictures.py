"""The pictures in the PDFs: the running score on a filled scorecard, the race under a round
robin's standings, and the cross-table as its own PDF (`crosstable`, A4 landscape).

The round robin of four is the one of `tests/standings/test_charts_pages.py`, whose race is
worked out by hand there: in final order 4 (places 4, 3, 1), 2 (2, 1, 2), 3 (3, 4, 3),
1 (1, 2, 4). `charts.standings_race` puts round r of 3 at x = 36 + (r − 1)·100 and place p at
y = 16 + (p − 1)·20: places 1-4 at y 16, 36, 56, 76.
"""

import datetime
import re

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from events.models import Tournament
from printing import documents, jobs, kinds, scorecard
from printing.errors import PrintError
from printing.models import PrintJob
from tests.printing.helpers import ELEVEN_NIL, cards_of, first_match, html_text, pdf_text, play
from tests.standings import test_charts_pages as worked

four = worked.four
play_rounds = worked.play_rounds

# ELEVEN_NIL: A wins 3, 3, 2, 3 (totals 3, 6, 8, 11). `charts.match_race_strip`: deal d of 4 at
# x = 34 + d·310/4 (111.5, 189, 266.5, 344); g game points at y = 84 − g·74/11:
# 3 → 63.8, 6 → 43.6, 8 → 30.2, 11 → 10. B stays at nought (y 84).
STRIP_A = ('points="34,84 111.5,84 111.5,63.8 189,63.8 189,43.6 266.5,43.6 266.5,30.2 '
           '344,30.2 344,10"')
STRIP_B = 'points="34,84 111.5,84 189,84 266.5,84 344,84"'


def card_html(document) -> list[str]:
    """Each card's HTML (one `<article>` per card)."""
    with translation.override(document.language):
        html = "".join(render_to_string(template, {**context, "css": ""})
                       for template, context in document.parts())
    return re.findall(r'<article class="scorecard[^"]*">.*?</article>', html, re.S)


@pytest.mark.django_db
def test_a_filled_scorecard_draws_the_running_score(started):
    play(first_match(started), ELEVEN_NIL)
    played, untouched = card_html(cards_of(started, True, "en"))
    assert '<div class="race"><svg class="chart"' in played
    assert STRIP_A in played and STRIP_B in played
    assert "<title>Running score</title>" in played
    # The other match has no deal yet: no picture; blank cards never have one.
    assert "<svg" not in untouched
    assert all("<svg" not in card for card in card_html(cards_of(started, False, "en")))


@pytest.mark.django_db
def test_the_running_score_goes_on_the_last_card_of_a_long_match(started, monkeypatch):
    # Cards of one row per column: the 4 deals and the next dealer's row need two cards.
    monkeypatch.setattr(scorecard, "MAX_ROWS_PER_COLUMN", 1)
    play(first_match(started), ELEVEN_NIL)
    cards = [card for card in cards_of(started, True, "en").cards if card.part]
    assert [card.part for card in cards] == [(1, 2), (2, 2)]
    assert [card.race is not None for card in cards] == [False, True]


@pytest.mark.django_db
def test_the_standings_document_draws_the_race_of_a_round_robin(four):
    play_rounds(four, 3)
    with translation.override("en"):
        document = documents.standings_document(four, "en")
        html = "".join(render_to_string(template, {**context, "css": ""})
                       for template, context in document.parts())
    assert [(row.entry.number, row.places) for row in document.race] == [
        (4, (4, 3, 1)), (2, (2, 1, 2)), (3, (3, 4, 3)), (1, (1, 2, 4)),
    ]
    for line in ("36,76 136,56 236,16", "36,36 136,16 236,36", "36,56 136,76 236,56",
                 "36,16 136,36 236,76"):
        assert f'points="{line}"' in html
    assert html.index("</table>") < html.index('<svg class="chart"')  # after the table
    assert "The race" in html
    with translation.override("bg"):
        assert "Надпреварата" in html_text(documents.standings_document(four, "bg"))


@pytest.mark.django_db
def test_a_knockout_standings_document_has_no_race(home_club, players):
    knockout = Tournament.objects.create(
        name="Елиминации", date=datetime.date(2026, 12, 6), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    assert documents.standings_document(knockout, "en").race == []


@pytest.mark.django_db
def test_the_cross_table_pdf_prints_names_and_cells(four):
    play_rounds(four, 3)
    names = [line.name for line in documents.cross_table_document(four, "bg").table.lines]
    pdf, version = kinds.build(tournament=four, kind="crosstable", round_number=None,
                               language="bg")
    pages, text = pdf_text(pdf)
    assert pages == 1 and "Кръстосана таблица" in text
    positions = [text.index(name) for name in names]
    assert positions == sorted(positions)  # standings order: 4, 2, 3, 1
    # The first row (entry 4) against 2, 3 and 1, then wins, game points for:against, place
    # (tests/standings/test_charts_pages.py::test_the_cross_table_cells_in_standings_order).
    assert re.search(r"11:10\s*11:9\s*0:11\s*2\s*22:30\s*1", text)
    assert version == kinds.cross_table_version(four)
    assert kinds.filename("crosstable", None, False, "en") == "crosstable-en.pdf"


@pytest.mark.django_db
def test_the_cross_table_version_follows_the_results(four):
    play_rounds(four, 1)
    before = kinds.cross_table_version(four)
    worked.result(four, 2, 4, 3, 11, 9)
    assert kinds.cross_table_version(four) != before


@pytest.mark.django_db
def test_only_a_round_robin_prints_a_cross_table(home_club, players):
    knockout = Tournament.objects.create(
        name="Елиминации", date=datetime.date(2026, 12, 6), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    with pytest.raises(PrintError) as error:
        jobs.print_job_request(tournament=knockout, kind="crosstable", language="bg")
    assert error.value.code == "no_cross_table"
    assert not PrintJob.objects.exists()


@pytest.mark.django_db
def test_the_print_command_prints_a_cross_table(four, cheap_pdfs, tmp_path):
    out = tmp_path / "cross.pdf"
    call_command("print", str(four.pk), what="crosstable", lang="en", out=str(out))
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.django_db
def test_the_cross_table_page_offers_its_pdf_to_organisers(client, organiser_client, four):
    url = reverse("standings:crosstable", args=[four.pk])
    html = organiser_client.get(url).content.decode()
    assert 'name="kind" value="crosstable"' in html
    assert 'name="kind" value="crosstable"' not in client.get(url).content.decode()
