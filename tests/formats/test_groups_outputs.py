"""Groups, then a knockout, in what leaves the pages: the printed round sheets of every
group (one PDF) and the group standings, the exports (group and stage columns) and the
projector (group tables, then the bracket). The event is the hand-worked one of
test_groups_services: A = seeds 1, 6, 7, 12; B = 2, 5, 8, 11; C = 3, 4, 9, 10."""

import random

import pytest
from django.urls import reverse
from django.utils import translation

from exchange import exporting
from formats.groups import services as groups
from printing import documents, jobs
from printing.errors import PrintError
from tests.formats.test_groups_services import NAMES, make_event, play_groups_by_seed
from tests.printing.helpers import html_text, pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def running():
    tournament = make_event(12)
    groups.groups_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def test_one_pdf_holds_the_round_sheets_of_every_group_round(running):
    pages, text = pdf_text(documents.render_group_sheets(running, "en"))
    assert pages == 3  # three rounds of six matches, a page each
    for number in (1, 2, 3):
        assert f"Round {number}" in text
    assert "Group" in text and NAMES[11] in text


def test_the_standings_print_a_table_per_group_with_who_goes_on(running):
    play_groups_by_seed(running)
    with translation.override("en"):
        text = html_text(documents.standings_document(running, "en"))
    assert "Group A · 4 players" in text and "Group C · 4 players" in text
    assert f"Go on to the knockout: {NAMES[0]}, {NAMES[5]}" in text  # seeds 1 and 6
    assert f"Go on to the knockout: {NAMES[2]}, {NAMES[3]}" in text  # seeds 3 and 4


def test_group_sheets_are_refused_without_a_group_stage(tournament):
    with pytest.raises(PrintError) as error:
        jobs.check_request(tournament, "group_sheets", None, "bg")
    assert error.value.code == "no_group_stage"


def test_the_standings_export_has_the_group_and_who_goes_on(running):
    play_groups_by_seed(running)
    data = exporting.standings_dataset(running)
    assert data.headers[0] == "group" and data.headers[-1] == "goes_on"
    assert [(row[0], row[1], row[2], row[-1]) for row in data][:4] == [
        ("A", 1, NAMES[0], "yes"), ("A", 2, NAMES[5], "yes"),
        ("A", 3, NAMES[6], None), ("A", 4, NAMES[11], None)]
    assert len(data) == 12


def test_the_deal_log_names_the_stage_and_group(running):
    play_groups_by_seed(running)
    data = exporting.deal_log_dataset(running)
    assert data.headers[-2:] == ["stage", "group"]
    first = data[0]
    assert (first[0], first[1], first[2], first[3]) == (1, 1, NAMES[0], NAMES[11])
    assert first[-2:] == ("groups", "A")
    quarterfinal = [row for row in data if row[-2] == "knockout"]
    assert quarterfinal == []  # no knockout deal entered yet


def test_the_projector_shows_the_group_tables_then_the_bracket(client, running):
    english = client
    english.cookies["django_language"] = "en"
    page = english.get(reverse("live:projector", args=[running.pk])).content.decode()
    assert 'data-slide="groups"' in page and "Group B · 4 players" in page
    assert 'data-slide="bracket"' not in page
    play_groups_by_seed(running)
    page = english.get(reverse("live:projector", args=[running.pk])).content.decode()
    assert 'data-slide="bracket"' in page and "Quarterfinal" in page


def test_the_bracket_prints_only_once_drawn(running):
    with pytest.raises(PrintError) as error:
        jobs.check_request(running, "bracket", None, "bg")
    assert error.value.code == "no_bracket"
    play_groups_by_seed(running)
    jobs.check_request(running, "bracket", None, "bg")  # drawn: no error
    pages, text = pdf_text(documents.render_bracket(running, "en"))
    assert pages == 1 and "QUARTERFINAL" in text.upper() and NAMES[0] in text
    assert "Small mark: group place (A1 won group A)." in " ".join(text.split())


def test_the_first_knockout_round_shows_its_byes(client, running):
    play_groups_by_seed(running)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("events:round", args=[running.pk, 4])).content.decode()
    assert page.count("bye: goes through") == 2
