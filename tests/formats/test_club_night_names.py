"""The club night's pairing form: a new name that may mean a player of the register is asked
about (409, nothing written); the question's buttons use that player or add the name as it
is; a seat answered keeps its answer while the other seat is asked."""

import datetime

import pytest
from django.urls import reverse

from club.models import Player
from events.models import Entry, Pairing
from formats.club_night import services as club_nights
from scoring import rules
from scoring.models import Match

pytestmark = pytest.mark.django_db

TYPED = ["иван петров", "ИВАН  ПЕТРОВ", "Ivan Petrov"]


@pytest.fixture
def night(organiser, home_club):
    return club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Клубна вечер",
        organiser=organiser, house_rules=rules.HouseRules(),
    )


@pytest.fixture
def cast(players) -> dict[str, Player]:
    return {player.name: player for player in players}


def pair(client, night, data):
    client.cookies["django_language"] = "en"
    return client.post(reverse("nights:pair", args=[night.pk]), {"table": "2", **data})


def written() -> tuple[int, int, int, int]:
    return (Player.objects.count(), Entry.objects.count(), Pairing.objects.count(),
            Match.objects.count())


@pytest.mark.parametrize("typed", TYPED)
def test_a_name_typed_another_way_proposes_the_player(organiser_client, night, cast, typed):
    before = written()
    maria = cast["Мария Георгиева"]
    response = pair(organiser_client, night, {"new_name_a": typed, "player_b": maria.pk})
    assert response.status_code == 409
    assert written() == before
    seat_a, seat_b = response.context["form"].seats()
    assert seat_a.question == (
        "Иван Петров is already in the register of Клуб Пловдив — use this player?"
    )
    assert [player for player, _ in seat_a.like] == [cast["Иван Петров"]]
    assert seat_b.question == ""
    html = response.content.decode()
    assert f'name="use_a" value="{cast["Иван Петров"].pk}"' in html
    assert "Use Иван Петров" in html
    assert f'name="insist_a" value="{" ".join(typed.split())}"' in html


@pytest.mark.parametrize("typed", TYPED)
def test_using_the_proposed_player_pairs_him(organiser_client, night, cast, typed):
    ivan, maria = cast["Иван Петров"], cast["Мария Георгиева"]
    players = Player.objects.count()
    response = pair(organiser_client, night, {
        "new_name_a": typed, "player_b": maria.pk, "use_a": ivan.pk,
    })
    assert response.status_code == 302
    pairing = Pairing.objects.get(round__tournament=night)
    assert (pairing.entry_a.player, pairing.entry_b.player, pairing.table) == (ivan, maria, 2)
    assert Player.objects.count() == players


@pytest.mark.parametrize("typed", TYPED)
def test_insisting_pairs_a_new_player_with_exactly_the_typed_name(organiser_client, night,
                                                                   cast, typed):
    maria = cast["Мария Георгиева"]
    response = pair(organiser_client, night, {
        "new_name_a": typed, "player_b": maria.pk, "insist_a": typed,
    })
    assert response.status_code == 302
    pairing = Pairing.objects.get(round__tournament=night)
    new = pairing.entry_a.player
    assert new.name == " ".join(typed.split()) and new != cast["Иван Петров"]
    assert new.club == night.club


def test_both_seats_asked_one_answer_at_a_time(organiser_client, night, cast):
    """Seat A "ivan petrov", seat B "MARIA GEORGIEVA": both asked. Seat A's "use" answers A
    and asks B again, with A now picked from the register; B's "add new" then pairs."""
    ivan = cast["Иван Петров"]
    before = written()
    first = pair(organiser_client, night, {"new_name_a": "ivan petrov",
                                           "new_name_b": "MARIA GEORGIEVA"})
    assert first.status_code == 409
    assert [bool(seat.question) for seat in first.context["form"].seats()] == [True, True]
    second = pair(organiser_client, night, {"new_name_a": "ivan petrov", "use_a": ivan.pk,
                                            "new_name_b": "MARIA GEORGIEVA"})
    assert second.status_code == 409
    assert written() == before
    form = second.context["form"]
    seat_a, seat_b = form.seats()
    assert (seat_a.question, seat_a.register.value(), seat_a.new_name.value()) == (
        "", str(ivan.pk), "")
    assert seat_b.question == (
        "Мария Георгиева is already in the register of Клуб Пловдив — use this player?"
    )
    assert 'name="use_a"' not in second.content.decode()
    third = pair(organiser_client, night, {"player_a": ivan.pk, "new_name_a": "",
                                           "new_name_b": "MARIA GEORGIEVA",
                                           "insist_b": "MARIA GEORGIEVA"})
    assert third.status_code == 302
    pairing = Pairing.objects.get(round__tournament=night)
    assert pairing.entry_a.player == ivan
    assert pairing.entry_b.player.name == "MARIA GEORGIEVA"


def test_an_insisted_seat_keeps_its_answer_while_the_other_is_asked(organiser_client, night,
                                                                    cast):
    response = pair(organiser_client, night, {"new_name_a": "Ivan Petrov",
                                              "insist_a": "Ivan Petrov",
                                              "new_name_b": "maria georgieva"})
    assert response.status_code == 409
    seat_a, seat_b = response.context["form"].seats()
    assert seat_a.question == "" and seat_b.question
    assert '<input type="hidden" name="insist_a" value="Ivan Petrov"' in response.content.decode()


def test_the_exact_name_and_a_name_like_nobody_pair_as_before(organiser_client, night, cast):
    response = pair(organiser_client, night, {"new_name_a": "Иван  Петров",
                                              "new_name_b": "Ivan Petroff"})
    assert response.status_code == 302
    pairing = Pairing.objects.get(round__tournament=night)
    assert pairing.entry_a.player == cast["Иван Петров"]
    assert pairing.entry_b.player.name == "Ivan Petroff"


def test_a_use_of_a_player_outside_the_register_is_refused(organiser_client, night, cast):
    stranger = Player.objects.create(name="Ivan Petrov", club=None)
    before = written()
    response = pair(organiser_client, night, {"new_name_a": "иван петров", "use_a": stranger.pk,
                                              "player_b": cast["Мария Георгиева"].pk})
    assert response.status_code == 422
    assert written() == before


def test_the_question_in_bulgarian(organiser_client, night, cast):
    organiser_client.cookies["django_language"] = "bg"
    response = organiser_client.post(reverse("nights:pair", args=[night.pk]), {
        "new_name_a": "Ivan Petrov", "player_b": cast["Мария Георгиева"].pk, "table": "1",
    })
    assert response.status_code == 409
    html = response.content.decode()
    assert "Иван Петров вече е в регистъра на Клуб Пловдив — да вземем ли този играч?" in html
    assert "Вземи Иван Петров" in html
    assert "Добави нов играч „Ivan Petrov“" in html


def test_an_outsider_gets_403_and_no_question(outsider_client, night):
    before = written()
    assert pair(outsider_client, night, {"new_name_a": "Ivan Petrov",
                                         "new_name_b": "Мария"}).status_code == 403
    assert written() == before
