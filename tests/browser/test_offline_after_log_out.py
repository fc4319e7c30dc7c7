"""The service worker keeps an organiser's match page for a reload offline, for that session
only: once the session has ended, however it ended (a log-out in the admin, which never tells
the worker; a session that expired), the page is not shown offline, neither at its address nor
as the app's start page (static/js/sw.js, static/js/session_check.js,
config.middleware.SessionMarkerMiddleware)."""

import random

import pytest
from playwright.sync_api import Error as PlaywrightError

from events import services as tournament_services
from events.models import Pairing
from tests.browser.conftest import log_in
from tests.browser.test_offline_entry import go_offline, kept_for_offline

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match(tournament):
    tournament_services.tournament_start(tournament=tournament, rng=random.Random(1))
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


@pytest.fixture
def staff_organiser(organiser):
    organiser.is_staff = True  # the admin opens for them
    organiser.save(update_fields=["is_staff"])
    return organiser


def open_offline(page, url) -> str:
    """What the phone shows at `url` while offline: the page's text, "" when nothing opens."""
    try:
        page.goto(url)
    except PlaywrightError:  # the browser's own "no internet" page
        return ""
    page.wait_for_load_state("domcontentloaded")
    return page.locator("body").inner_text() if page.locator("body").is_visible() else ""


def organisers_page_kept(page, live_site, organiser, match):
    log_in(page, live_site, organiser)
    # The service worker registered by a first page, as on a phone used before (see
    # test_offline_entry: a match page drawn before the worker was in charge now and then
    # fails its reload offline under Playwright's emulation).
    page.goto(f"{live_site.url}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{live_site.url}/m/{match.pk}/")
    page.wait_for_selector("text=Save deal 1")
    kept_for_offline(page)


def assert_not_shown(page, live_site, match):
    for url in (f"{live_site.url}/", f"{live_site.url}/m/{match.pk}/"):
        shown = open_offline(page, url)
        assert "Save deal 1" not in shown, url
        assert "organiser" not in shown, url  # the name in the page header


def test_a_log_out_in_the_admin_leaves_no_organisers_page_offline(open_page, live_site,
                                                                  staff_organiser, match):
    page = open_page()
    organisers_page_kept(page, live_site, staff_organiser, match)
    # While logged in, the kept page opens offline (what the rest of this test takes away).
    go_offline(page.context, True)
    assert "Save deal 1" in open_offline(page, f"{live_site.url}/m/{match.pk}/")
    go_offline(page.context, False)
    page.goto(f"{live_site.url}/admin/")
    page.click("#logout-form button")
    page.wait_for_url(f"{live_site.url}/")  # LOGOUT_REDIRECT_URL, the home page, logged out
    page.wait_for_selector(".site-nav >> text=Log in")
    go_offline(page.context, True)
    assert_not_shown(page, live_site, match)


def test_a_session_that_ended_while_offline_leaves_no_page(open_page, live_site, organiser,
                                                           match):
    """The session's cookies ran out (the marker's lasts as long as the session's): nothing
    of the organiser's is shown, though the copy was kept."""
    page = open_page()
    organisers_page_kept(page, live_site, organiser, match)
    go_offline(page.context, True)
    page.context.clear_cookies()
    assert_not_shown(page, live_site, match)


def test_a_page_opened_past_the_worker_checks_its_session_itself(open_page, live_site,
                                                                 organiser, match):
    """static/js/session_check.js: a page drawn for another session is not drawn, and says
    why. Here the copy is the page as the server drew it for this session, handed back after
    the browser's marker changed (as a cache that did not check would)."""
    page = open_page()
    log_in(page, live_site, organiser)
    url = f"{live_site.url}/m/{match.pk}/"
    copy = page.context.request.get(url).text()
    assert '<meta name="session-marker" content="' in copy
    page.context.add_cookies([{"name": "session_marker", "value": "another-session",
                               "url": live_site.url}])
    page.context.route(url, lambda route: route.fulfill(body=copy, content_type="text/html"))
    page.goto(url)
    page.wait_for_selector("text=This page was kept on this phone for a session that has ended")
    assert not page.locator("text=Save deal 1").is_visible()
    assert page.locator("a", has_text="Log in").count() == 1
