"""Backups: dumpdata/loaddata of a finished tournament, and the SQLite online backup."""

import sqlite3

import pytest
from django.core.management import call_command
from django.db import connection

from scoring import rules
from scoring import services as scoring_services
from scoring.models import Deal
from tournaments import selectors, services
from tournaments.models import Pairing, Tournament


def finish(tournament: Tournament) -> None:
    services.tournament_start(tournament=tournament)
    outcomes = [("A", 3, "capot"), ("B", 1, "won"), ("A", 2, "schneider"), ("A", 3, "capot"),
                ("B", 2, "schneider"), ("A", 3, "capot")]
    for index, pairing in enumerate(Pairing.objects.exclude(match=None).order_by("pk")):
        match = pairing.match
        step = index
        while not match.is_over:
            winner, points, reason = outcomes[step % len(outcomes)]
            scoring_services.deal_record(
                match=match, score=rules.quick_result(winner, points, reason), by=None
            )
            match.refresh_from_db()
            step += 1


def standings_table(tournament: Tournament) -> list[tuple]:
    return [(entry.player.name, row.rank, row.won, row.game_points_for, row.game_points_against)
            for entry, row in selectors.standings(tournament)]


@pytest.mark.django_db(transaction=True)
def test_dumpdata_loaddata_round_trip_reproduces_the_standings(tournament, tmp_path):
    finish(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    before = standings_table(tournament)
    deals_before = Deal.objects.count()
    dump = tmp_path / "club.json"
    call_command("dumpdata", "auth.user", "club", "scoring", "tournaments",
                 "--natural-foreign", output=str(dump), verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    assert not Tournament.objects.exists()
    call_command("loaddata", str(dump), verbosity=0)
    restored = Tournament.objects.get(name=tournament.name)
    assert restored.status == Tournament.Status.FINISHED
    assert Deal.objects.count() == deals_before
    assert standings_table(restored) == before


@pytest.mark.django_db(transaction=True)
def test_sqlite_online_backup_copies_the_live_database(tournament, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite pass only")
    target = tmp_path / "backup.sqlite3"
    call_command("backup_sqlite", str(target), verbosity=0)
    with sqlite3.connect(target) as copy:
        names = copy.execute("SELECT name FROM tournaments_tournament").fetchall()
    assert names == [("Купа Пловдив",)]
