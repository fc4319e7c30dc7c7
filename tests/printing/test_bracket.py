"""The bracket PDF: A4 landscape, up to 32 players on one page, larger brackets in parts that say
where they continue; the print job for it and who may download it."""

import datetime
import io
import random
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from club.models import Player
from events import selectors as events_selectors
from events import services as events_services
from events.models import Entry, Tournament
from formats.knockout import selectors as knockout_selectors
from formats.knockout import services as knockout
from printing import bracket, documents, jobs
from printing.errors import PrintError
from printing.models import PrintJob
from tests.formats.test_knockout_services import NAMES, at, play, started, win
from tests.printing.test_bracket_layout import bracket_shape

pytestmark = pytest.mark.django_db

A4_LANDSCAPE = (841.89, 595.28)  # points


def pdf_pages(data: bytes) -> list[tuple[tuple[float, float], str]]:
    reader = PdfReader(io.BytesIO(data))
    return [
        ((round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)),
         page.extract_text())
        for page in reader.pages
    ]


def html_text(document) -> str:
    """The text of the bracket's HTML (no PDF), tags and white space runs as one space."""
    with translation.override(document.language):
        html = "".join(render_to_string(template, {**context, "css": ""})
                       for template, context in document.parts())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def bracket_of(tournament, language):
    with translation.override(language):
        return documents.bracket_document(tournament, language)


def knockout_of(size: int) -> Tournament:
    tournament = Tournament.objects.create(
        name=f"Купа {size}", date=datetime.date(2026, 12, 1), format=Tournament.Format.KNOCKOUT,
        third_place_match=size >= 4,
    )
    Entry.objects.bulk_create([
        Entry(tournament=tournament, number=seed,
              player=Player.objects.create(name=f"Играч {seed:03}"))
        for seed in range(1, size + 1)
    ])
    knockout.knockout_start(tournament=tournament)
    return tournament


def test_six_players_on_one_landscape_page_with_byes_scores_and_champion():
    tournament = started(6, third_place=True)
    play(at(tournament, 1, 1).match, "A")  # 4 beats 5 11:0
    pages = pdf_pages(documents.render_bracket(tournament, "en"))
    assert len(pages) == 1
    size, text = pages[0]
    assert size == A4_LANDSCAPE
    for label in ("Bracket", "Quarterfinal", "Semifinal", "Final", "Champion",
                  "Third-place match"):
        assert label.upper() in text.upper()
    assert text.count("bye") == 2
    for name in NAMES[:6]:
        assert name in text
    assert "11" in text


def test_the_bracket_prints_in_bulgarian_too():
    tournament = started(6)
    text = html_text(bracket_of(tournament, "bg"))
    assert NAMES[0] in text and "Купа" in text and "Шампион" in text


def test_lengths_keep_a_decimal_point_in_bulgarian():
    """A Bulgarian number format ("64,00mm") would be invalid CSS: every box would collapse."""
    document = bracket_of(started(6), "bg")
    with translation.override("bg"):
        [(template, context)] = document.parts()
        html = render_to_string(template, {**context, "css": ""})
    styles = re.findall(r'style="([^"]*)"', html)
    assert styles and not [style for style in styles if re.search(r"\d,\d", style)]


@pytest.mark.parametrize("size, pages", [(2, 1), (32, 1), (33, 3), (64, 3), (128, 5)])
def test_up_to_32_players_fit_one_page_larger_brackets_are_split(size, pages):
    # Each of the document's pages is one A4 landscape sheet (print.css, checked on the PDF of
    # `test_six_players_on_one_landscape_page_with_byes_scores_and_champion`).
    document = bracket_of(knockout_of(size), "en")
    assert len(document.pages) == pages
    with translation.override("en"):
        [(template, context)] = document.parts()
        html = render_to_string(template, {**context, "css": ""})
    printed = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))
        for section in html.split('<section class="bracket-sheet">')[1:]
    ]
    assert len(printed) == pages
    text = "\n".join(printed)
    for seed in range(1, size + 1):
        assert f"Играч {seed:03}" in text
    if pages == 3:
        assert "Top half" in printed[0] and "Bottom half" in printed[1]
        assert "The winner continues on page 3." in printed[0]
        assert "→ page 3" in printed[1]
        assert "Continued from pages 1–2." in printed[2]
        assert "from page 1" in printed[2] and "from page 2" in printed[2]
    if pages == 5:
        assert "Part 1 of 4" in printed[0] and "Part 4 of 4" in printed[3]
        assert "Quarterfinal · Semifinal · Final" in printed[4]


