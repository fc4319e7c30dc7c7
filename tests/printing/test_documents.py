"""The documents: one PDF per kind (scorecards, round pack, standings) for what paper shows,
the rest checked on the documents' data and HTML."""

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from events import selectors as events_selectors
from events.models import Pairing
from printing import card_form, documents, scorecard
from scoring.models import Match
from standings import selectors as standings_selectors
from tests.conftest import PLAYER_NAMES
from tests.printing.helpers import (
    ELEVEN_NIL,
    cards_of,
    first_match,
    forty_deals_mostly_drawn,
    grid_lines,
    html_text,
    pdf_text,
    play,
    round_pairings,
)


@pytest.mark.django_db
def test_blank_scorecards_two_per_page_in_bulgarian(started):
    document = cards_of(started, False, "bg")
    # 2 matches (player 1 rests): two scorecards on one A4 sheet
    assert [len(sheet) for sheet in document.parts()[0][1]["sheets"]] == [2]
    text = html_text(document)
    assert "Кръг 1" in text
    assert "Маса 1" in text and "Маса 2" in text
    for name in PLAYER_NAMES[1:5]:
        assert name in text
    assert PLAYER_NAMES[0] not in text  # rests in round 1: no scorecard
    assert text.count("Кръг 1") == 2


@pytest.mark.django_db
def test_scorecards_follow_the_language_asked_for(started):
    document = cards_of(started, False, "en", number=2)
    text = html_text(document)
    assert "Round 2" in text and "Кръг" not in text
    assert "Match to 11 game points" in text
    # The form drawn under the text (card_form) is in English too.
    with translation.override("en"):
        texts = card_form.form_texts(document.cards[0].players_enter)
    assert (texts.codes, texts.final_score, texts.signatures) == (
        "Codes:", "Final score", ("Signature A", "Signature B"))
    assert texts.grid_labels[:3] == ("Deal", "Dealer", "Winner")


@pytest.mark.django_db
def test_filled_scorecard_prints_the_deals_with_running_totals(started):
    match = first_match(started)
    play(match, ELEVEN_NIL)
    document = cards_of(started, True, "en")
    first, other = document.cards
    # dealer, winner, game points, reason code, total A, total B: the winner deals next
    assert grid_lines(first) == ["A A 3 3 3 0", "A A 3 3 6 0", "A A 2 2 8 0", "A A 3 3 11 0"]
    assert first.final_game_points == (11, 0)  # the final score box
    assert re.search(r"A 11 : 0 B", html_text(document))
    # The other match has no deal: only its first dealer is printed, in the first row.
    assert [(cell["text"], cell["kind"], cell["top"]) for cell in other.cells] == [
        ("A", "next", "6.00"),
    ]


@pytest.mark.django_db
def test_blank_scorecards_ignore_entered_deals(started):
    play(first_match(started), ELEVEN_NIL)
    document = cards_of(started, False, "en")
    assert all(grid_lines(card) == [] for card in document.cards)
    assert all(card.final_game_points is None for card in document.cards)
    assert not re.search(r"A 11 : 0 B", html_text(document))


@pytest.mark.django_db
def test_a_filled_scorecard_of_forty_deals_prints_on_one_card(started):
    match = first_match(started)
    play(match, forty_deals_mostly_drawn())
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (
        11, 0, Match.Status.FINISHED
    )
    # The round pack prints the same cards (`_scorecard_parts`): one render is enough here.
    pages, text = pdf_text(documents.render_scorecards(round_pairings(started), True, "bg"))
    assert pages == 1  # both matches' cards on one A4 page: no continuation card
    rows = [line for line in text.splitlines()
            if re.fullmatch(r"[AB] [AB=] \d [\w=]+ \d+ \d+", line)]
    assert len(rows) == 40
    assert rows.count("A = 0 = 0 0") == 3  # deals 1-3, before A's first point
    assert rows[-1] == "A A 2 2 11 0"
    assert re.search(r"A 11\s*:\s*0\s*B", text)


