"""One player per name in a club, and one per name among players of no club: a NULL club
must not let two same-name players in, which would make the pairing form's and the
import's look-up by name ambiguous."""

import pytest
from django.db import IntegrityError, transaction

from club import services as club_services
from club.models import Club, Player

pytestmark = pytest.mark.django_db


def test_two_players_of_no_club_cannot_share_a_name():
    Player.objects.create(name="Стоян Колев")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Стоян Колев", club=None)
    assert Player.objects.filter(name="Стоян Колев").count() == 1


def test_the_same_name_is_fine_in_another_club_and_outside_any_club():
    north, south = Club.objects.create(name="Север"), Club.objects.create(name="Юг")
    for club in (north, south, None):
        Player.objects.create(name="Стоян Колев", club=club)
    assert Player.objects.filter(name="Стоян Колев").count() == 3
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Стоян Колев", club=north)


def test_player_for_name_gives_the_one_player_of_no_club():
    existing = club_services.player_for_name(name="Стоян Колев", club=None)
    assert club_services.player_for_name(name="Стоян Колев", club=None) == existing
    assert Player.objects.count() == 1
