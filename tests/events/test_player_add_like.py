"""The event's players page: a new name that may mean a player of the club's register is
asked about (409, nothing written): use that player, or add the name as it is."""

import datetime

import pytest
from django.urls import reverse

from club.models import Player
from events.models import Tournament

pytestmark = pytest.mark.django_db

TYPED = ["иван петров", "ИВАН  ПЕТРОВ", "Ivan Petrov"]


@pytest.fixture
def cup(organiser, home_club, players) -> Tournament:
    """A round robin of the club with nobody entered yet; Иван Петров is in the register."""
    cup = Tournament.objects.create(
        name="Купа Пловдив", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    cup.organisers.add(organiser)
    return cup


def add(client, cup, data):
    client.cookies["django_language"] = "en"
    return client.post(reverse("events:player_add", args=[cup.pk]), data)


@pytest.mark.parametrize("typed", TYPED)
def test_a_name_typed_another_way_proposes_the_player(organiser_client, cup, players, typed):
    ivan = players[0]
    response = add(organiser_client, cup, {"new_name": typed})
    assert response.status_code == 409
    assert not cup.entries.exists()
    assert Player.objects.count() == len(players)
    like = response.context["like"]
    assert like["question"] == (
        "Иван Петров is already in the register of Клуб Пловдив — use this player?"
    )
    assert [choice["player"] for choice in like["choices"]] == [ivan]
    html = response.content.decode()
    assert f'<input type="hidden" name="player" value="{ivan.pk}">' in html
    assert "Use Иван Петров" in html
    assert "Add a new player “" in html


@pytest.mark.parametrize("typed", TYPED)
def test_using_the_proposed_player_enters_him(organiser_client, cup, players, typed):
    add(organiser_client, cup, {"new_name": typed})
    response = add(organiser_client, cup, {"player": players[0].pk})
    assert response.status_code == 302
    assert list(cup.entries.values_list("player__name", flat=True)) == ["Иван Петров"]
    assert Player.objects.count() == len(players)


@pytest.mark.parametrize("typed", TYPED)
def test_insisting_adds_a_new_player_with_exactly_the_typed_name(organiser_client, cup,
                                                                    players, typed):
    response = add(organiser_client, cup, {"new_name": typed, "insist": typed})
    assert response.status_code == 302
    new = Player.objects.get(name=" ".join(typed.split()))
    assert new.club == cup.club and new != players[0]
    assert list(cup.entries.values_list("player", flat=True)) == [new.pk]


def test_insisting_on_another_name_asks_again(organiser_client, cup):
    response = add(organiser_client, cup, {"new_name": "Ivan Petrov", "insist": "иван петров"})
    assert response.status_code == 409
    assert not cup.entries.exists()


def test_the_exact_name_and_a_name_like_nobody_are_added_as_before(organiser_client, cup,
                                                                    players):
    assert add(organiser_client, cup, {"new_name": "  Иван   Петров "}).status_code == 302
    assert add(organiser_client, cup, {"new_name": "Ivan Petroff"}).status_code == 302
    assert list(cup.entries.order_by("number").values_list("player__name", flat=True)) == [
        "Иван Петров", "Ivan Petroff",
    ]
    assert cup.entries.get(number=1).player == players[0]


def test_a_player_already_in_the_event_is_said_to_be(organiser_client, tournament, players):
    """Иван Петров plays in the fixture's event already: "Ivan Petrov" would be a second
    Иван Петров beside him. The page says so and offers only the new player."""
    response = add(organiser_client, tournament, {"new_name": "Ivan Petrov"})
    assert response.status_code == 409
    assert tournament.entries.count() == 5
    html = response.content.decode()
    assert "Иван Петров is already in this tournament." in html
    assert "Use Иван Петров" not in html
    assert "Add a new player “Ivan Petrov”" in html


def test_several_players_alike_each_have_a_button(organiser_client, cup, players, home_club):
    latin = Player.objects.create(name="Ivan Petrov", club=home_club)
    response = add(organiser_client, cup, {"new_name": "IVAN PETROV"})
    assert response.status_code == 409
    assert response.context["like"]["question"] == (
        "Players with a name like “IVAN PETROV” are already in the register of Клуб Пловдив: "
        "Ivan Petrov, Иван Петров — use one of them?"
    )
    html = response.content.decode()
    assert "Use Ivan Petrov" in html and "Use Иван Петров" in html
    assert add(organiser_client, cup, {"player": latin.pk}).status_code == 302


def test_the_question_in_bulgarian(organiser_client, cup):
    organiser_client.cookies["django_language"] = "bg"
    response = organiser_client.post(
        reverse("events:player_add", args=[cup.pk]), {"new_name": "Ivan Petrov"}
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Иван Петров вече е в регистъра на Клуб Пловдив — да вземем ли този играч?" in html
    assert "Вземи Иван Петров" in html
    assert "Добави нов играч „Ivan Petrov“" in html


def test_an_outsider_gets_403_and_no_question(outsider_client, cup):
    response = add(outsider_client, cup, {"new_name": "Ivan Petrov"})
    assert response.status_code == 403
    assert not cup.entries.exists()