@pytest.mark.django_db
def test_a_filled_scorecard_of_fifty_deals_prints_a_continuation_card(started):
    # 50 deals: A wins 1 game point at deals 5, 10, ..., 45 (9 game points), the rest are
    # draws, and deal 50 is A's schneider: 9 + 2 = 11. A card holds 3 x 14 = 42 rows, so the
    # 50 deal rows go 42 on card 1 and 8 on card 2, which carries the final score.
    deals = [("A", 2, "schneider") if number == 50
             else ("A", 1, "won") if number % 5 == 0 else (None, 0, "draw")
             for number in range(1, 51)]
    match = first_match(started)
    play(match, deals)
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (11, 0)
    pages, text = pdf_text(documents.render_scorecards(round_pairings(started), True, "en"))
    rows = [line for line in text.splitlines()
            if re.fullmatch(r"[AB] [AB=] \d [\w=]+ \d+ \d+", line)]
    assert len(rows) == 50
    assert rows[44] == "A A 1 1 9 0"  # deal 45: the ninth plain win
    assert rows[-1] == "A A 2 2 11 0"
    assert "card 1 of 2" in text and "card 2 of 2" in text
    assert len(re.findall(r"A 11\s*:\s*0\s*B", text)) == 1  # on the last card only


@pytest.mark.django_db
def test_round_pack_is_the_round_sheet_then_the_scorecards(started):
    round_ = started.rounds.get(number=1)
    reader = PdfReader(io.BytesIO(documents.render_round_pack(round_, "bg")))
    assert len(reader.pages) == 2  # the round sheet, then one page with both scorecards
    sheet_text = reader.pages[0].extract_text()
    assert "Кръг 1" in sheet_text and "почива" in sheet_text  # the bye: "rests"
    assert PLAYER_NAMES[0] in sheet_text
    assert re.search(r"Отпечатано|Printed", sheet_text)


@pytest.mark.django_db
def test_round_sheet_shows_finished_results(started):
    play(first_match(started), ELEVEN_NIL)
    round_ = started.rounds.get(number=1)
    with translation.override("en"):
        text = html_text(documents.round_sheet_document(
            round_, list(events_selectors.pairings_of_round(round_)), "en"
        ))
    assert re.search(r"11 : 0", text)
    assert "rests (bye)" in text


@pytest.mark.django_db
def test_standings_pdf_lists_players_in_standings_order(started):
    for pairing in Pairing.objects.filter(round__tournament=started, match__isnull=False):
        play(pairing.match, ELEVEN_NIL if pairing.entry_a.number < pairing.entry_b.number
             else [("B", 3, "capot")] * 3 + [("B", 2, "schneider")])
    expected = [entry.player.name for entry, _ in standings_selectors.standings(started)]
    pages, text = pdf_text(documents.render_standings(started, "bg"))
    assert pages == 1
    assert "Класиране" in text
    positions = [text.index(name) for name in expected]
    assert positions == sorted(positions)
    assert expected[0] == PLAYER_NAMES[0]  # number 1 beat everyone
    assert "оставащите мачове се губят служебно" in text  # the withdrawal policy, printed


@pytest.mark.django_db
def test_standings_pdf_in_english_names_the_columns_and_order(started):
    with translation.override("en"):
        text = html_text(documents.standings_document(started, "en"))
    assert "Standings" in text and "GP diff." in text
    assert "head-to-head among the tied players" in text
    assert "When a player withdraws:" in text


@pytest.mark.django_db
def test_qr_code_and_entry_url_use_site_url(settings, started):
    settings.SITE_URL = "https://66.example.bg/"
    match = first_match(started)
    assert scorecard.match_entry_url(match.pk) == f"https://66.example.bg/m/{match.pk}/"
    assert scorecard.qr_image("https://66.example.bg/m/1/").startswith("data:image/png;base64,")
