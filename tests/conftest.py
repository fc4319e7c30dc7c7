"""The small cast most tests use, built in code."""

import datetime

import pytest
from django.test import Client
from django.test.utils import override_settings

from club.models import Club, Player
from events.models import Entry, Tournament

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


@pytest.fixture(autouse=True)
def cache_emptied():
    """No count or kept part of an earlier test (a rate limit, a live part: SQLite gives a
    rolled-back test's ids again, so another test's page could have the same key)."""
    from django.core.cache import cache

    cache.clear()


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
