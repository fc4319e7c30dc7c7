"""The browser every browser test drives: Debian's chromium through Playwright, as root with
--no-sandbox, a phone-sized window, the site in English (the language cookie)."""

import pytest
from django.db import connections
from django.urls import reverse

from tests.services import CHROMIUM, require_chromium


@pytest.fixture
def open_page(live_server, monkeypatch):
    """A factory of pages (each its own context: another phone, another visitor) in Debian's
    chromium, `open_page(width=390, height=844)`, with the site in English (the language
    cookie). Whatever the Content-Security-Policy blocks on any of them fails the test."""
    require_chromium()
    # Playwright runs an event loop in this thread; Django's async-safety check must not trip.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    blocked = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )

        def new_page(width: int = 390, height: int = 844):
            context = browser.new_context(viewport={"width": width, "height": height},
                                          locale="en-GB")
            context.add_cookies([{"name": "django_language", "value": "en",
                                  "url": live_server.url}])
            page = context.new_page()
            page.set_default_timeout(15_000)
            # Chromium reports what the Content-Security-Policy blocked on the console.
            page.on("console", lambda message: blocked.append(message.text)
                    if "Content Security Policy" in message.text else None)
            return page

        yield new_page
        browser.close()
        # The test body ran inside Playwright's event loop, where Django keeps a database
        # connection of its own; close it here, or PostgreSQL cannot drop the test database.
        connections.close_all()
    assert blocked == [], blocked


@pytest.fixture
def browser_page(open_page):
    """One phone-sized page (`open_page`)."""
    return open_page()


def create_tournament(page, live_server, django_user_model, players, format=None,
                      start=True, name="Купа на браузъра", fields=None) -> None:
    """Log in as a new organiser, create a tournament named `name` (round robin unless
    `format` is given; `fields`: {form field id: value} filled after the format, e.g. a
    Swiss's rounds), add `players` by name and, unless `start` is false, start it."""
    django_user_model.objects.create_user("maria", password="santase-66-pass")
    page.goto(live_server.url + reverse("login"))
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
