"""A query compiled once (club.compiled_query) reads what its queryset reads."""

import pytest
from django.db import connection, connections, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper
from django.test.utils import CaptureQueriesContext, override_settings

from club.compiled_query import CompiledQuery
from club.models import Club, Player

pytestmark = pytest.mark.django_db

BY_PK = CompiledQuery(lambda pk: Player.objects.select_related("club").filter(pk=pk))


def test_a_bound_query_reads_the_row_with_its_related_object_in_one_query():
    club = Club.objects.create(name="Клуб Варна", city="Варна")
    ivan = Player.objects.create(name="Иван Петров", club=club)
    maria = Player.objects.create(name="Мария Георгиева")
    BY_PK.bind(maria.pk).get()  # compiled here, once
    with CaptureQueriesContext(connection) as queries:
        read = BY_PK.bind(ivan.pk).get()
        assert read.club.city == "Варна"  # no query: selected with the player
    assert len(queries) == 1
    assert (read.pk, read.name, read.club_id) == (ivan.pk, "Иван Петров", club.pk)
    assert BY_PK.bind(maria.pk).get().club is None


def test_an_unknown_row_is_does_not_exist():
    with pytest.raises(Player.DoesNotExist):
        BY_PK.bind(987654).get()


def test_a_bound_query_locks_inside_a_transaction():
    ivan = Player.objects.create(name="Иван Петров")
    with transaction.atomic():
        assert BY_PK.bind(ivan.pk).select_for_update(of=("self",)).get().name == "Иван Петров"


def test_an_argument_the_lookup_changes_is_refused():
    """`name__contains` would send "%x%", not the argument: nothing to fill in."""
    with pytest.raises(ValueError):
        CompiledQuery(lambda name: Player.objects.filter(name__contains=name)).bind("x").get()


def test_a_values_list_gives_its_rows_in_order():
    club = Club.objects.create(name="Клуб Варна", city="Варна")
    for name in ["Мария Георгиева", "Иван Петров"]:
        Player.objects.create(name=name, club=club)
    names = CompiledQuery(lambda club_pk: Player.objects.filter(club_id=club_pk).order_by(
        "name").values_list("name", "club_id"))
    assert names.bind(club.pk).rows() == [("Иван Петров", club.pk), ("Мария Георгиева", club.pk)]
    assert names.bind(club.pk + 1).rows() == []


class _PlayersElsewhere:
    """A router sending the players (read or written) to the database "elsewhere"."""

    def db_for_read(self, model, **hints):
        return "elsewhere" if model is Player else None

    db_for_write = db_for_read


@pytest.fixture
def elsewhere(tmp_path):
    """A second database, "elsewhere" (an SQLite file with the club and player tables), for
    this test only: a connection made here, as Django allows a test's own connections."""
    settings_dict = connections.configure_settings({
        "default": {}, "elsewhere": {"ENGINE": "django.db.backends.sqlite3",
                                     "NAME": str(tmp_path / "elsewhere.sqlite3")}})["elsewhere"]
    connections._connections.elsewhere = DatabaseWrapper(settings_dict, "elsewhere")
    with connections["elsewhere"].schema_editor() as editor:
        editor.create_model(Club)
        editor.create_model(Player)
    yield "elsewhere"
    connections["elsewhere"].close()
    del connections["elsewhere"]


def test_a_query_compiled_for_one_database_is_not_run_on_another(elsewhere):
    """Compiled on the test database first, then read where the router sends players: the
    player of that database, not the one compiled for first."""
    Player.objects.create(pk=5, name="Иван Петров")
    Player.objects.using(elsewhere).create(pk=5, name="Мария Георгиева")
    by_pk = CompiledQuery(lambda pk: Player.objects.filter(pk=pk))
    assert by_pk.bind(5).get().name == "Иван Петров"
    with override_settings(DATABASE_ROUTERS=[_PlayersElsewhere()]):
        read = by_pk.bind(5).get()
        assert (read.name, read._state.db) == ("Мария Георгиева", "elsewhere")
        with transaction.atomic(using=elsewhere):
            assert by_pk.bind(5).select_for_update().get().name == "Мария Георгиева"
    assert by_pk.bind(5).get().name == "Иван Петров"
