"""`manage.py restore_sqlite BACKUP`: put a backup (from `backup_sqlite`) back as the site's
SQLite database, with the site stopped.

A plain copy of the backup over the database file is not safe: a ``-wal`` file left beside it
by a crashed writer is replayed over the copied file at the next start and loses data. This
command:

1. checks the backup (a SQLite database of this site, ``PRAGMA integrity_check``) and counts
   its rows;
2. takes the database file for itself (SQLite's exclusive lock, and the journal switched out of
   WAL, which SQLite allows only to the one connection left): refused while the site, a worker
   or any other command has it open. Any ``-wal`` beside it is folded into the old database,
   whose last state is kept as ``<database>.before-restore-<time>``; a file that is not a
   database any more is moved aside under that name with its ``-wal`` and ``-shm``;
3. copies the backup into it with SQLite's backup API while holding the lock, checks the result
   (integrity, the same row counts as the backup) and leaves no ``-wal``, ``-shm`` or
   ``-journal`` beside it.

Prints e.g. ``Restored 30 players, 12 tournaments, 340 matches, 5,120 deals from
backups/x.sqlite3 into var/santase.sqlite3 (integrity ok).`` Any failure: exit 1 and a message.
"""

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils import timezone

from server.sqlite_backup import (
    COMPANIONS,
    BackupError,
    check_copy,
    check_integrity,
    companion,
    describe,
    open_database,
    row_counts,
)

IN_USE = ("{path} is in use: stop the site, its Celery workers and any other manage.py command "
          "first, then restore again.")


class Command(BaseCommand):
    help = "Restore the SQLite database from a backup_sqlite file (stop the site first)."

    def add_arguments(self, parser):
        parser.add_argument("backup", help="a file written by backup_sqlite")

    def handle(self, *args, backup: str, **options):
        if connection.vendor != "sqlite":
            raise CommandError("DATABASE_URL is not SQLite; restore PostgreSQL with pg_restore.")
        connection.close()  # this command's own Django connection must not hold the file
        backup_path = Path(backup)
        target_path = Path(connection.settings_dict["NAME"])
        if backup_path.resolve() == target_path.resolve():
            raise CommandError("The backup is the database itself.")
        try:
            counts, kept = self._restore(backup_path, target_path)
        except BackupError as error:
            raise CommandError(f"Not restored: {error}") from None
        if kept is not None:
            self.stdout.write(f"The database it replaced is kept as {kept}.")
        self.stdout.write(
            f"Restored {describe(counts)} from {backup_path} into {target_path} (integrity ok)."
        )

    def _restore(self, backup_path: Path, target_path: Path):
        source = open_database(backup_path)
        try:
            check_integrity(source, backup_path)
            expected = row_counts(source, backup_path)
            target, kept = self._take(target_path)
            try:
                source.backup(target)
                counts = check_copy(target, target_path, expected)
            finally:
                target.close()
        finally:
            source.close()
        # Closed cleanly after the copy was committed: a -journal (kept, emptied, by the
        # exclusive locking mode), -wal or -shm beside it is of no use any more.
        for suffix in COMPANIONS:
            companion(target_path, suffix).unlink(missing_ok=True)
        return counts, kept

    def _take(self, path: Path) -> tuple[sqlite3.Connection, Path | None]:
        """A connection holding `path` exclusively (rollback journal, exclusive locking mode,
        the lock taken), and where the database it held before was kept (None if none)."""
        stamp = f"{timezone.now():%Y%m%d-%H%M%S}"
        kept = path.with_name(f"{path.name}.before-restore-{stamp}")
        number = 1
        while kept.exists():
            number += 1
            kept = path.with_name(f"{path.name}.before-restore-{stamp}-{number}")
        if path.exists():
            try:
                current = self._lock(path)
            except sqlite3.DatabaseError as error:
                if "locked" in str(error) or "busy" in str(error):
                    raise BackupError(IN_USE.format(path=path)) from None
                current = None  # damaged: keep the file as it is, with its companions
            if current is not None:
                aside = sqlite3.connect(kept)
                try:
                    current.backup(aside)
                finally:
                    aside.close()
                return current, kept
            for suffix in ("", *COMPANIONS):
                if companion(path, suffix).exists():
                    companion(path, suffix).rename(companion(kept, suffix))
        else:
            kept = None
            for suffix in COMPANIONS:  # left without their database: never replay them
                companion(path, suffix).unlink(missing_ok=True)
        return self._lock(path), kept

    def _lock(self, path: Path) -> sqlite3.Connection:
        target = sqlite3.connect(path, timeout=1, isolation_level=None)
        try:
            target.execute("PRAGMA locking_mode=EXCLUSIVE")
            mode = target.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            if mode != "delete":
                raise BackupError(IN_USE.format(path=path))
            target.execute("BEGIN EXCLUSIVE")
            target.execute("COMMIT")
        except BaseException:
            target.close()
            raise
        return target
