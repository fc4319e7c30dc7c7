"""Every free text people type (a dispute, a correction's reason, a venue, a club's name, an
imported event's name) follows one rule (`core.text.clean_text`, the forms' `PlainTextField`):
no NUL, control (a multi-line text keeps its line ends and tabs) or invisible character
(bidi overrides and isolates, zero-width characters, the byte-order mark), at most its limit.
A refusal is 422 with the sentence in the user's language, and nothing is written: on SQLite
and on PostgreSQL alike (where a NUL byte could not even be stored)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from club.models import Club
from core.text import clean_text
from events.models import Tournament
from scoring import services
from scoring.models import Deal
from scoring.rules import DealScore
from tableside import table_entry
from tableside.models import MatchEvent, MatchTable
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.tableside.test_table_entry import enter
from tests.tableside.test_table_views import phone

pytest_plugins = ["tests.tableside.table_fixtures"]

NOT_PLAIN = {
    "en": "The text may not contain the control or invisible character {code}; type it as "
          "plain text.",
    "bg": "Текстът не може да съдържа управляващия или невидимия знак {code}; въведете го "
          "като обикновен текст.",
}
TOO_LONG = {
    "en": "The text is {length} characters long; at most {limit} fit. Shorten it.",
    "bg": "Текстът е дълъг {length} знака; побират се най-много {limit}. Съкратете го.",
}
REFUSED = [
    ("deal 3\x00", "U+0000"), ("\x1b[31mred", "U+001B"), ("mine\u202e", "U+202E"),
    ("a\u202ab", "U+202A"), ("a\u2066b\u2069", "U+2066"), ("a\u2069", "U+2069"),
    ("zero\u200bwidth", "U+200B"), ("a\u200fb", "U+200F"), ("\ufeffbom", "U+FEFF"),
    ("bell\x07", "U+0007"), ("del\x7f", "U+007F"),
]


# --- the one function ------------------------------------------------------------------------


@pytest.mark.parametrize("value, code", REFUSED)
@pytest.mark.parametrize("multiline", [False, True])
def test_clean_text_refuses_control_and_invisible_characters(value, code, multiline):
    with pytest.raises(ValidationError) as error:
        clean_text(value, max_length=100, multiline=multiline)
    assert error.value.code == "text_not_plain" and error.value.params == {"code": code}


def test_a_multi_line_text_keeps_its_lines_and_tabs_a_single_line_one_does_not():
    typed = "  deal 3:\r\n\tA had 66\rB closed  "
    assert clean_text(typed, max_length=100, multiline=True) == "deal 3:\n\tA had 66\nB closed"
    assert clean_text(typed, max_length=100) == "deal 3:  A had 66 B closed"


def test_the_limit_is_refused_not_cut():
    assert clean_text("я" * 10, max_length=10) == "я" * 10
    with pytest.raises(ValidationError) as error:
        clean_text(" " + "я" * 11 + " ", max_length=10)
    assert error.value.code == "text_too_long"
    assert error.value.params == {"length": 11, "limit": 10}


# --- the players' dispute ----------------------------------------------------------------------


@pytest.fixture
def finished(match):
    enter(match, "A3 A3 A2 A3")  # 11:0, over
    return match


def nothing_disputed(match):
    table = MatchTable.objects.get(match=match)
    assert (table.disputed_by, table.dispute) == ("", "")
    assert not MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.DISPUTED).exists()


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
@pytest.mark.parametrize("language", ["en", "bg"])
@pytest.mark.parametrize("value, code", [("deal 3 was mine\x00", "U+0000"),
                                         ("mine\u202eenih", "U+202E"),
                                         ("\u2067deal 3", "U+2067")])
def test_a_dispute_with_such_a_character_is_422_and_nothing_is_written(
        finished, language, value, code):
    token = table_entry.table_of(finished).token
    response = phone(token, "B", language).post(f"/p/{token}/dispute/", {"text": value})
    assert response.status_code == 422
    assert NOT_PLAIN[language].format(code=code) in response.content.decode()
    nothing_disputed(finished)


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_dispute_over_500_characters_is_refused_not_cut(finished, language):
    token = table_entry.table_of(finished).token
    response = phone(token, "B", language).post(f"/p/{token}/dispute/", {"text": "x" * 501})
    assert response.status_code == 422
    assert TOO_LONG[language].format(length=501, limit=500) in response.content.decode()
    nothing_disputed(finished)


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
def test_a_dispute_of_several_lines_is_kept_as_typed(finished):
    token = table_entry.table_of(finished).token
    response = phone(token, "B").post(f"/p/{token}/dispute/",
                                      {"text": " deal 3:\r\n\tI closed "})
    assert response.status_code == 302
    table = MatchTable.objects.get(match=finished)
    assert (table.disputed_by, table.dispute) == ("B", "deal 3:\n\tI closed")


# --- the organiser's forms ---------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "bg"])
@pytest.mark.parametrize("value, code", [("misread\x00", "U+0000"), ("mis\u202dread", "U+202D")])
def test_a_correction_reason_with_such_a_character_is_refused(
        organiser_client, organiser, match, language, value, code):
    services.deal_record(match=match, score=DealScore("B", 2, None, "schneider"), by=organiser)
    organiser_client.cookies["django_language"] = language
    response = organiser_client.post(
        reverse("matches:deal_correct", args=[match.pk, 1]),
        {"winner": "A", "reason": "won", "correction_reason": value})
    assert response.status_code == 422
    assert NOT_PLAIN[language].format(code=code) in response.content.decode()
    deal = Deal.objects.get(match=match, number=1)
    assert (deal.winner, deal.game_points) == ("B", 2)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_correction_reason_over_100_characters_is_refused(organiser_client, organiser, match,
                                                            language):
    services.deal_record(match=match, score=DealScore("B", 2, None, "schneider"), by=organiser)
    organiser_client.cookies["django_language"] = language
    response = organiser_client.post(
        reverse("matches:deal_correct", args=[match.pk, 1]),
        {"winner": "A", "reason": "won", "correction_reason": "я" * 101})
    assert response.status_code == 422
    assert TOO_LONG[language].format(length=101, limit=100) in response.content.decode()
    assert Deal.objects.get(match=match, number=1).winner == "B"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "bg"])
def test_an_event_s_venue_with_a_nul_or_an_override_is_refused(organiser_client, home_club,
                                                                language):
    organiser_client.cookies["django_language"] = language
    for venue, code in [("Варна\x00", "U+0000"), ("\u202eанраВ", "U+202E")]:
        response = organiser_client.post(reverse("events:create"),
                                         dict(NEW_TOURNAMENT, venue=venue))
        assert response.status_code == 422
        assert NOT_PLAIN[language].format(code=code) in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_an_event_s_name_with_a_nul_says_the_names_sentence(organiser_client, home_club):
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(reverse("events:create"),
                                     dict(NEW_TOURNAMENT, name="Купа\x00Варна"))
    assert response.status_code == 422
    assert ("A name may not contain the control or invisible character U+0000; type the name "
            "as plain text.") in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field, value", [("name", "Клуб\u200b"), ("city", "Варна\x00"),
                                          ("name", "\u2066Клуб")])
def test_a_club_s_name_and_city_follow_the_rule_in_the_admin_too(field, value):
    club = Club(name="Клуб", city="Варна")
    setattr(club, field, value)
    with pytest.raises(ValidationError) as error:
        club.full_clean()
    assert list(error.value.message_dict) == [field]
