"""The organiser's announcement in real browsers: set from the control room's form, it shows
on an open projector and on a player's phone within 2 s, without a reload; the round's clock
counts down by the screen's own clock, and says the time is up once it is."""

import datetime
import random
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.models import Player
from events import services
from events.models import Round, Tournament
from scoring.models import Match
from tableside import table_entry
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова"]
WITHIN_S = 2.0
TEXT = "Кръг 2 започва в 20:15"


def test_the_announcement_reaches_the_projector_and_a_phone_without_a_reload(open_page,
                                                                              live_site):
    organiser = get_user_model().objects.create_user("maria", password="santase-66-pass")
    tournament = Tournament.objects.create(
        name="Купа на живо", date=datetime.date(2026, 12, 19),
        format=Tournament.Format.ROUND_ROBIN, round_minutes=45)
    tournament.organisers.add(organiser)
    for name in NAMES:
        services.entry_add(tournament=tournament, player=Player.objects.create(name=name))
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    Round.objects.filter(tournament=tournament, number=1).update(
        started_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=10))
    match = Match.objects.filter(pairing__round__tournament=tournament,
                                 pairing__round__number=1).order_by("pairing__table").first()

    projector = open_page(1920, 1080)
    projector.goto(live_site.url + reverse("live:projector", args=[tournament.pk]))
    phone = open_page()
    phone.goto(f"{live_site.url}/p/{table_entry.table_of(match).token}/")
    phone.click("button[name=seat][value=A]")
    phone.wait_for_selector("#players-live")
    for page in (projector, phone):
        page.wait_for_function("() => !!document.body.getAttribute('sse-connect')")
        page.evaluate("window.notReloaded = true")
        assert page.locator("[data-announcement]").count() == 0
    # The clock: 45 minutes from ten minutes ago, counted by the screen (some 35 minutes left).
    left = projector.locator(".round-clock-left").inner_text()
    assert re.fullmatch(r"3[45]:\d\d left", left), left
    assert projector.locator(".seating-grid .seat-table").count() == 2

    control = open_page()
    log_in(control, live_site, organiser)
    control.goto(live_site.url + reverse("control:room", args=[tournament.pk]))
    control.fill("#id_announcement", TEXT)
    control.click(".announcement-form button.primary")
    started = time.monotonic()
    for page in (projector, phone):
        page.wait_for_selector(f"[data-announcement] >> text={TEXT}",
                               timeout=int(WITHIN_S * 1000))
    assert time.monotonic() - started < WITHIN_S
    for page in (projector, phone):
        assert page.evaluate("window.notReloaded") is True
    control.wait_for_selector(f"[data-announcement] >> text={TEXT}")

    # Cleared: gone from both, again without a reload. (Meanwhile the round is made to have
    # started an hour ago: the part the change brings carries the new end time, and the
    # screens' clocks say the time is up.)
    Round.objects.filter(tournament=tournament, number=1).update(
        started_at=datetime.datetime.now(datetime.UTC) - datetime.timedelta(hours=1))
    control.click(".announcement-form button.secondary")
    for page in (projector, phone):
        page.wait_for_selector("[data-announcement]", state="detached",
                               timeout=int(WITHIN_S * 1000))
        assert page.evaluate("window.notReloaded") is True
        page.wait_for_selector(".round-clock.time-up >> text=time is up", timeout=1500)
