"""Control and invisible characters in names: one rule (`core.text`) for the
players page, the club night's pairing form, the event forms and the CSV import. Unicode
categories Cc (control: ESC U+001B) and Cf (format: the right-to-left override U+202E, the
zero-width space U+200B) are refused with a message naming the character as U+XXXX, in both
languages; nothing is written."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import Player
from core.text import clean_name
from events.models import Tournament
from formats.club_night import services as club_nights
from scoring import rules
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.exchange.test_importing_cells import COLUMNS, errors_in, with_cell

REFUSED = [("A\x1bB", "U+001B"), ("Иван\u202e Петров", "U+202E"),
           ("Иван Петров\u200b", "U+200B")]
EN = ("A name may not contain the control or invisible character {code}; type the name as "
      "plain text.")
BG = ("Името не може да съдържа управляващия или невидимия знак {code}; въведете го като "
      "обикновен текст.")


def messages_in_both_languages(client, url, data, code) -> None:
    """Post `data` in English, then in Bulgarian: 422 with the sentence naming `code`."""
    for language, sentence in [("en", EN), ("bg", BG)]:
        client.cookies["django_language"] = language
        response = client.post(url, data)
        assert response.status_code == 422
        assert sentence.format(code=code) in response.content.decode()


# --- the one function ------------------------------------------------------------------------


@pytest.mark.parametrize("name, code", REFUSED + [("\u200bИван", "U+200B"),
                                                  ("Ива\ufeffн", "U+FEFF")])
def test_clean_name_refuses_control_and_format_characters(name, code):
    with pytest.raises(ValidationError) as error:
        clean_name(name)
    assert error.value.code == "not_plain_text" and error.value.params == {"code": code}


def test_clean_name_strips_and_joins_whitespace():
    assert clean_name("  Радка \t\u00a0 Пенева\n") == "Радка Пенева"


# --- the site's forms --------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("name, code", REFUSED)
def test_the_players_page_refuses_such_a_name(organiser_client, tournament, name, code):
    url = reverse("events:player_add", args=[tournament.pk])
    before = Player.objects.count()
    messages_in_both_languages(organiser_client, url, {"new_name": name}, code)
    assert Player.objects.count() == before and tournament.entries.count() == 5


@pytest.mark.django_db
@pytest.mark.parametrize("name, code", REFUSED)
def test_the_club_night_pairing_form_refuses_such_a_name(organiser_client, organiser, home_club,
                                                         players, name, code):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Клубна вечер",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    url = reverse("nights:pair", args=[night.pk])
    data = {"player_a": players[0].pk, "new_name_b": name, "table": "1"}
    before = Player.objects.count()
    messages_in_both_languages(organiser_client, url, data, code)
    assert Player.objects.count() == before and not night.rounds.filter(pairings__isnull=False)


@pytest.mark.django_db
@pytest.mark.parametrize("name, code", REFUSED)
def test_the_event_forms_refuse_such_a_name(organiser_client, home_club, name, code):
    messages_in_both_languages(
        organiser_client, reverse("events:create"), dict(NEW_TOURNAMENT, name=name), code
    )
    messages_in_both_languages(
        organiser_client, reverse("nights:create"),
        {"date": "2026-12-18", "name": name, "rules": "default"}, code,
    )
    assert not Tournament.objects.exists()


# --- the import ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name, code", REFUSED)
def test_the_import_refuses_such_a_name_with_the_same_rule(name, code):
    data = with_cell(COLUMNS.index("player_a"), name)
    assert errors_in("en", data) == [
        f"line 2: player_a contains the control or invisible character {code}; a name is "
        "plain text."
    ]
    assert errors_in("bg", data) == [
        f"ред 2: player_a съдържа управляващия или невидимия знак {code}; името е обикновен "
        "текст."
    ]
