"""The browser every browser test drives: Debian's chromium through Playwright, as root with
--no-sandbox, a phone-sized window, the site in English (the language cookie)."""

import pytest

from tests.services import CHROMIUM, require_chromium


@pytest.fixture
def browser_page(live_server, monkeypatch):
    require_chromium()
    # Playwright runs an event loop in this thread; Django's async-safety check must not trip.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
        browser.close()
