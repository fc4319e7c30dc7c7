"""Backups: dumpdata/loaddata of a finished tournament, and the SQLite online backup."""

import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from club.models import Player
from events import services
from events.models import Pairing, Tournament
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Deal
from server.sqlite_backup import companion
from standings import selectors


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
    call_command("dumpdata", "auth.user", "club", "scoring", "events", "ratings", "tableside",
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
        names = copy.execute("SELECT name FROM events_tournament").fetchall()
    assert names == [("Купа Пловдив",)]


# --------------------------------------------------------------------------------------------
# backup_sqlite refuses what it cannot copy and checks what it copied
# --------------------------------------------------------------------------------------------


def sqlite_only() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite pass only")


def count_deals(path: Path) -> int:
    with closing(sqlite3.connect(path)) as database:
        return database.execute("SELECT count(*) FROM scoring_deal").fetchone()[0]


def test_backup_refuses_a_database_that_does_not_exist(monkeypatch, tmp_path):
    sqlite_only()
    missing = tmp_path / "missing.sqlite3"
    monkeypatch.setitem(connection.settings_dict, "NAME", str(missing))
    with pytest.raises(CommandError) as error:
        call_command("backup_sqlite", str(tmp_path / "backup.sqlite3"))
    assert str(error.value) == f"Not backed up: There is no database at {missing}."
    assert sorted(path.name for path in tmp_path.iterdir()) == []  # nothing created


def test_backup_refuses_a_file_that_is_not_a_sqlite_database(monkeypatch, tmp_path):
    sqlite_only()
    text = tmp_path / "santase.sqlite3"
    text.write_text("round,table,player_a\n" * 100)
    monkeypatch.setitem(connection.settings_dict, "NAME", str(text))
    with pytest.raises(CommandError, match=r"^Not backed up: .*santase\.sqlite3 is not a "
                                           r"SQLite database \(file is not a database\)\.$"):
        call_command("backup_sqlite", str(tmp_path / "backup.sqlite3"))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["santase.sqlite3"]


def test_backup_refuses_a_sqlite_database_of_something_else(monkeypatch, tmp_path):
    sqlite_only()
    other = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(other)) as database:
        database.execute("CREATE TABLE notes (text)")
    monkeypatch.setitem(connection.settings_dict, "NAME", str(other))
    with pytest.raises(CommandError) as error:
        call_command("backup_sqlite", str(tmp_path / "backup.sqlite3"))
    assert str(error.value) == (
        f"Not backed up: {other} has no table club_player: it is not this site's database (or "
        "it was never migrated)."
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["other.sqlite3"]


@pytest.mark.django_db(transaction=True)
def test_backup_says_what_it_copied(tournament, tmp_path):
    sqlite_only()
    finish(tournament)
    deals = Deal.objects.count()
    target = tmp_path / "backups" / "x.sqlite3"
    target.parent.mkdir()
    companion(target, "-wal").write_bytes(b"left by an older file of that name")
    out = StringIO()
    call_command("backup_sqlite", str(target), stdout=out)
    # The conftest cast: 8 players; 5 of them in one round robin, 5 * 4 / 2 = 10 matches.
    assert out.getvalue() == (
        f"Backed up 8 players, 1 tournament, 10 matches, {deals:,} deals: "
        f"{connection.settings_dict['NAME']} → {target} (integrity ok).\n"
    )
    assert deals > 40 and count_deals(target) == deals
    with closing(sqlite3.connect(target)) as copy:  # one file, no WAL beside it
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert sorted(path.name for path in target.parent.iterdir()) == ["x.sqlite3"]


# --------------------------------------------------------------------------------------------
# restore_sqlite
# --------------------------------------------------------------------------------------------

CRASHED_WRITER = """
import os, sqlite3, sys
database = sqlite3.connect(sys.argv[1], isolation_level=None)
database.execute("PRAGMA journal_mode=WAL")
database.execute("PRAGMA wal_autocheckpoint=0")
database.execute("DELETE FROM scoring_deal WHERE id % 2 = 0")
os._exit(0)  # killed before any checkpoint: the deletion is only in the -wal file
"""


@pytest.mark.django_db(transaction=True)
def test_restore_over_a_crashed_writers_wal_brings_back_exactly_the_backup(tournament, tmp_path):
    sqlite_only()
    finish(tournament)
    deals = Deal.objects.count()
    odd = Deal.objects.filter(pk__in=[pk for pk in Deal.objects.values_list("pk", flat=True)
                                      if pk % 2]).count()
    backup = tmp_path / "backup.sqlite3"
    call_command("backup_sqlite", str(backup), stdout=StringIO())
    database = Path(connection.settings_dict["NAME"])
    connection.close()
    subprocess.run([sys.executable, "-c", CRASHED_WRITER, str(database)], check=True)
    assert companion(database, "-wal").stat().st_size > 0  # the crashed writer's WAL

    out = StringIO()
    call_command("restore_sqlite", str(backup), stdout=out)

    kept, restored = out.getvalue().splitlines()
    assert restored == (f"Restored 8 players, 1 tournament, 10 matches, {deals:,} deals from "
                        f"{backup} into {database} (integrity ok).")
    assert not companion(database, "-wal").exists()
    assert not companion(database, "-shm").exists()
    assert count_deals(database) == deals
    assert Deal.objects.count() == deals  # through Django, which opens it in WAL mode again
    assert standings_table(Tournament.objects.get()) == standings_table(tournament)
    # The database it replaced, with the crashed writer's deletion folded in, is kept.
    kept_path = Path(kept.removeprefix("The database it replaced is kept as ").removesuffix("."))
    assert kept_path.parent == database.parent and count_deals(kept_path) == odd
    kept_path.unlink()


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_while_the_database_is_open(tournament, tmp_path):
    sqlite_only()
    backup = tmp_path / "backup.sqlite3"
    call_command("backup_sqlite", str(backup), stdout=StringIO())
    database = Path(connection.settings_dict["NAME"])
    files = set(database.parent.iterdir())
    Player.objects.create(name="Нов играч")  # not in the backup
    with closing(sqlite3.connect(database)) as site:  # the site, serving
        site.execute("SELECT count(*) FROM club_player").fetchone()
        with pytest.raises(CommandError) as error:
            call_command("restore_sqlite", str(backup))
    assert str(error.value) == (
        f"Not restored: {database} is in use: stop the site, its Celery workers and any other "
        "manage.py command first, then restore again."
    )
    assert Player.objects.filter(name="Нов играч").exists()
    # No file of this database was left beside it (another pytest-xdist worker's may appear).
    ours = {path for path in database.parent.iterdir() if path.name.startswith(database.name)}
    assert ours <= files | {companion(database, "-wal"), companion(database, "-shm")}


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_backup_that_is_missing_or_not_a_database(tournament, tmp_path):
    sqlite_only()
    with pytest.raises(CommandError) as error:
        call_command("restore_sqlite", str(tmp_path / "missing.sqlite3"))
    assert str(error.value) == f"Not restored: There is no database at {tmp_path}/missing.sqlite3."
    text = tmp_path / "deals.csv"
    text.write_text("round,table\n" * 100)
    with pytest.raises(CommandError, match="is not a SQLite database"):
        call_command("restore_sqlite", str(text))
    assert Tournament.objects.get().name == "Купа Пловдив"


# --------------------------------------------------------------------------------------------
# backup_sqlite's target: a directory, an existing file, a failure half-way
# --------------------------------------------------------------------------------------------


def leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.rglob("*") if ".partial" in path.name)


