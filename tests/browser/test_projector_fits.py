"""The projector at 1280×720 with a Swiss of 32 players, round 1 played and round 2 paired:
each slide, as projector.js brings it on, fits the screen (no element's bottom below the
window, nothing past its right edge), its table rows in type of at least a thirtieth of the
screen's height (`live.slides.SMALLEST_TYPE`: 24 px at 720); and the slide on show stays on
show when a result swaps the slides in. The slides are stepped through as a presenter's
clicker does (PageDown), not waited for.

The slides: who sits where (16 tables), round 2 in two slides of 8 tables, the standings in
three of 11, 11 and 10 rows (`live.slides.table_slides`)."""

import datetime

import pytest
from django.urls import reverse

from club.models import Player
from events import registry
from events.models import Entry, Tournament
from scoring.models import Match
from tests.playing import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Александър", "Светослава", "Константин", "Радостина", "Христо", "Йорданка",
         "Димитър", "Теодора"]
LAST = ["Константинов", "Василева-Маринова", "Атанасов", "Тодорова"]
WIDTH, HEIGHT = 1280, 720

OUT_OF_THE_WINDOW = """() => {
  const slide = document.querySelector('.slide.current');
  const out = [];
  for (const element of [slide, ...slide.querySelectorAll('*')]) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.bottom > window.innerHeight + 0.5 || box.right > window.innerWidth + 0.5)
      out.push(element.tagName + '.' + element.className + ' ' + Math.round(box.bottom));
  }
  return out;
}"""
SMALLEST_ROW_TYPE = """() => Math.min(...[...document.querySelectorAll(
  '.slide.current tbody td, .slide.current .seat-a')].map(
  cell => parseFloat(getComputedStyle(cell).fontSize)))"""


@pytest.fixture
def swiss_32() -> Tournament:
    event = Tournament.objects.create(
        name="Швейцарска система на клуба · 32 играчи", date=datetime.date(2026, 12, 19),
        format=Tournament.Format.SWISS, swiss_rounds=5)
    for number in range(32):
        name = f"{FIRST[number % 8]} {LAST[number // 8]}"
        Entry.objects.create(tournament=event, player=Player.objects.create(name=name),
                             number=number + 1)
    event_format = registry.for_tournament(event)
    event_format.start()
    for match in Match.objects.filter(pairing__round__tournament=event):
        play(match, "A3 A3 A3 A3")
    event_format.pair_next_round(by=None)
    return event


def current(page) -> str:
    return page.evaluate("() => { const s = document.querySelector('.slide.current');"
                         " return s.dataset.slide + ':' + (s.dataset.part || ''); }")


def test_every_slide_fits_1280_by_720(open_page, live_site, swiss_32):
    page = open_page(WIDTH, HEIGHT)
    page.goto(live_site.url + reverse("live:projector", args=[swiss_32.pk]) + "?every=600")
    page.wait_for_selector(".slide.current")
    slides = page.evaluate("() => [...document.querySelectorAll('.slides .slide')].map("
                           "s => s.dataset.slide + ':' + (s.dataset.part || ''))")
    assert slides == ["seating:1", "round:1", "round:2",
                      "standings:1", "standings:2", "standings:3"]
    for index, slide in enumerate(slides):
        if index:
            page.keyboard.press("PageDown")
            page.wait_for_function(
                "i => document.querySelectorAll('.slides .slide')[i]"
                ".classList.contains('current')", arg=index, timeout=2_000)
        assert current(page) == slide
        assert page.evaluate(OUT_OF_THE_WINDOW) == [], slide
        assert page.evaluate(SMALLEST_ROW_TYPE) >= HEIGHT / 30, slide
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def test_the_slide_on_show_stays_across_a_swap(open_page, live_site, swiss_32):
    page = open_page(WIDTH, HEIGHT)
    page.goto(live_site.url + reverse("live:projector", args=[swiss_32.pk]) + "?every=600")
    page.wait_for_function("() => !!document.body.getAttribute('sse-connect')")
    for _ in range(4):  # seating, round 1 and 2, standings 1: on to standings 2
        page.keyboard.press("PageDown")
    page.wait_for_selector('.slide.current[data-slide="standings"][data-part="2"]')
    page.evaluate("() => { window.shownBefore = document.querySelector('.slide.current'); }")
    # A match of round 2 over: the seating slide goes, the standings move on; the slides
    # are swapped in (pushed) within the second, long before the next turn.
    match = Match.objects.filter(pairing__round__tournament=swiss_32,
                                 pairing__round__number=2).order_by("pairing__table").first()
    play(match, "A3 A3 A3 A3")
    # Each of its four deals swaps the slides in; the seating goes with the last.
    page.wait_for_function("() => !document.querySelector('.slide[data-slide=\"seating\"]')"
                           " && !!document.querySelector('.slide.current')", timeout=5_000)
    assert page.evaluate("() => !document.body.contains(window.shownBefore)")
    assert current(page) == "standings:2"


def test_a_32_player_knockout_fits_1280_by_720(open_page, live_site):
    # Round 1 (16 matches) being played: two round slides of 8 tables, then the bracket from
    # the round of 16 on (8 boxes in its first column, `live.slides.bracket_first_column`).
    event = Tournament.objects.create(
        name="Елиминации на клуба · 32 играчи", date=datetime.date(2026, 12, 19),
        format=Tournament.Format.KNOCKOUT)
    for number in range(32):
        name = f"{FIRST[number % 8]} {LAST[number // 8]}"
        Entry.objects.create(tournament=event, player=Player.objects.create(name=name),
                             number=number + 1)
    registry.for_tournament(event).start()
    page = open_page(WIDTH, HEIGHT)
    page.goto(live_site.url + reverse("live:projector", args=[event.pk]) + "?every=600")
    page.wait_for_selector(".slide.current")
    slides = page.evaluate("() => [...document.querySelectorAll('.slides .slide')].map("
                           "s => s.dataset.slide + ':' + (s.dataset.part || ''))")
    assert slides == ["seating:1", "round:1", "round:2", "bracket:"]
    for index, slide in enumerate(slides):
        if index:
            page.keyboard.press("PageDown")
            page.wait_for_function(
                "i => document.querySelectorAll('.slides .slide')[i]"
                ".classList.contains('current')", arg=index, timeout=2_000)
        assert page.evaluate(OUT_OF_THE_WINDOW) == [], slide
    headings = page.locator(".slide.current .bracket-round h3").all_inner_texts()
    assert [text.casefold() for text in headings] == [
        "round of 16", "quarterfinal", "semifinal", "final"]
    assert page.locator(".slide.current .bm").count() == 8 + 4 + 2 + 1
