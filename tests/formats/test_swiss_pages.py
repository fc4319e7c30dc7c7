"""The Swiss's pages: the form's rounds and bye setting, the round page's "Pair round N" and
"Pair again", the refusals (409, the sentence, nothing written), late entries on the players
page, and the standings with the Swiss tie-break columns and the unplayed-rounds rule."""

import html

import pytest
from django.urls import reverse

from events import registry
from events.models import Round, Tournament
from scoring.models import Match
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.formats.test_swiss_services import NAMES, counts, event, finish_round  # noqa: F401
from tests.playing import play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english(client, organiser_client):
    for each in (client, organiser_client):
        each.cookies["django_language"] = "en"


def text(response) -> str:
    return html.unescape(response.content.decode())


def started(event):  # noqa: F811
    registry.for_tournament(event).start()
    event.refresh_from_db()
    return event


def test_the_form_creates_a_swiss_with_its_rounds_and_bye_setting(organiser_client, home_club):
    data = dict(NEW_TOURNAMENT, format="swiss", swiss_rounds="", club=home_club.pk)
    response = organiser_client.post(reverse("events:create"), data)
    assert response.status_code == 422
    assert "Say how many rounds will be played." in text(response)
    assert not Tournament.objects.exists()
    data["swiss_rounds"] = "4"
    response = organiser_client.post(reverse("events:create"), data)
    assert response.status_code == 302
    swiss = Tournament.objects.get()
    assert (swiss.format, swiss.swiss_rounds, swiss.bye_scores_win) == ("swiss", 4, False)


def test_round_page_offers_pair_again_then_pair_next(organiser_client, event):  # noqa: F811
    event = started(event)
    url = reverse("events:round", args=[event.pk, 1])
    page = text(organiser_client.get(url))
    assert "Pair again" in page and "Pair round 2" not in page
    assert "rests (bye): scores a win" in page
    finish_round(event, 1)
    page = text(organiser_client.get(url))
    assert "Pair round 2" in page and "Pair again" not in page
    response = organiser_client.post(reverse("events:round_pair_next", args=[event.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("events:round", args=[event.pk, 2])
    assert Round.objects.filter(tournament=event, number=2).exists()


def test_pairing_before_the_round_is_over_is_a_409_in_both_languages(
    organiser_client, event  # noqa: F811
):
    event = started(event)
    before = counts()
    response = organiser_client.post(reverse("events:round_pair_next", args=[event.pk]))
    assert response.status_code == 409
    assert "Round 1 is not over yet" in text(response)
    organiser_client.cookies["django_language"] = "bg"
    response = organiser_client.post(reverse("events:round_pair_next", args=[event.pk]))
    assert "Кръг 1 още не е завършил" in text(response)
    assert counts() == before


def test_pairing_again_after_a_deal_is_a_409(organiser_client, event):  # noqa: F811
    event = started(event)
    play(Match.objects.order_by("pk").first(), "A2")
    before = counts()
    response = organiser_client.post(reverse("events:round_pair_again", args=[event.pk, 1]))
    assert response.status_code == 409
    assert "Deals have been entered in round 1" in text(response)
    assert counts() == before


def test_a_withdrawal_mid_round_is_a_409(organiser_client, event):  # noqa: F811
    event = started(event)
    entry = event.entries.get(number=3)
    response = organiser_client.post(
        reverse("events:player_withdraw", args=[event.pk, entry.pk]))
    assert response.status_code == 409
    assert "Round 1 is being played" in text(response)
    entry.refresh_from_db()
    assert not entry.withdrawn


def test_other_formats_have_no_pairing_button_or_url(organiser_client, tournament):
    from events import services

    services.tournament_start(tournament=tournament)
    page = text(organiser_client.get(reverse("events:round", args=[tournament.pk, 1])))
    assert "Pair round" not in page and "Pair again" not in page
    response = organiser_client.post(
        reverse("events:round_pair_next", args=[tournament.pk]))
    assert response.status_code == 404


def test_the_standings_show_the_swiss_columns_and_the_unplayed_rule(
    client, organiser_client, event  # noqa: F811
):
    event = started(event)
    finish_round(event, 1)
    page = text(client.get(reverse("standings:standings", args=[event.pk])))
    for header in ("Pts", "Byes", "BH", "BH-1", "Med. BH", "SB", "Prog.", "DE"):
        assert f">{header}<" in page or f"{header}</" in page, header
    assert "Unplayed rounds (C.07, Article 16)" in page
    assert "only the rounds after a withdrawal count as a draw (½)" in page
    assert "a dummy opponent with the player's own score" in page.replace("&#x27;", "'")
    assert "worked out again among the players it leaves level" in page
    assert "a bye scores a win (1)" in page
    organiser_page = text(organiser_client.get(reverse("standings:standings", args=[event.pk])))
    assert "Pair round 2" in organiser_page


def test_a_late_entry_from_the_players_page_between_rounds(organiser_client, event):  # noqa
    event = started(event)
    url = reverse("events:players", args=[event.pk])
    assert "Add a player" in text(organiser_client.get(url))
    add = reverse("events:player_add", args=[event.pk])
    organiser_client.post(add, {"new_name": "Краси Късния"})
    assert event.entries.count() == 9  # refused: round 1 is being played
    finish_round(event, 1)
    organiser_client.post(add, {"new_name": "Краси Късния"})
    assert event.entries.count() == 10


def test_the_round_page_in_bulgarian(organiser_client, event):  # noqa: F811
    event = started(event)
    organiser_client.cookies["django_language"] = "bg"
    page = text(organiser_client.get(reverse("events:round", args=[event.pk, 1])))
    assert "Изтегли отново" in page
    assert "почива: носи победа" in page
    finish_round(event, 1)
    page = text(organiser_client.get(reverse("standings:standings", args=[event.pk])))
    assert "Изтегли кръг 2" in page
    assert "Неизиграни кръгове (C.07, член 16)" in page
    assert "само кръговете след оттегляне се броят като реми (½)" in page
    assert ">Бх<" in page or "Бх</" in page
