"""Who may see a player (`Player.objects.visible_to`): a player seen only in private events
stays with those events' organisers — not offered in another organiser's add-player list,
not on the public player or club pages; an organiser keeps their own club's players and the
players of their own events."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from club.models import Club, Player
from events.models import Entry, Tournament
from formats.club_night import services as club_nights
from scoring import rules

pytestmark = pytest.mark.django_db


@pytest.fixture
def rival_club(outsider) -> Club:
    club = Club.objects.create(name="Клуб Варна", city="Варна")
    club.organisers.add(outsider)
    return club


@pytest.fixture
def secret(outsider, rival_club) -> dict[str, Player]:
    """The outsider's private event: a player of their club and a guest of no club, both in
    nothing else; and a player of their club in no event yet."""
    event = Tournament.objects.create(
        name="Закрит турнир", date=datetime.date(2026, 12, 12), club=rival_club,
        format=Tournament.Format.ROUND_ROBIN, is_public=False,
    )
    event.organisers.add(outsider)
    member = Player.objects.create(name="Тайна Членка", club=rival_club)
    guest = Player.objects.create(name="Таен Гост")
    for number, player in enumerate((member, guest), start=1):
        Entry.objects.create(tournament=event, player=player, number=number)
    newcomer = Player.objects.create(name="Нов Член", club=rival_club)
    return {"member": member, "guest": guest, "newcomer": newcomer}


@pytest.fixture
def own_private_guest(organiser, home_club) -> Player:
    """A guest of no club in a private event of the organiser's own."""
    event = Tournament.objects.create(
        name="Частна вечер", date=datetime.date(2026, 12, 13), club=home_club,
        format=Tournament.Format.ROUND_ROBIN, is_public=False,
    )
    event.organisers.add(organiser)
    guest = Player.objects.create(name="Наш Гост")
    Entry.objects.create(tournament=event, player=guest, number=1)
    return guest


def offered(client: Client, tournament: Tournament) -> set[str]:
    """The names in the players page's "From the register" list."""
    response = client.get(reverse("events:players", args=[tournament.pk]))
    assert response.status_code == 200
    return {player.name for player in response.context["add_form"].fields["player"].queryset}


def test_the_add_player_list_leaves_out_other_organisers_private_players(
        organiser_client, tournament, players, secret, own_private_guest):
    names = offered(organiser_client, tournament)
    # Entered already: players[:5]; offered: the rest of the own club, the own private
    # event's guest, the rival club's player in no event yet.
    assert names == {p.name for p in players[5:]} | {"Наш Гост", "Нов Член"}


def test_a_private_player_cannot_be_added_by_posting_their_id(
        organiser_client, tournament, secret):
    response = organiser_client.post(
        reverse("events:player_add", args=[tournament.pk]),
        {"player": secret["guest"].pk, "new_name": ""},
    )
    assert response.status_code == 422
    assert not tournament.entries.filter(player=secret["guest"]).exists()


def test_the_private_events_organiser_is_still_offered_their_players(
        outsider_client, outsider, rival_club, secret):
    mine = Tournament.objects.create(
        name="Купа Варна", date=datetime.date(2026, 12, 19), club=rival_club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    mine.organisers.add(outsider)
    assert {"Тайна Членка", "Таен Гост", "Нов Член"} <= offered(outsider_client, mine)


@pytest.mark.parametrize("who", ["anonymous", "organiser"])
def test_a_private_player_page_is_404_to_others(client, organiser_client, secret, who):
    visitor = client if who == "anonymous" else organiser_client
    for player in (secret["member"], secret["guest"]):
        response = visitor.get(reverse("clubs:player", args=[player.pk]))
        assert response.status_code == 404, player.name
    response = visitor.get(reverse("clubs:player", args=[secret["newcomer"].pk]))
    assert response.status_code == 200


def test_a_private_player_page_shows_to_their_organiser_and_staff(
        outsider_client, secret):
    staff = get_user_model().objects.create_user("staff", password="pass-staff-1",
                                                 is_staff=True)
    staff_client = Client()
    staff_client.force_login(staff)
    for visitor in (outsider_client, staff_client):
        response = visitor.get(reverse("clubs:player", args=[secret["guest"].pk]))
        assert response.status_code == 200


def test_a_player_of_a_public_event_too_is_public(client, secret, rival_club):
    public = Tournament.objects.create(
        name="Открит турнир", date=datetime.date(2026, 12, 20), club=rival_club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    Entry.objects.create(tournament=public, player=secret["member"], number=1)
    response = client.get(reverse("clubs:player", args=[secret["member"].pk]))
    assert response.status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "organiser"])
def test_the_club_page_leaves_out_private_players(client, organiser_client, rival_club,
                                                   secret, who):
    visitor = client if who == "anonymous" else organiser_client
    response = visitor.get(reverse("clubs:club", args=[rival_club.pk]))
    assert [p.name for p in response.context["players"]] == ["Нов Член"]
    assert "Тайна Членка" not in response.content.decode()


def test_the_club_page_shows_its_organiser_every_player(outsider_client, rival_club, secret):
    response = outsider_client.get(reverse("clubs:club", args=[rival_club.pk]))
    assert [p.name for p in response.context["players"]] == ["Нов Член", "Тайна Членка"]


def test_a_night_of_no_club_offers_no_other_organisers_private_guests(
        organiser, organiser_client, secret, own_private_guest):
    night = club_nights.club_night_create(
        club=None, date=datetime.date(2026, 12, 14), name="Вечер без клуб",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    page = organiser_client.get(reverse("nights:detail", args=[night.pk]))
    assert page.status_code == 200
    offered_names = {p.name for p in page.context["form"].fields["player_a"].queryset}
    # Players of no club: the outsider's private guest is hidden, the own one is not.
    assert "Таен Гост" not in offered_names
    assert "Наш Гост" in offered_names
    response = organiser_client.post(reverse("nights:pair", args=[night.pk]), {
        "player_a": secret["guest"].pk, "player_b": own_private_guest.pk, "table": "1",
    })
    assert response.status_code == 422
    assert not night.entries.exists()
