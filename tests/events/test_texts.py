"""Sentences that must read well: each page or message in both languages, as an
organiser meets it. Bulgarian: numbers grouped with a (no-break) space, wording that fits any
gender and any count."""

import html
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from events.models import Tournament
from exchange import importing
from exchange.importing import COLUMNS, parse_deal_log
from tests.events.test_withdrawals import entry, match_between, started, withdraw

FIXTURES = Path(__file__).parent.parent / "fixtures"
NBSP = "\u00a0"


def page(client, url, language: str) -> str:
    client.cookies["django_language"] = language
    return html.unescape(client.get(url).content.decode())


# --- a forfeited match is final ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_forfeited_match_page_says_it_is_final(organiser_client, organiser, tournament):
    """forfeit_rest: 2 withdraws before playing, so 2-5 is forfeited to 5. Its page must not
    invite an undo or a correction (both are refused there)."""
    tournament.organisers.add(organiser)
    started(tournament, Tournament.WithdrawalPolicy.FORFEIT_REST)
    withdraw(tournament, 2)
    url = reverse("matches:entry", args=[match_between(tournament, 2, 5).pk])
    english, bulgarian = page(organiser_client, url, "en"), page(organiser_client, url, "bg")
    assert ("This match was forfeited: its result is final, and its deals can no longer be "
            "entered, undone or corrected.") in english
    assert ("Този мач е присъден служебно: резултатът му е окончателен и раздаванията му вече "
            "не могат да се въвеждат, отменят или поправят.") in bulgarian
    assert "Undo or correct a deal to reopen it" not in english
    assert "Отменете или поправете" not in bulgarian


# --- the import's own sentences and numbers -----------------------------------------------------


def test_a_value_over_the_csv_field_limit_gets_our_sentence_with_grouped_digits():
    """Python's csv module reads at most 131,072 characters in one value (its default
    `field_size_limit`); its own English error must not reach a Bulgarian page."""
    data = (",".join(COLUMNS) + "\n1,1," + "Я" * 200_000 + ",Борис,1,A,1,won\n").encode()
    with translation.override("en"):
        assert parse_deal_log(data).errors == [
            "line 2: a value on this line is longer than 131,072 characters, the most one CSV "
            "value may hold."
        ]
    with translation.override("bg"):
        errors = parse_deal_log(data).errors
    assert errors == [
        f"ред 2: една от стойностите на този ред е по-дълга от 131{NBSP}072 знака, а стойност "
        "в CSV може да има най-много толкова."
    ]
    assert "field limit" not in errors[0]


def test_the_row_caps_are_grouped_the_bulgarian_way(monkeypatch):
    monkeypatch.setattr(importing, "MAX_ROWS", 20_000)
    rows = ["1,1,Анна,Борис,1,A,1,won"] * 20_001
    data = "\n".join([",".join(COLUMNS), *rows]).encode()
    with translation.override("bg"):
        errors = parse_deal_log(data).errors
    assert errors == [
        f"ред 20002: файлът има повече от 20{NBSP}000 реда с раздавания, а едно внасяне чете "
        "най-много толкова."
    ]


def upload_form() -> dict:
    data = (FIXTURES / "good.csv").read_bytes()
    return {"file": SimpleUploadedFile("good.csv", data, content_type="text/csv"),
            "name": "Купа Бургас", "date": "2026-12-05", "rules": "default"}


@pytest.mark.django_db
def test_the_import_preview_says_what_the_round_numbers_are_and_the_notice_fits_any_count(
    organiser_client, django_capture_on_commit_callbacks
):
    """good.csv: three players, rounds 1, 2 and 3 (one match each), 20 deals."""
    organiser_client.cookies["django_language"] = "bg"
    preview = organiser_client.post(reverse("data:import_preview"), upload_form())
    text = html.unescape(preview.content.decode())
    assert "3 (номера на кръговете във файла: 1, 2, 3)" in text
    job = preview.context["job"]
    with django_capture_on_commit_callbacks(execute=True):  # the import task, eagerly
        organiser_client.post(reverse("data:import_confirm"), {"job": job.pk})
    done = organiser_client.get(reverse("data:import_job", args=[job.pk]))
    assert "Внесено: играчи — 3, раздавания — 20." in html.unescape(done.content.decode())

    organiser_client.cookies["django_language"] = "en"
    preview = organiser_client.post(reverse("data:import_preview"), upload_form())
    assert "3 (round numbers in the file: 1, 2, 3)" in html.unescape(preview.content.decode())


# --- wording that fits anyone ------------------------------------------------------------------


@pytest.mark.django_db
def test_adding_a_player_says_so_without_a_gendered_ending(organiser_client, tournament):
    url = reverse("events:player_add", args=[tournament.pk])
    organiser_client.cookies["django_language"] = "bg"
    response = organiser_client.post(url, {"new_name": "Радка Пенева"}, follow=True)
    assert "Добавихте Радка Пенева." in html.unescape(response.content.decode())
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(url, {"new_name": "Стоян Колев"}, follow=True)
    assert "Added Стоян Колев." in html.unescape(response.content.decode())


@pytest.mark.django_db
def test_a_withdrawn_player_is_marked_with_a_neutral_word(client, tournament):
    started(tournament, Tournament.WithdrawalPolicy.FORFEIT_REST)
    withdraw(tournament, 4)  # Елена Стоянова
    name = entry(tournament, 4).player.name
    text = page(client, reverse("events:detail", args=[tournament.pk]), "bg")
    assert f"{name} <em>(отказ)</em>" in text and "отказал се" not in text
    standings = page(client, reverse("standings:standings", args=[tournament.pk]), "bg")
    assert f"{name}</a> (отказ)" in standings and "отказал се" not in standings


@pytest.mark.django_db
def test_the_policy_sentence_has_one_colon(client, tournament):
    tournament.withdrawal_policy = Tournament.WithdrawalPolicy.FIDE
    tournament.save()
    url = reverse("standings:standings", args=[tournament.pk])
    english = " ".join(page(client, url, "en").split())
    bulgarian = " ".join(page(client, url, "bg").split())
    assert ("When a player withdraws: all their results are cancelled if they played under "
            "half of their matches; otherwise their remaining matches are lost by forfeit.") in (
        english
    )
    assert ("Когато играч се откаже: всичките му резултати се анулират, ако е изиграл под "
            "половината от мачовете си; иначе оставащите му мачове се губят служебно.") in (
        bulgarian
    )


