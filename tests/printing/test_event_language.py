"""The printed documents of an event are in its language (`Tournament.language`) unless the
organiser picks another on the print buttons: the buttons offer the event's language first,
a request without one prints in it, and so does `manage.py print` without `--lang`."""

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.urls import reverse

from printing import kinds
from printing.models import PrintJob
from tests.printing.helpers import pdf_text

pytestmark = pytest.mark.django_db


def english(tournament):
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    return tournament


def test_the_print_buttons_offer_the_events_language(started, organiser, rf):
    request = rf.get("/")
    request.user = organiser  # the organiser's own pages are in Bulgarian (the site's)
    html = render_to_string("printing/partials/print_buttons.html",
                            {"tournament": english(started), "round": started.rounds.get(number=1)},
                            request=request)
    assert '<option value="en" selected>' in html and '<option value="bg">' in html


def test_a_print_request_without_a_language_prints_in_the_events(started, organiser_client,
                                                                 cheap_pdfs):
    english(started)
    response = organiser_client.post(reverse("printing:request", args=[started.pk]),
                                     {"kind": "scorecards", "round": 1})
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.language == "en"
    assert kinds.filename(job.kind, job.round_number, job.filled, job.language).endswith("-en.pdf")


def test_the_scorecards_of_an_english_event_print_in_english(
        started, organiser_client, django_capture_on_commit_callbacks):
    english(started)  # the organiser's own pages are in Bulgarian (the site's)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(reverse("printing:request", args=[started.pk]),
                              {"kind": "scorecards", "round": 1})
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE
    with job.file.open("rb") as pdf:
        _pages, text = pdf_text(pdf.read())
    assert "Round 1" in text and "Кръг" not in text


def test_the_print_command_defaults_to_the_events_language(started, tmp_path):
    out = tmp_path / "round-1.pdf"
    call_command("print", str(english(started).pk), what="round", round="1", out=str(out))
    _pages, text = pdf_text(out.read_bytes())
    assert "Round 1" in text and "Кръг" not in text
