"""`club.services.players_like`: the players of the register a typed name may mean, in the
club's register (or among the players of no club), as the user may see them."""

import datetime

import pytest

from club import services as club_services
from club.models import Club, Player
from events.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def ivan(home_club) -> Player:
    return Player.objects.create(name="Иван Петров", club=home_club)


@pytest.mark.parametrize("typed", ["иван петров", "ИВАН  ПЕТРОВ", "Ivan Petrov", "IVAN PETROV"])
def test_a_name_typed_another_way_finds_the_player(typed, ivan, home_club):
    assert club_services.players_like([typed], club=home_club) == {typed: [ivan]}


def test_the_exact_name_is_the_player_and_asks_nothing(ivan, home_club):
    Player.objects.create(name="Ivan Petrov", club=home_club)
    assert club_services.players_like(["Иван Петров", "Ivan Petrov"], club=home_club) == {}


def test_several_players_alike_are_all_found_by_name(ivan, home_club):
    latin = Player.objects.create(name="Ivan Petrov", club=home_club)
    assert club_services.players_like(["ivan petrov"], club=home_club) == {
        "ivan petrov": [latin, ivan],  # "I" before "И"
    }


def test_other_spellings_and_other_names_find_nobody(ivan, home_club):
    found = club_services.players_like(
        ["Ivan Petroff", "Иван Петрова", "Петров Иван", "Георги"], club=home_club
    )
    assert found == {}


def test_the_name_in_latin_letters_counts_too(ivan, home_club):
    ivan.name_latin = "Ivan Petroff"
    ivan.save()
    assert club_services.players_like(["ivan petroff"], club=home_club) == {
        "ivan petroff": [ivan]
    }


def test_only_the_clubs_register_or_the_players_of_no_club(ivan, home_club):
    other = Club.objects.create(name="Клуб Варна")
    assert club_services.players_like(["ivan petrov"], club=other) == {}
    varna = Player.objects.create(name="Ivan Petrov", club=other)
    assert club_services.players_like(["иван петров"], club=other) == {"иван петров": [varna]}
    assert club_services.players_like(["ivan petrov"], club=None) == {}
    free = Player.objects.create(name="Иван Петров", club=None)
    assert club_services.players_like(["ivan petrov"], club=None) == {"ivan petrov": [free]}


def test_a_player_hidden_from_the_user_is_never_proposed(outsider, organiser):
    """A player of no club who played only in someone else's private event is hidden from
    an outsider (`Player.objects.visible_to`), so his name is not proposed to them."""
    hidden = Player.objects.create(name="Иван Петров", club=None)
    private = Tournament.objects.create(
        name="Частен", date=datetime.date(2026, 12, 5), format=Tournament.Format.ROUND_ROBIN,
        is_public=False,
    )
    private.organisers.add(organiser)
    Entry.objects.create(tournament=private, player=hidden, number=1)
    assert club_services.players_like(["Ivan Petrov"], club=None, user=outsider) == {}
    assert club_services.players_like(["Ivan Petrov"], club=None, user=organiser) == {
        "Ivan Petrov": [hidden]
    }
    assert club_services.players_like(["Ivan Petrov"], club=None) == {"Ivan Petrov": [hidden]}


def test_two_queries_however_many_names(ivan, home_club, outsider, django_assert_num_queries):
    names = [f"Играч {number}" for number in range(200)] + ["ivan petrov"]
    with django_assert_num_queries(2):
        found = club_services.players_like(names, club=home_club, user=outsider)
    assert found == {"ivan petrov": [ivan]}  # a player in no event yet is seen by all


def test_player_for_name_still_adds_the_exact_name(ivan, home_club):
    new = club_services.player_for_name(name="Ivan Petrov", club=home_club)
    assert new != ivan and new.name == "Ivan Petrov"
    assert club_services.player_for_name(name="Иван Петров", club=home_club) == ivan
