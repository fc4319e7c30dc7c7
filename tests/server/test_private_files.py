"""The site's files are readable by their owner only: a process of the project started with a
permissive umask (022, files 0644) still makes the SQLite database and its -wal and -shm, the
kept secret key and a backup 0600, and the directories it makes (var/, the backups') 0700."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

SCRIPT = """
import json, os, stat, sqlite3
from pathlib import Path
from django.core.management import call_command
from django.db import connection
from server import network

def mode(path):
    return oct(stat.S_IMODE(os.stat(path).st_mode))

call_command("migrate", "--noinput", verbosity=0)
database = Path(connection.settings_dict["NAME"])
with connection.cursor() as cursor:  # a write, so the -wal and -shm are there
    cursor.execute("CREATE TABLE IF NOT EXISTS probe (x integer)")
    cursor.execute("INSERT INTO probe VALUES (1)")
modes = {name: mode(f"{database}{name}") for name in ("", "-wal", "-shm")}
key = Path(os.environ["KEY_DIR"]) / "var" / "secret_key"
network.kept_secret_key(key)
modes["secret_key"], modes["var"] = mode(key), mode(key.parent)
call_command("backup_sqlite", os.environ["BACKUP_DIR"] + "/", stdout=open(os.devnull, "w"))
backups = Path(os.environ["BACKUP_DIR"])
modes["backups"] = mode(backups)
modes["backup"] = [mode(path) for path in backups.iterdir()]
print(json.dumps(modes))
"""


@pytest.mark.real_process
def test_the_database_the_key_and_the_backups_are_the_owner_s_alone(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
           "KEY_DIR": str(tmp_path), "BACKUP_DIR": str(tmp_path / "nightly" / "backups"),
           "MEDIA_ROOT": str(tmp_path / "media"), "CI": ""}
    done = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "shell", "-c", SCRIPT],
        env=env, cwd=settings.BASE_DIR, capture_output=True, text=True, umask=0o022,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    modes = json.loads(done.stdout.strip().splitlines()[-1])
    assert modes == {"": "0o600", "-wal": "0o600", "-shm": "0o600", "secret_key": "0o600",
                     "var": "0o700", "backups": "0o700", "backup": ["0o600"]}
