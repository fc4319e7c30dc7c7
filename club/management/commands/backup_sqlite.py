"""Copy the live SQLite database to a file with SQLite's online backup (safe while serving)."""

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


class Command(BaseCommand):
    help = "Back up the SQLite database while the site runs (SQLite online backup API)."

    def add_arguments(self, parser):
        parser.add_argument("target", help="file to write, e.g. backups/santase-2026-12-05.sqlite3")

    def handle(self, *args, target: str, **options):
        if connection.vendor != "sqlite":
            raise CommandError("DATABASE_URL is not SQLite; back up PostgreSQL with pg_dump.")
        source_path = Path(connection.settings_dict["NAME"])
        target_path = Path(target)
        if target_path.resolve() == source_path.resolve():
            raise CommandError("The backup must go to another file than the database itself.")
        target_path.parent.mkdir(parents=True, exist_ok=True)
        source, copy = sqlite3.connect(source_path), sqlite3.connect(target_path)
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
        self.stdout.write(f"Backed up {source_path} to {target_path}")
