"""The settings promise of docs/deployment.md "Configuration": env-only, SQLite tuned for
concurrent writers."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def run_settings(env_overrides: dict[str, str], code: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "DEBUG"}}
    env.update(env_overrides)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )


def test_defaults_are_bulgarian_and_sofia():
    assert settings.LANGUAGE_CODE == "bg"
    assert settings.TIME_ZONE == "Europe/Sofia"
    assert [code for code, _ in settings.LANGUAGES] == ["bg", "en"]


@pytest.mark.real_process
def test_refuses_the_development_secret_key_when_debug_is_off():
    result = run_settings({"DEBUG": "false"}, "print('started')")
    assert result.returncode != 0
    assert "SECRET_KEY is the development default while DEBUG is off" in result.stderr


@pytest.mark.real_process
def test_starts_with_a_real_secret_key_when_debug_is_off():
    result = run_settings(
        {"DEBUG": "false", "SECRET_KEY": "x" * 60},
        "from django.conf import settings; print(settings.DEBUG)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


@pytest.mark.real_process
def test_database_url_selects_postgresql():
    result = run_settings(
        {"DATABASE_URL": "postgres://santa@db.example:5433/club"},
        "from django.conf import settings; d = settings.DATABASES['default'];"
        "print(d['ENGINE'], d['HOST'], d['PORT'], d['NAME'], d['USER'])",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql", "db.example", "5433", "club", "santa"
    ]


@pytest.mark.real_process
def test_trusted_proxies_are_addresses_or_networks():
    result = run_settings(
        {"TRUSTED_PROXIES": "10.0.0.0/24,127.0.0.1"},
        "from django.conf import settings; print(*settings.TRUSTED_PROXIES)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["10.0.0.0/24", "127.0.0.1/32"]


@pytest.mark.real_process
def test_a_malformed_trusted_proxy_fails_at_start_with_its_name():
    result = run_settings({"TRUSTED_PROXIES": "nginx.local"}, "print('started')")
    assert result.returncode != 0
    assert "TRUSTED_PROXIES" in result.stderr and "nginx.local" in result.stderr


@pytest.mark.real_process
def test_broker_unset_means_eager_tasks():
    result = run_settings(
        {"CELERY_BROKER_URL": ""},
        "from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert result.stdout.strip() == "True"
    result = run_settings(
        {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"},
        "from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert result.stdout.strip() == "False"


@pytest.mark.django_db
def test_sqlite_runs_in_wal_with_immediate_transactions():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite pass only")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 1  # NORMAL
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] == 20_000
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


@pytest.mark.real_process
def test_check_deploy_is_clean_with_production_settings():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "HTTPS"}}
    env.update(DEBUG="false", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="66.example.bg")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


DEVELOPMENT_KEY_WARNING = "SECRET_KEY is the development default"


@pytest.mark.real_process
def test_the_development_key_warning_prints_once_per_command():
    """`runserver` loads the settings in its reloader and again in the child that serves (as
    gunicorn does in each worker): the parent below loads them, then runs `manage.py check`
    in a child process with the same environment. The warning belongs to the command: once."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY"}}
    env.update(DEBUG="true", DJANGO_SETTINGS_MODULE="config.settings")
    parent = (
        "import subprocess, sys, django; django.setup(); "
        "sys.exit(subprocess.run([sys.executable, 'manage.py', 'check']).returncode)"
    )
    result = subprocess.run(
        [sys.executable, "-c", parent],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert output.count(DEVELOPMENT_KEY_WARNING) == 1, output


@pytest.mark.real_process
def test_the_development_key_warning_prints_once_in_check():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY"}}
    env.update(DEBUG="true")
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert output.count(DEVELOPMENT_KEY_WARNING) == 1, output


@pytest.mark.real_process
def test_a_real_key_draws_no_development_key_warning():
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL"}}
    env.update(DEBUG="true", SECRET_KEY=secrets.token_urlsafe(50))
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert DEVELOPMENT_KEY_WARNING not in result.stdout + result.stderr
