"""A club's database written before the site's apps were split migrates forward with every
row kept (`core.migration_operations.AdoptOrCreateModel`).

`fixtures/legacy_sqlite.sql.gz` and `fixtures/legacy_postgresql.sql.gz` are dumps of databases
made by the site as it was then: the demo, one simulated event of each format, a club night
with players signing, disputing and confirming at the table, corrections, undos, a withdrawal,
a final-score event, imports, print jobs, ratings. Each is loaded into a new database,
migrated by `manage.py migrate` in a process of its own, and compared table by table with
what it held before: every old table is there under its new app's name with the same rows,
and has the columns a new database has. The PostgreSQL dump runs on the PostgreSQL pass
only (the database is the point there: tables, sequences and constraints renamed in place).
"""

import gzip
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import sqlparse
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"

# Where each old app's tables went (table name = app label + "_" + model name).
MOVED = {
    "tournaments_tournament": "events_tournament",
    "tournaments_tournament_organisers": "events_tournament_organisers",
    "tournaments_historicaltournament": "events_historicaltournament",
    "tournaments_entry": "events_entry",
    "tournaments_historicalentry": "events_historicalentry",
    "tournaments_round": "events_round",
    "tournaments_pairing": "events_pairing",
    "tournaments_playerrating": "ratings_playerrating",
    "tournaments_ratinghistory": "ratings_ratinghistory",
    "tournaments_matchtable": "tableside_matchtable",
    "tournaments_matchevent": "tableside_matchevent",
    "tournaments_printjob": "printing_printjob",
    "tournaments_importjob": "exchange_importjob",
    "tournaments_importclaim": "exchange_importclaim",
    "club_heartbeat": "server_heartbeat",
}


def dump(name: str) -> str:
    with gzip.open(FIXTURES / name, "rt", encoding="utf-8") as file:
        return file.read()


def migrate(database_url: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url}, check=True, capture_output=True,
    )


NEW_MODELS = ["tableside_retiredlink", "passes_playerpass", "passes_codetries",
              "passes_arrival", "passes_joincode", "passes_checkinclaim",
              "passes_checkinrecord"]
"""Models made since the old databases: each adds its table (empty), one content type and its
four permissions when the migration runs."""


def expected_tables(counts: dict[str, int]) -> dict[str, int]:
    """The row count each table must have after the migration, from `counts` before it."""
    expected = {MOVED.get(table, table): rows for table, rows in counts.items()
                if table not in ("django_migrations", "sqlite_sequence")}
    for table in NEW_MODELS:
        expected[table] = 0
        expected["django_content_type"] += 1
        expected["auth_permission"] += 4
    return expected


def test_a_sqlite_database_of_the_old_apps_keeps_every_row(tmp_path):
    path = tmp_path / "club.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(dump("legacy_sqlite.sql.gz"))
        tables = [row[0] for row in old.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        before = {table: old.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                  for table in tables}
    assert set(MOVED) <= set(before)
    assert before["scoring_deal"] > 1000 and before["tournaments_matchevent"] > 20

    migrate(f"sqlite:///{path}")

    with sqlite3.connect(path) as new:
        tables = {row[0] for row in new.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        after = {table: new.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                 for table in expected_tables(before)}
        assert not set(MOVED) & tables  # renamed, not copied
        assert after == expected_tables(before)
        labels = dict(new.execute(
            "SELECT model, app_label FROM django_content_type WHERE model IN "
            "('tournament', 'matchevent', 'printjob', 'heartbeat', 'deal')"))
        assert labels == {"tournament": "events", "matchevent": "tableside",
                          "printjob": "printing", "heartbeat": "server", "deal": "scoring"}
        # A deal still points at its match, and a pairing at its round, after the renames.
        assert new.execute(
            "SELECT COUNT(*) FROM events_pairing p JOIN events_round r ON r.id = p.round_id "
            "JOIN events_tournament t ON t.id = r.tournament_id").fetchone()[0] \
            == after["events_pairing"]
        assert new.execute("PRAGMA foreign_key_check").fetchall() == []


def assert_same_columns_as_a_new_database(columns: dict[str, set[str]]) -> None:
    """Every table of the test database (migrated from nothing) has the same columns in the
    migrated old one."""
    with connection.cursor() as cursor:
        fresh = {
            table: {column.name for column in
                    connection.introspection.get_table_description(cursor, table)}
            for table in connection.introspection.table_names(cursor)
        }
    assert {table: columns.get(table) for table in fresh} == fresh


@pytest.mark.django_db
def test_the_migrated_sqlite_columns_are_a_new_databases(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("compares with the SQLite test database")
    path = tmp_path / "club.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(dump("legacy_sqlite.sql.gz"))
    migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as new:
        tables = [row[0] for row in new.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = {table: {row[1] for row in new.execute(f'PRAGMA table_info("{table}")')}
                   for table in tables}
    assert_same_columns_as_a_new_database(columns)


@pytest.mark.django_db
def test_a_postgresql_database_of_the_old_apps_keeps_every_row():
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL pass replays the PostgreSQL dump")
    import psycopg

    server = settings.DATABASES["default"]
    name = f"legacy_{uuid.uuid4().hex[:12]}"
    admin = psycopg.connect(host=server["HOST"] or "127.0.0.1", port=server["PORT"] or 5432,
                            user=server["USER"], password=server["PASSWORD"] or None,
                            dbname="postgres", autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        url = (f"postgres://{server['USER']}@{server['HOST'] or '127.0.0.1'}:"
               f"{server['PORT'] or 5432}/{name}")
        with psycopg.connect(url, autocommit=True) as old:
            for statement in sqlparse.split(dump("legacy_postgresql.sql.gz")):
                if statement.strip().strip(";").strip():
                    old.execute(statement)
            old.execute("SET search_path TO public")
            before = {table: old.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                      for (table,) in old.execute(
                          "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert set(MOVED) <= set(before)

        migrate(url)

        with psycopg.connect(url) as new:
            tables = {table for (table,) in new.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
            after = {table: new.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
                     for table in expected_tables(before)}
            assert not set(MOVED) & tables
            assert after == expected_tables(before)
            # The ids go on from the old sequences: the next event gets a free id.
            for table in ("events_tournament", "scoring_deal", "tableside_matchevent"):
                free, taken = new.execute(
                    f"SELECT nextval(pg_get_serial_sequence('{table}', 'id')), "
                    f"MAX(id) FROM {table}").fetchone()
                assert free > taken, table
            columns = {
                table: {column for (column,) in new.execute(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_schema = 'public' AND table_name = %s", [table])}
                for table in tables}
        assert_same_columns_as_a_new_database(columns)
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
