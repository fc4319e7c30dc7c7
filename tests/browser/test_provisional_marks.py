"""A result not yet signed by both players, as a visitor sees it in the browser: the standings
rows and the bracket box marked, nothing sideways on a phone, and the mark gone by itself at the
next poll once the second player signs. Screenshots (390×844 and 1280×900) go to
$PROVISIONAL_SCREENSHOTS (a folder) when it is set."""

import datetime
import os
import random

import pytest
from django.urls import reverse

from events import services
from events.models import Entry, EntryMode, Pairing, Tournament
from tableside import table_entry
from tests.formats.test_knockout_services import at
from tests.formats.test_knockout_services import started as knockout_started
from tests.tableside.test_table_entry import enter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    folder = os.environ.get("PROVISIONAL_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


@pytest.fixture
def round_robin(organiser, home_club, players):
    """Four players, players_sign; round 1: table 1 signed by both, table 2 not signed."""
    tournament = Tournament.objects.create(
        name="Купа Родопи", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN, entry_mode=EntryMode.PLAYERS_SIGN,
    )
    for number, player in enumerate(players[:4], start=1):
        Entry.objects.create(tournament=tournament, player=player, number=number)
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    signed, unsigned = (Pairing.objects.get(round__tournament=tournament, round__number=1,
                                            table=table).match for table in (1, 2))
    enter(signed, "A3 A3 A2 A3")
    table_entry.result_sign(match=signed, seat="A")
    table_entry.result_sign(match=signed, seat="B")
    enter(unsigned, "B3 B3 B2 B3", seat="B")
    return tournament, unsigned


def test_the_standings_mark_two_rows_until_the_second_signature(open_page, live_site,
                                                                round_robin):
    tournament, unsigned = round_robin
    url = live_site.url + reverse("standings:standings", args=[tournament.pk])
    wide = open_page(1280, 900)
    wide.goto(url)
    assert wide.locator("table.standings .unsigned-mark").count() == 2
    shot(wide, "standings-1280")
    page = open_page()
    page.goto(url)
    assert page.locator("table.standings .unsigned-mark").count() == 2
    assert page.locator(".unsigned-note").inner_text().startswith("* 1 result is provisional")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "standings-390")
    table_entry.result_sign(match=unsigned, seat="A")
    table_entry.result_sign(match=unsigned, seat="B")
    page.wait_for_selector(".unsigned-note", state="detached", timeout=12_000)  # one poll
    assert page.locator("table.standings .unsigned-mark").count() == 0


def test_the_bracket_marks_the_unsigned_winner_who_goes_on(open_page, live_site, organiser):
    cup = knockout_started(4)
    cup.entry_mode = EntryMode.PLAYERS_SIGN
    cup.save(update_fields=["entry_mode"])
    semifinal = at(cup, 1, 0)
    enter(semifinal.match, "A3 A3 A2 A3")
    enter(at(cup, 1, 1).match, "A3 A2 A3", seat="A")  # the other semifinal being played
    url = live_site.url + reverse("knockout:bracket", args=[cup.pk])
    for width, height in ((390, 844), (1280, 900)):
        page = open_page(width, height)
        page.goto(url)
        box = page.locator(".bm-unsigned")
        assert box.count() == 1
        assert box.locator(".bm-side.won .unsigned-mark").count() == 1
        final_names = page.locator(".bracket-round").nth(1).locator(".name").all_inner_texts()
        assert semifinal.entry_a.player.name in final_names  # gone on to the final
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"bracket-{width}")
