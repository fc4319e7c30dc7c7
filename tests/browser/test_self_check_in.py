"""Self check-in on a phone (390×844): the projector (1280×720) shows the club's join code; the
phone opens the join page, taps its name and waits; the organiser approves in the control
room; the phone lands on its pass within 5 s, without a reload. Screenshots go to
$CHECK_IN_SCREENSHOTS (a folder) when it is set: the join and waiting pages at 360×640 in
English and Bulgarian, and the projector's join slide."""

import os
import random

import pytest
from django.urls import reverse

from events import services as event_services
from passes import check_in, services
from tests.browser.conftest import log_in
from tests.passes.test_pass_page import round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = os.environ.get("CHECK_IN_SCREENSHOTS")


def shot(page, name):
    if FOLDER:
        page.screenshot(path=os.path.join(FOLDER, f"{name}.png"), full_page=True)


def small_phone_shots(open_page, live_site, join_url, player):
    """The join and waiting pages at 360×640 in both languages (a claim each, never
    approved), for looking at."""
    for language in ("en", "bg"):
        small = open_page(360, 640)
        small.context.add_cookies([{"name": "django_language", "value": language,
                                    "url": live_site.url}])
        small.goto(join_url)
        shot(small, f"join-{language}-360")
        assert small.evaluate("document.documentElement.scrollWidth") <= 360
        small.click(f"button >> text={player.name}")
        small.wait_for_selector(".claim-number strong")
        shot(small, f"waiting-{language}-360")
        assert small.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_phone_checks_in_and_lands_on_its_pass(open_page, live_site, organiser, home_club,
                                                 players):
    tournament = round_robin(home_club, organiser, players[:4])
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    code = check_in.join_code_of(home_club)
    player = players[2]

    projector = open_page(1280, 720)
    projector.goto(live_site.url + reverse("live:projector", args=[tournament.pk])
                   + "?every=600")
    projector.wait_for_selector(".slide.current")
    for _ in range(10):
        if projector.evaluate("document.querySelector('.slide.current').dataset.slide")\
                == "join":
            break
        projector.keyboard.press("PageDown")
    assert projector.locator(".slide.current .join-code-big").inner_text() == code
    assert projector.locator(".slide.current img.join-qr").is_visible()
    shot(projector, "projector-join-1280")
    box = projector.evaluate("() => { const r = document.querySelector('.slide.current')"
                             ".getBoundingClientRect(); return [r.bottom, r.right]; }")
    assert box[0] <= 720 and box[1] <= 1280

    join_url = live_site.url + reverse("passes:join", args=[code])
    if FOLDER:
        small_phone_shots(open_page, live_site, join_url, players[3])

    phone = open_page()
    phone.goto(join_url)
    phone.click(f"button >> text={player.name}")
    phone.wait_for_selector("text=Ask the organiser to confirm")
    number = phone.locator(".claim-number strong").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    desk = open_page(1280, 900)
    log_in(desk, live_site, organiser)
    desk.goto(live_site.url + reverse("control:room", args=[tournament.pk]))
    row = desk.locator(".check-in-claim", has_text=player.name)
    assert f"the phone shows {number}" in row.inner_text()
    shot(desk, "control-room-claims")
    row.locator("button >> text=Approve").click()
    desk.wait_for_selector(f"text={player.name}: approved")

    # No reload: the claim's stream tells the phone, which goes on to the pass by itself.
    token = services.token_of(services.valid_pass_of(player.pk))
    phone.wait_for_url(live_site.url + reverse("passes:page", args=[token]), timeout=5_000)
    phone.wait_for_selector(f"h1 >> text={player.name}")
    shot(phone, "pass-after-check-in")