@pytest.mark.django_db(transaction=True)
def test_backup_to_a_directory_names_the_file_by_date_and_time(tournament, tmp_path):
    sqlite_only()
    backups = tmp_path / "backups"
    backups.mkdir()
    out = StringIO()
    call_command("backup_sqlite", str(backups), stdout=out)
    files = [path.name for path in backups.iterdir()]
    assert len(files) == 1 and re.fullmatch(r"santase-\d{4}-\d\d-\d\d-\d{6}\.sqlite3", files[0])
    with sqlite3.connect(backups / files[0]) as copy:
        assert copy.execute("SELECT name FROM events_tournament").fetchall() == [
            ("Купа Пловдив",)
        ]
    assert f"→ {backups / files[0]} (integrity ok)." in out.getvalue()
    assert leftovers(tmp_path) == []


@pytest.mark.django_db(transaction=True)
def test_backup_refuses_an_existing_file_unless_replace(tournament, tmp_path):
    sqlite_only()
    target = tmp_path / "backup.sqlite3"
    target.write_bytes(b"last week's backup")
    with pytest.raises(CommandError) as error:
        call_command("backup_sqlite", str(target))
    assert str(error.value) == (
        f"Not backed up: {target} already exists. Name another file, give a directory, or "
        "pass --replace to overwrite it."
    )
    assert target.read_bytes() == b"last week's backup"
    call_command("backup_sqlite", str(target), "--replace", stdout=StringIO())
    assert count_deals(target) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["backup.sqlite3"]


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_fails_half_way_leaves_no_partial_file(tournament, tmp_path, monkeypatch):
    """The copy is made and checked, then moving it into place fails (a full disk, say): a
    message, no traceback, and neither the target nor its .partial file is left."""
    sqlite_only()
    from server.management.commands import backup_sqlite

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup_sqlite.os, "replace", refuse)
    target = tmp_path / "backup.sqlite3"
    with pytest.raises(CommandError) as error:
        call_command("backup_sqlite", str(target))
    assert str(error.value) == (
        f"Not backed up: could not write {target} (No space left on device)."
    )
    assert list(tmp_path.iterdir()) == []
