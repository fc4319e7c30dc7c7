"""Groups, then a knockout, in a real browser: an organiser finds her 12-player event of
three groups with two going on from each drawn, enters a group match, watches the group
tables, starts the knockout (confirming, as one group match is left unplayed), sees the
bracket and, once it is played, the podium. The event and its players (`organiser_event`,
started) and every other match, the final included, are made and entered through the
services; the page is loaded again to show them. Screenshots (390 and 1280 px wide) go to
$GROUPS_SCREENSHOTS (a folder) when it is set.

Seeds are the order the players are added. Groups by snake order (test_groups_services):
A = 1, 6, 7, 12; B = 2, 5, 8, 11; C = 3, 4, 9, 10. The better seed wins every group match;
the match left unplayed is round 3, table 6 (seeds 9 and 3), which changes nothing at the
top of group C (3 beat 4 head to head). Knockout, rounds 4-6: A1 (seed 1) and B1 (2) have
byes, C2 (4) v B2 (5), C1 (3) v A2 (6); seeds 4 and 3 win, then 1 and 2; the final is
Иван (1) v Мария (2), won by Иван."""

import os

import pytest
from django.urls import reverse

from events.models import Pairing, Tournament
from scoring.models import Match
from tests.browser.conftest import organiser_event
from tests.browser.test_knockout_flow import ELEVEN, enter_deals
from tests.playing import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов", "Светла Иванова", "Николай Тодоров", "Йорданка Христова",
           "Петър Василев", "Радка Колева", "Стоян Маринов", "Цветелина Пенева"]


def better_seed_wins(pairing: Pairing) -> None:
    play(pairing.match, "A3 A3 A3 A2" if pairing.entry_a.number < pairing.entry_b.number
         else "B3 B3 B3 B2")


def shot(page, name):
    folder = os.environ.get("GROUPS_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_twelve_players_in_groups_then_a_knockout_to_the_champion(open_page, live_site):
    page = open_page()
    tournament = organiser_event(page, live_site, PLAYERS, format="groups_knockout",
                                 name="Купа по групи", group_count=3, group_advance=2)
    page.wait_for_selector("text=Group A · 4 players")
    assert page.locator("#group-C tbody tr").count() == 4
    assert "Start the knockout now" in page.content()

    # Round 1, table 1: Иван (1) v Цветелина (12), entered in the browser.
    page.click("nav.tabs >> text=Rounds")
    page.wait_for_selector("table.pairings")
    assert page.locator("table.pairings tbody tr").nth(0).locator("td").nth(1).inner_text() == "A"
    page.locator("table.pairings tbody tr").nth(0).locator("text=enter deals").click()
    enter_deals(page, "Иван Петров", ELEVEN)
    page.click(".match-nav >> text=Groups and bracket")
    page.wait_for_selector("#group-A")
    first_row = page.locator("#group-A tbody tr").nth(0)
    assert "Иван Петров" in first_row.inner_text()
    assert first_row.locator("td").nth(3).inner_text() == "1"  # won: 1

    # The rest of the groups through the services, all but round 3, table 6.
    pairings = Pairing.objects.filter(
        round__tournament=tournament, round__stage="groups", match__isnull=False,
    ).exclude(match__status=Match.Status.FINISHED).select_related(
        "entry_a", "entry_b", "match").order_by("round__number", "table")
    left = None
    for pairing in pairings:
        if (pairing.round.number, pairing.table) == (3, 6):
            left = pairing
            continue
        better_seed_wins(pairing)
    page.reload()
    assert page.locator("tr.goes-on").count() == 6

    # Start the knockout now: asked to confirm (one group match is open), then drawn.
    page.click("text=Start the knockout now")
    page.wait_for_selector("text=Group matches not over yet: 1.")
    page.click("text=Close them and start the knockout")
    page.wait_for_selector("#bracket-board")
    assert Match.objects.get(pk=left.match_id).status == Match.Status.UNPLAYED
    quarterfinals = page.locator(".bracket-round").nth(0)
    assert quarterfinals.locator(".bm-bye").count() == 2
    assert quarterfinals.locator(".bm", has_text="Елена Стоянова").locator(
        "text=Димитър Николов").count() == 1

    # The quarterfinals, the semifinals and the final through the services: the better seed
    # wins.
    for number in (4, 5, 6):
        for pairing in Pairing.objects.filter(
            round__tournament=tournament, round__number=number, match__isnull=False
        ).select_related("entry_a", "entry_b", "match"):
            better_seed_wins(pairing)
    page.reload()
    page.wait_for_selector(".podium")
    assert "Иван Петров" in page.locator(".podium .gold").inner_text()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert no_sideways_scroll(page)
    shot(page, "groups-phone")

    wide = open_page(1280, 900)
    wide.goto(live_site.url + reverse("groups:detail", args=[tournament.pk]))
    wide.wait_for_selector(".podium")
    assert no_sideways_scroll(wide)
    shot(wide, "groups-wide")
