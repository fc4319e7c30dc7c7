"""Backing up and restoring the SQLite database file (`backup_sqlite`, `restore_sqlite`).

Both copy with SQLite's online backup API, never with a file copy: the database runs in WAL
mode, so its newest pages may live in the ``-wal`` file beside it, and a ``-wal`` left by a
crashed writer is replayed over whatever file carries the database's name when it is next
opened (copying a backup over ``var/santase.sqlite3`` beside such a file brought it back with
1,844 of its 2,344 deals). Each copy is checked (``PRAGMA integrity_check`` and the row counts
of the main tables against the source's) before anyone relies on it.

Plain `sqlite3`, no Django connection: these run on a file that may be missing, damaged or in
use, and the site must not open it behind their back.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from django.apps import apps

COUNTED: tuple[tuple[str, str, str], ...] = (
    ("player", "players", "club.Player"),
    ("tournament", "tournaments", "events.Tournament"),
    ("match", "matches", "scoring.Match"),
    ("deal", "deals", "scoring.Deal"),
)
"""The tables whose rows are counted in the source and in the copy: (singular, plural, model
label)."""
COMPANIONS = ("-wal", "-shm", "-journal")
"""Files SQLite keeps beside a database."""


class BackupError(Exception):
    """The operator's problem (a missing file, a database in use, a bad copy): the message
    says what and what to do; the commands show it without a traceback."""


def companion(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def open_database(path: Path) -> sqlite3.Connection:
    """A connection to the existing SQLite database `path` (autocommit; nothing is created).
    Read-write, so that the last connection to close takes away the ``-wal`` and ``-shm``
    files a database in WAL mode gets when opened.

    Raises `BackupError` if there is no such file or it is not a SQLite database."""
    if not path.is_file():
        raise BackupError(f"There is no database at {path}.")
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True,
                                     isolation_level=None)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite database ({error}).") from None
    return connection


def row_counts(connection: sqlite3.Connection, path: Path) -> dict[str, int]:
    """Rows of each `COUNTED` table, by its plural. Raises `BackupError` when a table is
    missing (not this site's database, or not migrated)."""
    counts = {}
    for _singular, plural, label in COUNTED:
        table = apps.get_model(label)._meta.db_table
        try:
            counts[plural] = connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        except sqlite3.OperationalError:
            raise BackupError(
                f"{path} has no table {table}: it is not this site's database (or it was "
                "never migrated)."
            ) from None
    return counts


def check_integrity(connection: sqlite3.Connection, path: Path) -> None:
    """Raise `BackupError` unless ``PRAGMA integrity_check`` finds the database at `path`
    sound."""
    problems = [row[0] for row in connection.execute("PRAGMA integrity_check").fetchall()]
    if problems != ["ok"]:
        raise BackupError(f"{path} fails SQLite's integrity check: " + "; ".join(problems[:5]))


def check_copy(copy: sqlite3.Connection, path: Path, expected: dict[str, int]) -> dict[str, int]:
    """Check the copy at `path`: sound (`check_integrity`) and its row counts equal `expected`
    (the source's). Returns the counts; raises `BackupError` otherwise."""
    check_integrity(copy, path)
    counts = row_counts(copy, path)
    if counts != expected:
        raise BackupError(f"The copy {path} holds {describe(counts)}, but the source holds "
                          f"{describe(expected)}.")
    return counts


def describe(counts: dict[str, int]) -> str:
    """``12 tournaments, 340 matches, 5,120 deals`` (every counted table, singular for 1)."""
    return ", ".join(
        f"{counts[plural]:,} {singular if counts[plural] == 1 else plural}"
        for singular, plural, _label in COUNTED
    )
