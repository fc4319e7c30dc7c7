"""The browser every browser test drives: Debian's chromium through Playwright, as root with
--no-sandbox, a phone-sized window, the site in English (the language cookie).

One chromium serves a whole run of browser tests, each test in fresh contexts of its own (its
cookies, storage, service workers and offline state go with them). All browser tests go to one
xdist worker (`pytest_xdist_make_scheduler` in tests/conftest.py), so a test run starts chromium
once."""

import datetime
import os

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import Client
from django.urls import reverse

from club.services import player_for_name
from events import registry
from events import services as event_services
from events.models import Tournament
from tests.live_site import LiveSite
from tests.services import CHROMIUM, require_chromium

ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"


class Chromium:
    """Debian's chromium through Playwright's sync API, launched for the first browser test and
    closed when the tests that follow are not browser tests (`pytest_runtest_teardown` below).

    While it is open, Playwright marks its event loop as running in this thread, between calls
    too: Django's async-safety check must not trip meanwhile, in a test, its fixtures or the
    database flush after it. It must not outlive the browser tests either, or it would cover
    the other tests of this worker."""

    def __init__(self):
        self.playwright = self.browser = None
        self.async_unsafe_before = None

    def launch(self):
        if self.browser is not None and not self.browser.is_connected():
            self.close()  # chromium went away: a new one for this test
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.async_unsafe_before = os.environ.get(ASYNC_UNSAFE)
            os.environ[ASYNC_UNSAFE] = "true"
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM,
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
        return self.browser

    def close(self):
        if self.playwright is None:
            return
        try:
            self.browser.close()
        finally:
            self.playwright.stop()
            self.playwright = self.browser = None
            if self.async_unsafe_before is None:
                os.environ.pop(ASYNC_UNSAFE, None)
            else:
                os.environ[ASYNC_UNSAFE] = self.async_unsafe_before
            # Django kept a database connection inside Playwright's event loop; closed here, or
            # PostgreSQL cannot drop the test database.
            connections.close_all()


CHROMIUM_OF_THIS_WORKER = Chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last of a run of browser tests (its fixtures and database flush done), close
    chromium: the next test is not a browser test, or there is none."""
    try:
        return (yield)
    finally:
        if nextitem is None or nextitem.get_closest_marker("browser") is None:
            CHROMIUM_OF_THIS_WORKER.close()


@pytest.fixture(scope="session")
def served_site():
    """The site served by uvicorn in a thread of this test process (`tests/live_site.py`),
    once for the browser tests of a run."""
    site = LiveSite()
    yield site
    site.stop()


@pytest.fixture
def live_site(served_site, transactional_db) -> LiveSite:
    """The site as the browsers reach it (`url`), on this test's database; `stop()`,
    `start()` and `restart()` it as a club's server restarts."""
    yield served_site
    if not served_site.thread.is_alive():
        served_site.start()  # a test that stopped it leaves it running for the next


@pytest.fixture(scope="session")
def chromium():
    """The chromium of this test process (`Chromium`), closed at the latest when the run ends."""
    require_chromium()
    yield CHROMIUM_OF_THIS_WORKER
    CHROMIUM_OF_THIS_WORKER.close()


@pytest.fixture
def open_page(chromium, live_site):
    """A factory of pages (each its own context: another phone, another visitor) in Debian's
    chromium, `open_page(width=390, height=844)`, with the site in English (the language
    cookie). Whatever the Content-Security-Policy blocks on any of them fails the test."""
    browser = chromium.launch()
    contexts, blocked = [], []

    def new_page(width: int = 390, height: int = 844):
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale="en-GB")
        contexts.append(context)
        context.add_cookies([{"name": "django_language", "value": "en",
                              "url": live_site.url}])
        page = context.new_page()
        page.set_default_timeout(15_000)
        # Chromium reports what the Content-Security-Policy blocked on the console.
        page.on("console", lambda message: blocked.append(message.text)
                if "Content Security Policy" in message.text else None)
        return page

    yield new_page
    for context in contexts:
        context.close()
    # The test body ran inside Playwright's event loop, where Django keeps a database
    # connection of its own; close it here, or PostgreSQL cannot drop the test database.
    connections.close_all()
    assert blocked == [], blocked


@pytest.fixture
def browser_page(open_page):
    """One phone-sized page (`open_page`)."""
    return open_page()


def log_in(page, live_site, user) -> None:
    """`page`'s browser logged in as `user` as the login form would leave it, without the
    form: the session cookie of a login made on the server (Django's test client). For the
    tests that are not about logging in; `create_tournament` logs in through the form."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                               "url": live_site.url}])


def organiser_event(page, live_site, players, format="round_robin", start=True,
                    name="Купа на браузъра", **fields) -> Tournament:
    """What `create_tournament` does on the pages, done through the services, for the tests
    that are not about the new-tournament form or the players page: a new organiser (maria)
    and her tournament named `name` (`format`; `fields`: the form's other fields by name,
    e.g. swiss_rounds=4), `players` added by name in order (numbers and seeds 1, 2, ...)
    and, unless `start` is false, started; then `page` logged in as her (`log_in`) and on the
    page she would land on (the players page, or the format's page after the start)."""
    organiser = get_user_model().objects.create_user("maria", password="santase-66-pass")
    tournament = Tournament.objects.create(name=name, date=datetime.date(2026, 12, 19),
                                           format=format, **fields)
    tournament.organisers.add(organiser)
    for player in players:
        event_services.entry_add(tournament=tournament,
                                 player=player_for_name(name=player, club=None))
    event_format = registry.for_tournament(tournament)
    if start:
        event_format.start()
        landing = event_format.page_after_start()
    else:
        landing = reverse("events:players", args=[tournament.pk])
    log_in(page, live_site, organiser)
    page.goto(live_site.url + landing)
    return tournament


def create_tournament(page, live_site, django_user_model, players, format=None,
                      start=True, name="Купа на браузъра", fields=None) -> None:
    """Log in as a new organiser through the login form, create a tournament named `name`
    on the new-tournament form (round robin unless `format` is given; `fields`: {form field
    id: value} filled after the format, e.g. a Swiss's rounds), add `players` by name on
    the players page and, unless `start` is false, start it (`organiser_event` does the same
    through the services)."""
    django_user_model.objects.create_user("maria", password="santase-66-pass")
    page.goto(live_site.url + reverse("login"))
    page.fill("#id_username", "maria")
    page.fill("#id_password", "santase-66-pass")
    page.click("main button[type=submit]")
    page.click("text=New tournament")
    page.fill("#id_name", name)
    page.fill("#id_date", "2026-12-19")
    if format:
        page.select_option("#id_format", format)
    for field, value in (fields or {}).items():
        page.fill(field, value)
    page.click("button.primary >> text=Save")
    for name in players:
        page.fill("#id_new_name", name)
        page.click("button.primary >> text=Add")
        page.wait_for_selector(f"text={name}")
    if start:
        page.click("text=Start the tournament")
