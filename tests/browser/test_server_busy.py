"""While the server answers 503 (the database restarting), an htmx deal form keeps what was
entered and says "not saved, tap again" (static/js/server_busy.js); tapped again once the
server is back, the deal is saved once. The organiser is logged in without the form
(`log_in`)."""

import pytest
from django.urls import reverse

from events.models import Pairing
from events.services import tournament_start
from scoring.models import Deal
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = "Not saved: the server is busy. Tap the button again in a moment."


def test_a_deal_sent_while_the_server_is_busy_stays_on_the_form(browser_page, live_site,
                                                               tournament, organiser):
    tournament_start(tournament=tournament)
    match = Pairing.objects.exclude(match=None).first().match
    page = browser_page
    log_in(page, live_site, organiser)
    page.goto(live_site.url + reverse("matches:entry", args=[match.pk]))
    page.click(f"label.choice >> text={match.player_a.name}")
    page.click("label.choice.reason >> text=capot")

    def busy(route):
        route.fulfill(status=503, headers={"Retry-After": "10"}, body="busy")

    add_url = live_site.url + reverse("matches:deal_add", args=[match.pk])
    page.route(add_url, busy)
    page.click("text=Save deal 1")
    note = page.locator("form.quick-entry .server-busy")
    note.wait_for()
    assert note.inner_text() == NOTE
    assert page.locator("form.quick-entry input[name=winner][value=A]").is_checked()
    assert page.locator("form.quick-entry input[name=reason][value=capot]").is_checked()
    assert Deal.objects.count() == 0

    page.unroute(add_url, busy)
    page.click("text=Save deal 1")
    page.wait_for_selector("text=Save deal 2")
    assert page.locator(".server-busy").count() == 0
    assert list(Deal.objects.values_list("number", "winner", "game_points")) == [(1, "A", 3)]
