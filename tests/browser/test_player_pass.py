"""Two players' passes on two phones (390×844): open before the event starts, each shows its
table within 5 s of the organiser starting the round robin, without a reload; one player enters
the deals to 11 from the match opened on the pass, both sign from their own passes, and the
result is final. After a signature, the loser's request to undo the last deal shows on the
winner's match page without a reload, and the winner allows it. Screenshots go to
$PASS_SCREENSHOTS (a folder) when it is set."""

import os
import random

import pytest
from django.urls import reverse

from events import services as event_services
from passes import services
from scoring import rules
from scoring.models import Match
from tableside import table_entry
from tableside.models import MatchEvent
from tests.browser.conftest import log_in
from tests.passes.test_pass_page import round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shot(page, name):
    folder = os.environ.get("PASS_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def enter(page, winner, reason, number):
    page.click(f"label.choice >> text={winner}")
    page.click(f"label.choice.reason >> text={reason}")
    page.click(f"text=Save deal {number}")
    page.wait_for_selector(f"text=Deal {number} saved.")


def test_two_passes_follow_the_start_and_sign_the_result(open_page, live_site, organiser,
                                                        home_club, players):
    tournament = round_robin(home_club, organiser, players[:4])
    one, four = players[0], players[3]  # round 1, table 1: 1 (seat A) against 4 (seat B)
    phone_one, phone_four = open_page(), open_page()
    pass_one = live_site.url + reverse("passes:page",
                                       args=[services.token_of(services.pass_make(one))])
    pass_four = live_site.url + reverse("passes:page",
                                        args=[services.token_of(services.pass_make(four))])
    phone_one.goto(pass_one)
    phone_four.goto(pass_four)
    phone_one.wait_for_selector("text=No event of your club is under way")
    phone_four.wait_for_selector("text=No event of your club is under way")

    desk = open_page(1280, 900)
    log_in(desk, live_site, organiser)
    desk.goto(live_site.url + reverse("events:players", args=[tournament.pk]))
    desk.click("text=Start the tournament")

    # No reload: the passes' streams tell them, and each shows its table within 5 s.
    phone_one.wait_for_selector("text=Table 1", timeout=5_000)
    phone_one.wait_for_selector(f"text=against {four.name}", timeout=5_000)
    phone_four.wait_for_selector(f"text=against {one.name}", timeout=5_000)
    shot(phone_one, "pass-paired")
    assert phone_one.evaluate("document.documentElement.scrollWidth") <= 390

    match = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1,
                              pairing__table=1)
    phone_one.click("text=Open my match")
    phone_one.wait_for_selector(f"text=Pass of {one.name}")
    phone_four.click("text=Open my match")
    phone_four.wait_for_selector(f"text=Pass of {four.name}")
    enter(phone_one, one.name, "capot", 1)
    enter(phone_one, one.name, "capot", 2)
    enter(phone_one, one.name, "capot", 3)
    enter(phone_one, one.name, "66, loser under 33", 4)  # 3 + 3 + 3 + 2 = 11
    phone_one.wait_for_selector("text=Sign the result 11:0")
    phone_one.click("button >> text=Sign")
    phone_one.wait_for_selector("text=You signed the result 11:0.")
    shot(phone_one, "pass-match-signed")
    phone_four.wait_for_selector("text=Sign the result 11:0", timeout=5_000)
    phone_four.click("button >> text=Sign")
    phone_four.wait_for_selector("text=The result 11:0 is final.")
    table = table_entry.table_of(match)
    assert table.is_final and table.signed_a and table.signed_b
    # Back on the pass: the next round's table.
    phone_four.goto(pass_four)
    phone_four.wait_for_selector("text=Round 2")


def test_the_winner_allows_the_losers_undo_on_a_page_that_follows_live(open_page, live_site,
                                                                       organiser, home_club,
                                                                       players):
    tournament = round_robin(home_club, organiser, players[:4])
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    one, four = players[0], players[3]  # round 1, table 1: 1 (seat A) against 4 (seat B)
    match = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1,
                              pairing__table=1)
    # 3:0, 3:2, 6:2, 6:5, 8:5, 8:6, then deal 7 (one +3) ends it 11:6; one signs.
    for number, (seat, points, reason) in enumerate(
            [("A", 3, "capot"), ("B", 2, "schneider"), ("A", 3, "capot"), ("B", 3, "capot"),
             ("A", 2, "schneider"), ("B", 1, "won"), ("A", 3, "capot")], start=1):
        table_entry.table_deal_enter(match=match, seat=seat, number=number,
                                     score=rules.quick_result(seat, points, reason),
                                     via=MatchEvent.Via.PASS)
    table_entry.result_sign(match=match, seat="A", via=MatchEvent.Via.PASS)
    phone_one, phone_four = open_page(), open_page()
    for phone, player in ((phone_one, one), (phone_four, four)):
        token = services.token_of(services.pass_make(player))
        phone.goto(live_site.url + reverse("players:pass_match", args=[token, match.pk]))
        phone.wait_for_selector(f"text=Pass of {player.name}")
    phone_four.click("summary >> text=Undo the last deal")
    phone_four.click(f"text=Ask {one.name} to allow undoing deal 7")
    phone_four.wait_for_selector("text=You asked to undo deal 7")
    # No reload: the winner's page hears of it from its stream.
    phone_one.wait_for_selector(f"text={four.name} asks to undo deal 7", timeout=5_000)
    phone_one.wait_for_selector("text=the score goes back from 11:6 to 8:6")
    shot(phone_one, "pass-undo-asked")
    assert phone_one.evaluate("document.documentElement.scrollWidth") <= 390
    phone_one.click("button >> text=Allow")
    phone_one.wait_for_selector("text=Deal 7 undone.")
    # The loser's page follows too: deal 7 is to be entered again.
    phone_four.wait_for_selector("text=Save deal 7", timeout=5_000)
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (8, 6, "playing")
    table = table_entry.table_of(match)
    assert table.signed_a is None and table.undo_asked_by == ""
