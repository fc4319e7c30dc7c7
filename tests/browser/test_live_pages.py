"""Live pages in real browsers, served as a club's server serves them (uvicorn,
`tests/live_site.py`): nothing polls; each page holds one stream and fetches its live part when
the stream says the event or the match changed, or, for a visitor who is not signed in, swaps in
the part the stream pushes.

- Two phones at one table and a standings screen: a deal entered on one phone shows on the
  other and on the standings within 1 s, without a reload; after the server restarts, each
  page catches up by itself.
- An organiser enters the deal that wins a match; a spectator's standings page and match page
  show it without a reload and without fetching (pushed); two spectators of one page both see
  it (from one render).
- The projector at 1920×1080 (body text at least 28 px, no site header).
Screenshots at 390×844 go to LIVE_SCREENSHOTS=<dir> when set."""

import datetime
import os
import random
import time
from pathlib import Path

import pytest
from django.urls import reverse

from club.models import Player
from events import services
from events.models import EntryMode, Tournament
from scoring.models import Match
from tableside import table_entry
from tests.playing import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова"]
WITHIN_MS = 1_000  # a change shows on every screen that follows it within a second
SETTLE_MS = 5_000  # an organiser's own page: the answer of their own post


@pytest.fixture
def event(django_user_model) -> tuple[Tournament, Match]:
    """A public four-player round robin, started, its players entering; one match of round 1
    at 10:0 for seat A."""
    organiser = django_user_model.objects.create_user("maria", password="santase-66-pass")
    tournament = Tournament.objects.create(
        name="Купа на живо", date=datetime.date(2026, 12, 19),
        format=Tournament.Format.ROUND_ROBIN, entry_mode=EntryMode.PLAYERS_SIGN,
    )
    tournament.organisers.add(organiser)
    for name in NAMES:
        services.entry_add(tournament=tournament, player=Player.objects.create(name=name))
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    match = Match.objects.filter(pairing__round__tournament=tournament,
                                 pairing__round__number=1).order_by("pairing__table").first()
    play(match, "A3 A3 A3 A1")
    return tournament, match


