"""`core.history.History`: simple_history's records, with the manager class built once."""

import pytest

from club.models import Player

pytestmark = pytest.mark.django_db


def test_history_is_recorded_and_its_manager_class_is_built_once():
    player = Player.objects.create(name="Иван Петров")
    player.name = "Иван П. Петров"
    player.save()
    assert [row.name for row in player.history.order_by("history_id")] == [
        "Иван Петров", "Иван П. Петров"
    ]
    assert type(player.history) is type(Player.objects.get(pk=player.pk).history)
