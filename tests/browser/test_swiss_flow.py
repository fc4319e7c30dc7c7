"""A Swiss of nine players over four rounds in a real browser: the organiser finds round 1
paired, enters its first match on its page, pairs each next round with "Pair round N", and
reads the final standings, whose Buchholz values are worked out by hand below. The event and
its players (`organiser_event`, started) and every other match are made and entered through
the services; the round's page is loaded again to show them. Screenshots (390 and 1280 px
wide) go to $SWISS_SCREENSHOTS (a folder) when it is set.

Every match is won by the player with the lower number (1 the first added), 12:0. The
pairing (formats.swiss.pairing solved by rustworkx; seat A, who deals first, first):
  round 1: 1-5, 6-2, 3-7, 8-4, bye 9   (top half against bottom half)
  round 2: 2-1, 5-3, 4-9, 7-6, bye 8   (1 point: 1 2 3 4 9, 9 floats down; bye: 0 group's last)
  round 3: 1-3, 2-4, 9-6, 5-8, bye 7
  round 4: 4-1, 3-2, 6-8, 9-7, bye 5
(networkx, the reference solver, finds other pairings of the same cost from round 2 on.)
Scores (a bye is a win): 1: 4; 2: W L W W = 3; 6: L W W W = 3; 3: W W L L = 2;
4: W W L L = 2; 5: L L W bye = 2; 7: L L bye W = 2; 8: L bye L L = 1; 9: bye L L L = 1.
Opponents' scores (FIDE C.07 (2023) 16.3: a bye counts its real point; no round here is
voluntarily unplayed): each the real score, 1 4, 2 3, 6 3, 3 2, 4 2, 5 2, 7 2, 8 1, 9 1.
Buchholz:
  1: 5 (2) + 2 (3) + 3 (2) + 4 (2) = 9
  2: 6 (3) + 1 (4) + 4 (2) + 3 (2) = 11
  6: 2 (3) + 7 (2) + 9 (1) + 8 (1) = 7
  3: 7 (2) + 5 (2) + 1 (4) + 2 (3) = 11
Ranking: 1 on 4; 2 before 6 on 3 (Buchholz 11 > 7); 3 first of the 2-point players
(4: 8 (1) + 9 (1) + 2 (3) + 1 (4) = 9; 5: 1 (4) + 3 (2) + 8 (1) + own bye (a dummy opponent
with its own score, 2: 16.4) = 9; 7: 3 (2) + 6 (3) + own bye 2 + 9 (1) = 8).
Buchholz cut 1 (the lowest value): 1 drops 2 -> 7; 2 drops 2 -> 9; 6 drops 1 -> 6;
3 drops 2 -> 9.
"""

import os

import pytest
from django.urls import reverse

from events.models import Tournament
from scoring import rules
from scoring import services as scoring_services
from tests.browser.conftest import organiser_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Анна Иванова", "Борис Петров", "Валя Стоянова", "Георги Колев", "Даниела Тодорова",
           "Евгени Маринов", "Живка Павлова", "Здравко Илиев", "Ирина Симеонова"]


def shot(page, name):
    folder = os.environ.get("SWISS_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def play_the_rest(tournament, number, skip_table=None):
    """Every match of round `number` but `skip_table`: the lower number wins, 3 x 4 deals."""
    round_ = tournament.rounds.get(number=number)
    for pairing in round_.pairings.filter(match__isnull=False).select_related(
        "entry_a", "entry_b", "match"
    ):
        if pairing.table == skip_table:
            continue
        seat = "A" if pairing.entry_a.number < pairing.entry_b.number else "B"
        for _ in range(4):
            scoring_services.deal_record(
                match=pairing.match, score=rules.quick_result(seat, 3, "capot"), by=None)


def enter_table_one(page, tournament, number):
    """Table 1 of round `number` on its page: the lower number wins four capots (12:0)."""
    pairing = tournament.rounds.get(number=number).pairings.select_related(
        "entry_a__player", "entry_b__player").get(table=1)
    winner = min((pairing.entry_a, pairing.entry_b), key=lambda entry: entry.number)
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.wait_for_selector("text=Who won the deal")
    for deal in (1, 2, 3, 4):
        page.click(f"label.choice >> text={winner.player.name}")
        page.click("label.choice.reason >> text=capot")
        page.click(f"text=Save deal {deal}")
        if deal < 4:
            page.wait_for_selector(f"text=Save deal {deal + 1}")
    page.wait_for_selector("text=won the match")


def test_a_nine_player_swiss_of_four_rounds(open_page, live_site):
    page = open_page()
    tournament = organiser_event(page, live_site, PLAYERS, format="swiss",
                                 name="Швейцарска купа", swiss_rounds=4)
    page.wait_for_selector("text=Round 1")
    # Round 1: the bye is the ninth, Ирина; table 1 is Анна (1) against Даниела (5).
    assert "Ирина Симеонова" in page.locator("tr.bye").inner_text()
    first = page.locator("table.pairings tbody tr:not(.bye)").first.inner_text()
    assert "Анна Иванова" in first and "Даниела Тодорова" in first
    assert page.locator("text=Pair again").count() == 1
    shot(page, "round1-390")
    no_sideways_scroll(page)

    # Round 1: table 1 on its page, the other three through the services.
    enter_table_one(page, tournament, 1)
    play_the_rest(tournament, 1, skip_table=1)
    for number in (2, 3, 4):
        page.goto(live_site.url + reverse("events:round", args=[tournament.pk, number - 1]))
        page.click(f"text=Pair round {number}")
        page.wait_for_selector(f"h2 >> text=Round {number}")
        assert page.locator("text=Pair again").count() == 1
        play_the_rest(tournament, number)
    page.goto(live_site.url + reverse("events:round", args=[tournament.pk, 4]))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # Round 4's bye is Даниела (5), as worked out above.
    assert "Даниела Тодорова" in page.locator("tr.bye").inner_text()
    shot(page, "round4-390")
    no_sideways_scroll(page)

    page.click("nav.tabs >> text=Standings")
    page.wait_for_selector("table.standings")
    headers = page.locator("table.standings thead th").all_inner_texts()
    assert [h.strip() for h in headers][:4] == ["#", "Player", "Pts", "Played"]
    column = {name.strip(): index for index, name in enumerate(headers)}
    rows = [row.locator("td").all_inner_texts()
            for row in page.locator("table.standings tbody tr").all()]
    top = [(r[0], r[1], r[column["Pts"]], r[column["BH"]], r[column["BH-1"]]) for r in rows[:4]]
    assert top == [
        ("1", "Анна Иванова", "4", "9", "7"),
        ("2", "Борис Петров", "3", "11", "9"),
        ("3", "Евгени Маринов", "3", "7", "6"),
        ("4", "Валя Стоянова", "2", "11", "9"),
    ]
    assert "Unplayed rounds (C.07, Article 16)" in page.content()
    shot(page, "standings-390")
    no_sideways_scroll(page)

    wide = open_page(1280, 900)
    wide.context.add_cookies(page.context.cookies())
    wide.goto(live_site.url + reverse("standings:standings", args=[tournament.pk]))
    shot(wide, "standings-1280")
    no_sideways_scroll(wide)
    wide.goto(live_site.url + reverse("events:round", args=[tournament.pk, 4]))
    shot(wide, "round4-1280")
    no_sideways_scroll(wide)
