"""Every change to a player, an event, an entry, a match or a deal is kept (django-simple-
history): who, when, before and after."""

import pytest

from club.models import Player

pytestmark = pytest.mark.django_db


def test_a_players_names_are_kept_in_order():
    player = Player.objects.create(name="Иван Петров")
    player.name = "Иван П. Петров"
    player.save()
    assert [row.name for row in player.history.order_by("history_id")] == [
        "Иван Петров", "Иван П. Петров"
    ]
