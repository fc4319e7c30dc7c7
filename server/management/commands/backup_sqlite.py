"""`manage.py backup_sqlite TARGET [--replace]`: copy the live SQLite database to TARGET with
SQLite's online backup (safe while the site serves), check the copy and say what it holds.

TARGET is a file, or a directory (an existing one, or a path ending in ``/``): the copy is
then ``santase-YYYY-MM-DD-HHMMSS.sqlite3`` inside it (local time). An existing file is
refused unless ``--replace``. Refuses (exit 1, nothing written) a database that does not exist
or is not SQLite, or is not this site's. The copy is written beside TARGET first as
``<name>.partial`` and checked (``PRAGMA integrity_check``, the row counts of players,
tournaments, matches and deals equal to the database's at the same moment); only a good copy
replaces TARGET, and the ``.partial`` file never outlives a failure. Prints e.g. ``Backed up
30 players, 12 tournaments, 340 matches, 5,120 deals: var/santase.sqlite3 →
backups/x.sqlite3 (integrity ok).``
"""

import os
import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from server.sqlite_backup import (
    COMPANIONS,
    BackupError,
    check_copy,
    companion,
    describe,
    open_database,
    row_counts,
)


class Command(BaseCommand):
    help = "Back up the SQLite database while the site runs (SQLite online backup API)."

    def add_arguments(self, parser):
        parser.add_argument(
            "target",
            help="file to write, e.g. backups/santase-2026-12-05.sqlite3, or a directory "
                 "(the file is then named santase-YYYY-MM-DD-HHMMSS.sqlite3)",
        )
        parser.add_argument(
            "--replace", action="store_true", help="overwrite TARGET if the file exists"
        )

    def handle(self, *args, target: str, replace: bool = False, **options):
        if connection.vendor != "sqlite":
            raise CommandError("DATABASE_URL is not SQLite; back up PostgreSQL with pg_dump.")
        source_path = Path(connection.settings_dict["NAME"])
        target_path = Path(target)
        if target_path.is_dir() or target.endswith(("/", os.sep)):
            stamp = timezone.localtime().strftime("%Y-%m-%d-%H%M%S")
            target_path = target_path / f"santase-{stamp}.sqlite3"
        if target_path.exists() and not target_path.is_file():
            raise CommandError(f"Not backed up: {target_path} exists and is not a file.")
        if target_path.exists() and not replace:
            raise CommandError(
                f"Not backed up: {target_path} already exists. Name another file, give a "
                "directory, or pass --replace to overwrite it."
            )
        if target_path.resolve() == source_path.resolve():
            raise CommandError("The backup must go to another file than the database itself.")
        try:
            counts = self._backup(source_path, target_path)
        except BackupError as error:
            raise CommandError(f"Not backed up: {error}") from None
        self.stdout.write(
            f"Backed up {describe(counts)}: {source_path} → {target_path} (integrity ok)."
        )

    def _backup(self, source_path: Path, target_path: Path) -> dict[str, int]:
        source = open_database(source_path)
        partial = target_path.with_name(target_path.name + ".partial")
        try:
            # One read transaction: the counts and the copy see the same moment.
            source.execute("BEGIN")
            expected = row_counts(source, source_path)
            target_path.parent.mkdir(parents=True, exist_ok=True)
            for path in (partial, *(companion(partial, suffix) for suffix in COMPANIONS)):
                path.unlink(missing_ok=True)
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                source.backup(copy)
                source.execute("COMMIT")
                # One self-contained file: a rollback journal, not WAL like the database.
                copy.execute("PRAGMA journal_mode=DELETE")
                counts = check_copy(copy, partial, expected)
            finally:
                copy.close()
            # Files beside an older backup of that name would be read with the new one.
            for suffix in COMPANIONS:
                companion(target_path, suffix).unlink(missing_ok=True)
            os.replace(partial, target_path)
        except BaseException as error:
            for path in (partial, *(companion(partial, suffix) for suffix in COMPANIONS)):
                path.unlink(missing_ok=True)
            if isinstance(error, OSError):  # a directory that cannot be written, a full disk
                raise BackupError(
                    f"could not write {target_path} ({error.strerror or error})."
                ) from None
            raise
        finally:
            source.close()
        return counts