def test_the_bracket_drawn_from_the_database_has_the_shape_of_its_size():
    """`bracket_pages` of a real 13-player knockout (byes) places what `bracket_shape` does."""
    tournament = knockout_of(13)
    with translation.override("en"):
        real = bracket.bracket_pages(knockout_selectors.bracket(tournament))
        shape = bracket.bracket_pages(bracket_shape(13, third_place=True))
    assert [[(box["left"], box["top"]) for box in page["boxes"]] for page in real] == [
        [(box["left"], box["top"]) for box in page["boxes"]] for page in shape
    ]


def test_the_round_sheet_of_a_knockout_shows_byes_not_rests():
    tournament = started(6)
    round_ = tournament.rounds.get(number=1)
    with translation.override("en"):
        document = documents.round_sheet_document(
            round_, list(events_selectors.pairings_of_round(round_)), "en"
        )
    text = html_text(document)
    assert text.count("bye: goes through") == 2 and "rests" not in text
    assert NAMES[3] in text and NAMES[4] in text


def test_organiser_prints_the_bracket_and_anyone_downloads_it(
    organiser, organiser_client, client, django_capture_on_commit_callbacks
):
    tournament = started(6)
    tournament.organisers.add(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(
            reverse("printing:request", args=[tournament.pk]), {"kind": "bracket", "lang": "en"}
        )
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert (job.kind, job.status) == ("bracket", PrintJob.Status.DONE)
    download = client.get(reverse("printing:download", args=[tournament.pk, job.pk]))
    assert download.status_code == 200
    assert 'filename="bracket-en.pdf"' in download["Content-Disposition"]
    assert download.content.startswith(b"%PDF")


def test_a_new_result_makes_a_new_bracket_file(django_capture_on_commit_callbacks, cheap_pdfs):
    tournament = started(6)
    with django_capture_on_commit_callbacks(execute=True):
        first = jobs.print_job_request(tournament=tournament, kind="bracket",
                                                 language="bg")
    again = jobs.print_job_request(tournament=tournament, kind="bracket",
                                             language="bg")
    assert again.pk == first.pk
    play(at(tournament, 1, 1).match, "B")
    with django_capture_on_commit_callbacks(execute=True):
        after = jobs.print_job_request(tournament=tournament, kind="bracket",
                                                 language="bg")
    assert after.pk != first.pk


def test_a_draft_knockout_has_no_bracket_to_print():
    draft = Tournament.objects.create(name="Чернова", date="2026-12-01",
                                      format=Tournament.Format.KNOCKOUT)
    with pytest.raises(PrintError) as error:
        jobs.print_job_request(tournament=draft, kind="bracket", language="bg")
    assert error.value.code == "no_bracket"
    assert not PrintJob.objects.exists()


def round_sheet_text(tournament, number, language):
    round_ = tournament.rounds.get(number=number)
    with translation.override(language):
        document = documents.round_sheet_document(
            round_, list(events_selectors.pairings_of_round(round_)), language
        )
    return html_text(document)


def test_knockout_round_sheets_name_their_rounds_as_the_live_pages_do(organiser,
                                                                      organiser_client):
    # Four players and a third-place match: two rounds, the semifinals and then the final
    # with the third-place match beside it (bracket of 4: round 1 of 2 is the semifinal).
    tournament = started(4, third_place=True)
    tournament.organisers.add(organiser)
    win(tournament, 1, 0, "A")
    win(tournament, 1, 1, "A")
    third = at(tournament, 2, 0, third_place=True)
    assert third.match_id  # both semifinal losers are known: the match is on
    semifinal, final = (round_sheet_text(tournament, number, "en") for number in (1, 2))
    assert " Round 1 · Semifinal " in semifinal
    assert " Round 2 · Final " in final
    assert f" Third-place match: {third.entry_a.player.name} " in final
    assert " Кръг 1 · Полуфинал " in round_sheet_text(tournament, 1, "bg")
    final_bg = round_sheet_text(tournament, 2, "bg")
    assert " Кръг 2 · Финал " in final_bg
    assert f" Мач за трето място: {third.entry_a.player.name} " in final_bg
    # The live round page (in the site's language, Bulgarian) says the same.
    page = organiser_client.get(reverse("events:round", args=[tournament.pk, 2]))
    heading = re.search(r"<h2>(.*?)</h2>", page.content.decode(), re.S).group(1)
    assert re.sub(r"\s+", " ", heading).strip() == "Кръг 2 · Финал"


def test_the_knockout_round_sheet_pdf_names_the_final():
    tournament = started(4, third_place=True)
    round_ = tournament.rounds.get(number=2)
    [(_size, text)] = pdf_pages(documents.render_round_sheet(round_, "en"))
    assert "Round 2 · Final" in text


def test_a_round_robin_round_sheet_keeps_the_bare_number(tournament):
    # A round robin's rounds have only numbers, on the live pages and on the sheet.
    events_services.tournament_start(tournament=tournament, rng=random.Random(1))
    assert " Round 1 Printed " in round_sheet_text(tournament, 1, "en")
