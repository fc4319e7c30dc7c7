"""One player per name in a club, and one per name among players of no club (hardening
item 5): a NULL club must not let two same-name players in, which would make the pairing
form's and the import's look-up by name ambiguous."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

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


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_same_name_players_of_no_club_that_exist_already():
    before, after = [("club", "0002_season")], [("club", "0003_b_player_unique_name_without_club")]
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(before)
        old_apps = executor.loader.project_state(before).apps
        old = old_apps.get_model("club", "Player")
        club = old_apps.get_model("club", "Club").objects.create(name="Клуб")
        ids = [old.objects.create(name=name, club=None).pk
               for name in ("Иван", "Иван", "Иван (2)", "Иван", "Мария")]
        in_club = old.objects.create(name="Иван", club=club).pk

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)

        names = dict(Player.objects.values_list("pk", "name"))
        # The oldest keeps the name; "Иван (2)" was taken, so the later two get (3) and (4).
        assert [names[pk] for pk in ids] == ["Иван", "Иван (3)", "Иван (2)", "Иван (4)", "Мария"]
        assert names[in_club] == "Иван"  # a club's player is not touched
    finally:  # every app back at its latest migration, whatever depends on club 0002
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
