"""While the server answers 503 (the database restarting), a deal entered on the organiser's
match page shows in the score at the tap and waits on the phone, "waiting to send", with
nothing stored; once the server is back it is sent by itself (here: when the page is looked at
again, as a phone woken from sleep) and stored once. The organiser is logged in without the
form (`log_in`)."""

import pytest
from django.urls import reverse

from events.models import Pairing
from events.services import tournament_start
from scoring.models import Deal
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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

    sync_url = live_site.url + reverse("matches:deal_sync", args=[match.pk])
    page.route(sync_url, busy)
    with page.expect_response(sync_url):
        page.click("text=Save deal 1")
    page.wait_for_selector("text=Deals waiting to send: 1")
    assert page.locator(".scoreboard .side .points").all_inner_texts() == ["3", "0"]
    assert page.locator("text=Save deal 2").count() == 1
    assert Deal.objects.count() == 0

    page.unroute(sync_url, busy)
    with page.expect_response(lambda response: response.url == sync_url and response.ok,
                              timeout=15_000):  # at once, or at the page's next try (10 s)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("document.querySelector('#offline-entry').hidden")
    assert list(Deal.objects.values_list("number", "winner", "game_points")) == [(1, "A", 3)]
