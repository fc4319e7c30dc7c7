"""The small cast most tests use, built in code."""

import datetime
import os

import pytest
from django.test import Client
from django.test.utils import override_settings

from club.models import Club, Player
from events import versions
from events.models import Entry, Tournament

# The PostgreSQL pass is for the database. Skipped there, unless marked `postgres` (the database
# is what such a test checks):
# - tests that start real processes (chromium, a Celery worker, gunicorn, a `manage.py` or
#   Python child), marked `browser`, `redis_worker` or `real_process`: they run in the SQLite
#   pass only;
# - tests that never open the database (no `django_db` mark, no fixture that opens it): they
#   run the same code on either database.
ONE_PASS_MARKERS = ("browser", "redis_worker", "real_process")


def opens_the_database(item) -> bool:
    fixtures = set(getattr(item, "fixturenames", ()))
    # `db`, `transactional_db` and every fixture built on them request `_django_db_helper`;
    # `live_site` (the browser tests' server) asks for the database only once the test runs.
    return (item.get_closest_marker("django_db") is not None
            or bool(fixtures & {"_django_db_helper", "live_site"}))


def pytest_collection_modifyitems(config, items):
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    real_process = pytest.mark.skip(reason="starts real processes: runs in the SQLite pass")
    no_database = pytest.mark.skip(reason="opens no database: runs in the SQLite pass")
    for item in items:
        if item.get_closest_marker("postgres"):
            continue
        if any(item.get_closest_marker(name) for name in ONE_PASS_MARKERS):
            item.add_marker(real_process)
        elif not opens_the_database(item):
            item.add_marker(no_database)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under `--dist loadgroup` (pyproject.toml), every test in a `browser` folder goes to one
    xdist worker, so a run starts chromium once (tests/browser/conftest.py). The folder decides,
    not the `browser` mark: the scheduler sees only the tests' ids, and xdist's own way of
    putting a mark's group into the ids no longer reaches them under pytest 9.2."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class BrowserTestsTogether(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            if "/browser/" in "/" + nodeid.split("::", 1)[0]:
                return "browser"
            return super()._split_scope(nodeid)

    return BrowserTestsTogether(config, log)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and at its end on PostgreSQL the connections that the
    threads of the async tests (the streams' `sync_to_async` workers, the watcher) still hold
    closed first, so the test database can be dropped."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")


BACKGROUND_NICENESS = 5
"""How much lower the workers run while they take other tests than the browser tests."""
_yielded = []


def pytest_runtest_setup(item):
    """The browser tests all run on one worker, one after another: they are the run's longest
    line. A worker that starts on any other test lowers its own priority once, for good, so
    the browser worker, chromium and the site it serves get the cores first, and the other
    tests fill what they leave."""
    if _yielded or not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if "/browser/" not in "/" + item.nodeid.split("::", 1)[0]:
        os.nice(BACKGROUND_NICENESS)
        _yielded.append(True)


PLAYER_NAMES = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
                "Димитър Николов", "Светла Иванова", "Николай Тодоров", "Йорданка Христова"]


@pytest.fixture(autouse=True, scope="session")
def cache_of_this_process():
    """Each test process its own memory cache: the site's shared file cache (var/cache) would
    let parallel test processes see each other's rate-limit counters and sessions."""
    memory = "django.core.cache.backends.locmem.LocMemCache"
    with override_settings(CACHES={"default": {"BACKEND": memory},
                                   "fragments": {"BACKEND": memory, "LOCATION": "fragments"}}):
        yield


@pytest.fixture(autouse=True, scope="session")
def static_files_looked_up_when_asked():
    """WhiteNoise looks a static file up when one is asked for, instead of listing the whole
    of var/static each time it starts, which is for every test client: over a thousand files
    once a real `serve_club` has collected there, and about a third of a page test's time."""
    with override_settings(WHITENOISE_AUTOREFRESH=True):
        yield


@pytest.fixture(autouse=True)
def cache_emptied():
    """No count or kept part of an earlier test (a rate limit, a live part: SQLite gives a
    rolled-back test's ids again, so another test's page could have the same key)."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def version_bumps_of_this_test_only():
    """The bumps of versions asked for by a test's transactions, which are rolled back, never
    reach the next test (`events.versions`)."""
    yield
    versions.forget_pending()


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Files (an import's upload, a PDF) go to a temporary MEDIA_ROOT, set before a
    `redis_worker` starts (autouse)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """MD5 instead of PBKDF2's million rounds: a third of a second per user saved (Django's
    "Speeding up the tests"). The site itself keeps the default hashers."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("organiser", password="pass-organiser-1")


@pytest.fixture
def outsider(django_user_model):
    """An organiser of another club: logged in, but not of this tournament."""
    return django_user_model.objects.create_user("outsider", password="pass-outsider-1")


@pytest.fixture
def organiser_client(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def outsider_client(outsider) -> Client:
    client = Client()
    client.force_login(outsider)
    return client


@pytest.fixture
def home_club(organiser) -> Club:
    club = Club.objects.create(name="Клуб Пловдив", city="Пловдив")
    club.organisers.add(organiser)
    return club


@pytest.fixture
def players(home_club) -> list[Player]:
    return [Player.objects.create(name=name, club=home_club) for name in PLAYER_NAMES]


@pytest.fixture
def tournament(organiser, home_club, players) -> Tournament:
    tournament = Tournament.objects.create(
        name="Купа Пловдив", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    tournament.organisers.add(organiser)
    for number, player in enumerate(players[:5], start=1):
        Entry.objects.create(tournament=tournament, player=player, number=number)
    return tournament
