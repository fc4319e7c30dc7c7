"""A query compiled once (club.compiled_query) reads what its queryset reads."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

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