def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("LIVE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def seated(open_page, live_site, token: str, seat: str):
    """A phone on the players' link, seat `seat` chosen, its stream open."""
    page = open_page()
    page.goto(f"{live_site.url}/p/{token}/")
    page.click(f"button[name=seat][value={seat}]")
    page.wait_for_selector("#players-live")
    return page


def score_of(page) -> str:
    return page.locator(".scoreboard .points").all_inner_texts()


def test_two_phones_and_the_standings_follow_a_deal_and_a_restart(open_page, live_site,
                                                                   event, tmp_path):
    tournament, match = event
    token = table_entry.table_of(match).token
    phone_a = seated(open_page, live_site, token, "A")
    phone_b = seated(open_page, live_site, token, "B")
    standings = open_page()
    standings.goto(live_site.url + reverse("standings:standings", args=[tournament.pk]))
    standings.wait_for_selector("#live-standings p.live")  # "1 match is being played"
    for page in (phone_a, phone_b, standings):
        page.wait_for_function("() => !!document.body.getAttribute('sse-connect')")
    for page in (phone_b, standings):  # phone A's own post loads its page again
        page.evaluate("window.notReloaded = true")
    assert score_of(phone_b)[:2] == ["10", "0"]

    # Phone A enters the deal that wins the match 11:0.
    phone_a.click(f"label.choice >> text={match.player_a.name}")
    phone_a.click("label.choice.reason >> text=+1")
    phone_a.click("#players-live button.primary.big")
    started = time.monotonic()
    phone_b.wait_for_function(
        "() => document.querySelector('.scoreboard .points').innerText.trim() === '11'",
        timeout=WITHIN_MS + 500)
    standings.wait_for_selector("#live-standings p.live", state="detached",
                                timeout=WITHIN_MS + 500)
    lag = time.monotonic() - started  # includes phone A's own post
    assert lag < 2 * WITHIN_MS / 1000, lag
    assert match.player_a.name in standings.locator(
        "#live-standings tbody tr >> nth=0").inner_text()

    # The server restarts; a deal of the next round is saved meanwhile (by the organiser's
    # laptop, say): each page catches up by itself once the server is back.
    live_site.stop()
    other = Match.objects.filter(pairing__round__tournament=tournament,
                                 pairing__round__number=1).exclude(pk=match.pk).get()
    play(other, "B3 B3 B3 B2")  # 11:0: the second match of round 1 is over too
    live_site.start()
    standings.wait_for_function(
        "() => !document.querySelector('#live-standings p.live')", timeout=15_000)
    folder = shots(tmp_path)
    for page in (phone_b, standings):
        assert page.evaluate("window.notReloaded") is True
    for name, page in (("players_a", phone_a), ("players_b", phone_b),
                       ("standings", standings)):
        page.screenshot(path=str(folder / f"{name}_390.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_organisers_deal_shows_on_the_spectators_pages(open_page, live_site, event,
                                                         tmp_path):
    tournament, match = event
    winner = match.player_a.name
    spectators = []
    for _ in range(2):  # two standings screens: one render of the part for both
        page = open_page()
        page.goto(live_site.url + reverse("standings:standings", args=[tournament.pk]))
        page.wait_for_selector("#live-standings p.live")
        spectators.append(page)
    watching = open_page()
    watching.goto(live_site.url + reverse("matches:entry", args=[match.pk]))
    assert watching.locator(".scoreboard .side >> nth=0 >> .points").inner_text() == "10"
    fetched = []  # the spectators are pushed their parts: they fetch none
    for page in (*spectators, watching):
        page.evaluate("window.notReloaded = true")
        page.wait_for_function("() => !!document.body.getAttribute('sse-connect')")
        page.on("request", lambda request: fetched.append(request.url)
                if request.headers.get("hx-request") else None)

    organiser = open_page()
    organiser.goto(live_site.url + reverse("login"))
    organiser.fill("#id_username", "maria")
    organiser.fill("#id_password", "santase-66-pass")
    organiser.click("main button[type=submit]")
    organiser.goto(live_site.url + reverse("matches:entry", args=[match.pk]))
    organiser.click(f"label.choice >> text={winner}")
    organiser.click("label.choice.reason >> text=capot")
    organiser.click("text=Save deal 5")
    organiser.wait_for_selector(f"text={winner} won the match 13:0.", timeout=SETTLE_MS)

    watching.wait_for_selector(f"text={winner} won the match 13:0.", timeout=WITHIN_MS + 500)
    for page in spectators:
        page.wait_for_selector("#live-standings p.live", state="detached",
                               timeout=WITHIN_MS + 500)
        assert winner in page.locator("#live-standings tbody tr >> nth=0").inner_text()
    for page in (*spectators, watching):
        assert page.evaluate("window.notReloaded") is True
    assert fetched == []
    folder = shots(tmp_path)
    watching.screenshot(path=str(folder / "match_390.png"), full_page=True)
    organiser.goto(live_site.url + reverse("events:round", args=[tournament.pk, 1]))
    organiser.screenshot(path=str(folder / "round_390.png"), full_page=True)
    for page in (*spectators, watching, organiser):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_page_asks_nothing_while_nothing_changes(open_page, live_site, event):
    tournament, _ = event
    page = open_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(live_site.url + reverse("standings:standings", args=[tournament.pk]))
    page.wait_for_function("() => !!document.body.getAttribute('sse-connect')")
    page.wait_for_timeout(3_000)
    fetched = [url for url in asked if "/standings/" in url and "/live/" not in url]
    assert len(fetched) == 1  # the page itself; no part fetched again, nothing polled
    assert sum("/live/" in url for url in asked) == 1  # one stream


def test_the_projector_reads_from_across_the_room(open_page, live_site, event, tmp_path):
    tournament, _ = event
    page = open_page(1920, 1080)
    page.goto(live_site.url + reverse("live:projector", args=[tournament.pk])
              + "?every=5")
    assert page.locator(".site-header").count() == 0
    assert page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 28
    page.wait_for_selector(".slide.current")
    if page.locator(".slide.current[data-slide=seating]").count():
        page.keyboard.press("PageDown")  # as a presenter's clicker: on to the round
    page.wait_for_selector(".slide.current[data-slide=round]")
    cell = page.locator(".slide.current td >> nth=1")
    assert page.evaluate("e => parseFloat(getComputedStyle(e).fontSize)",
                         cell.element_handle()) >= 28
    folder = shots(tmp_path)
    page.screenshot(path=str(folder / "projector_round_1920.png"))
    # The next slide by the screen's own clock (every 5 s).
    page.wait_for_selector(".slide.current[data-slide=standings]", timeout=7_000)
    page.screenshot(path=str(folder / "projector_standings_1920.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
