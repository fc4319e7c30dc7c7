import datetime
import random

import pytest
from django.urls import reverse

from events import services as event_services
from formats.club_night import services as club_nights
from passes import services
from scoring import rules
from scoring.models import Match
from tests.browser.conftest import log_in
from tests.passes.test_pass_page import round_robin, win_to_eleven

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
OUT = "/tmp/pass_shots"


def lang(page, live_site, code):
    page.context.add_cookies([{"name": "django_language", "value": code, "url": live_site.url}])


def test_shots(open_page, live_site, organiser, home_club, players):
    tournament = round_robin(home_club, organiser, players[:4])
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    night = club_nights.club_night_create(club=home_club, date=datetime.date(2026, 12, 5),
                                          name="Клубна вечер в петък", organiser=organiser,
                                          house_rules=rules.HouseRules.preset("default"))
    first = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1,
                              pairing__table=1)
    win_to_eleven(first, "A")
    for player in players:
        services.pass_make(player)
    one, four = players[0], players[3]
    for width, height in ((390, 844), (360, 640)):
        for code in ("en", "bg"):
            page = open_page(width, height)
            lang(page, live_site, code)
            for who, label in ((one, "winner"), (four, "loser")):
                page.goto(live_site.url + reverse("passes:page", args=[services.token_of(
                    services.pass_make(who))]))
                page.screenshot(path=f"{OUT}/pass-{label}-{code}-{width}.png", full_page=True)
                print(label, code, width, page.evaluate("document.documentElement.scrollWidth"))
            page.goto(live_site.url + reverse("players:pass_match", args=[
                services.token_of(services.pass_make(four)), first.pk]))
            page.screenshot(path=f"{OUT}/pass-match-{code}-{width}.png", full_page=True)
            print("match", code, width, page.evaluate("document.documentElement.scrollWidth"))
            desk = open_page(width, height)
            lang(desk, live_site, code)
            log_in(desk, live_site, organiser)
            desk.goto(live_site.url + reverse("passes:slips", args=[home_club.pk]))
            desk.screenshot(path=f"{OUT}/slips-{code}-{width}.png", full_page=True)
            print("slips", code, width, desk.evaluate("document.documentElement.scrollWidth"))
            desk.goto(live_site.url + reverse("passes:player", args=[one.pk]))
            desk.screenshot(path=f"{OUT}/player-pass-{code}-{width}.png", full_page=True)
            print("player", code, width, desk.evaluate("document.documentElement.scrollWidth"))
    a4 = open_page(794, 1123)
    log_in(a4, live_site, organiser)
    a4.goto(live_site.url + reverse("passes:slips", args=[home_club.pk]))
    a4.emulate_media(media="print")
    a4.screenshot(path=f"{OUT}/slips-a4-print.png", full_page=True)
    a4.pdf(path=f"{OUT}/slips-a4.pdf", format="A4")
    print("night", night.pk)
