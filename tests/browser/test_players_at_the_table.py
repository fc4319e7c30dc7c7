"""Players enter their own match at the table, on two phones (two browser contexts, 390×844),
and the organiser sees the result: `players_sign` to a signed 11:0 (final on the match page
and in the control room), a disputed result settled from the control room, `players_confirm_each`
(B confirms A's deal), and a revoked link (the 404 page). The event, its players and the
organiser are made in code (tests/conftest.py), the organiser logged in without the form
(`log_in`). The first test's phones choose their seats on "Who are you?"; the others' are
seated beforehand (`seated`). Screenshots of the player pages and
of the control room (390×844 and 1280×900) go to $PLAYERS_SCREENSHOTS (a folder) when it is
set."""

import os
import random
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from events import services
from events.models import EntryMode, Pairing
from tableside import table_entry
from tableside.models import MatchTable
from tests.browser.conftest import log_in
from tests.tableside.test_table_entry import enter as enter_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


def shot(page, name):
    folder = os.environ.get("PLAYERS_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=False)


def sit(page, url, name):
    page.goto(url)
    page.wait_for_selector("text=Who are you?")
    page.click(f"button >> text={name}")
    page.wait_for_selector(f"text=This phone: {name}")


def seated(page, live_site, match, seat):
    """Open `match`'s players' link on `page` as the phone of seat `seat` ("A" or "B"),
    chosen beforehand instead of on "Who are you?" (`sit`): the seat's cookie as the server
    sets it when a seat is chosen, got through Django's test client."""
    table = table_entry.table_of(match)
    path = table_entry.entry_path(match, table)
    answer = Client().post(reverse("players:seat", args=[table.token]), {"seat": seat})
    assert answer.status_code == 302
    page.context.add_cookies([
        {"name": cookie.key, "value": cookie.value, "domain": urlsplit(live_site.url).hostname,
         "path": cookie["path"], "httpOnly": True, "sameSite": "Lax"}
        for cookie in answer.cookies.values()])
    page.goto(live_site.url + path)
    page.wait_for_selector(f"text=This phone: {match.player(seat).name}")


def enter(page, winner, reason, number):
    page.click(f"label.choice >> text={winner}")
    page.click(f"label.choice.reason >> text={reason}")
    page.click(f"text=Save deal {number}")


def organiser_page(open_phone, live_site, organiser, url):
    """A new phone (`open_phone()`) of `organiser`, logged in, at `url` (a path)."""
    page = open_phone()
    log_in(page, live_site, organiser)
    page.goto(live_site.url + url)
    return page


def test_two_phones_play_and_sign_and_the_organiser_sees_it_final(open_page, live_site,
                                                                  organiser, match):
    a_name, b_name = match.player_a.name, match.player_b.name
    url = live_site.url + table_entry.entry_path(match)
    phone_a, phone_b = open_page(), open_page()
    sit(phone_a, url, a_name)
    shot(phone_a, "1-seat-chosen")
    sit(phone_b, url, b_name)
    enter(phone_a, a_name, "capot", 1)
    phone_a.wait_for_selector("text=Deal 1 saved.")
    # No reload: each phone's page polls itself, so the other's deal shows within 5 s.
    phone_b.wait_for_selector("text=Save deal 2", timeout=5_000)
    enter(phone_b, a_name, "capot", 2)
    phone_b.wait_for_selector("text=Deal 2 saved.")
    phone_a.wait_for_selector("text=Save deal 3", timeout=5_000)
    enter(phone_a, a_name, "capot", 3)
    phone_a.wait_for_selector("text=Deal 3 saved.")
    phone_b.wait_for_selector("text=Save deal 4", timeout=5_000)
    enter(phone_b, a_name, "66, loser under 33", 4)  # 3 + 3 + 3 + 2 = 11
    phone_b.wait_for_selector("text=Sign the result 11:0")
    shot(phone_b, "2-sign")
    phone_b.click("button >> text=Sign")
    phone_b.wait_for_selector("text=You signed the result 11:0.")
    phone_a.wait_for_selector("text=Sign the result 11:0", timeout=5_000)
    phone_a.click("button >> text=Sign")
    phone_a.wait_for_selector("text=The result 11:0 is final.")
    shot(phone_a, "3-final")
    assert phone_a.evaluate("document.documentElement.scrollWidth") <= 390
    organiser = organiser_page(open_page, live_site, organiser, f"/m/{match.pk}/")
    organiser.wait_for_selector("text=The result is final.")
    organiser.click("#match-history summary")
    assert organiser.locator(f"text={a_name} (seat A) · 127.0.0.1").count() >= 1
    # The control room says the same: the match is final, 11:0.
    event = Pairing.objects.get(match=match).round.tournament_id
    organiser.goto(live_site.url + reverse("control:room", args=[event]))
    row = organiser.locator(f'.control-row[data-match="{match.pk}"]')
    assert row.locator(".state").inner_text().strip() == "final"
    assert row.locator(".score").inner_text() == "11 : 0"
    # Both phones signed from one address (this machine's): marked, to be checked and approved.
    assert row.locator("text=Both signatures came from one address").count() == 1


def test_confirm_each_b_confirms_as_deal(open_page, live_site, tournament, match):
    tournament.entry_mode = EntryMode.PLAYERS_CONFIRM_EACH
    tournament.save(update_fields=["entry_mode"])
    b_name = match.player_b.name
    phone_a, phone_b = open_page(), open_page()
    seated(phone_a, live_site, match, "A")
    seated(phone_b, live_site, match, "B")
    enter(phone_a, b_name, "capot", 1)
    phone_a.wait_for_selector("text=Deal 1 is waiting for your opponent's confirmation.")
    phone_b.wait_for_selector("text=Deal 1 waits for confirmation", timeout=5_000)  # no reload
    shot(phone_b, "4-confirm")
    phone_b.click("button >> text=Confirm")
    phone_b.wait_for_selector("text=Deal 1 confirmed.")
    assert match.deals.get().winner == "B"
    phone_b.wait_for_selector("text=Save deal 2")


def test_a_renewed_link_tells_the_player_to_scan_the_new_card(open_page, live_site, organiser,
                                                                match):
    old = live_site.url + table_entry.entry_path(match)
    organiser = organiser_page(open_page, live_site, organiser, f"/m/{match.pk}/")
    organiser.click("text=Revoke the link and make a new one")
    organiser.wait_for_selector("text=The old link no longer works")
    phone = open_page()
    response = phone.goto(old)
    assert response.status == 410
    phone.wait_for_selector("h1 >> text=This link was replaced")
    phone.wait_for_selector("text=Scan the new scorecard")
    shot(phone, "5-gone")
    new = MatchTable.objects.get(match=match).token
    assert phone.goto(f"{live_site.url}/p/{new}/").status == 200


def test_a_dispute_goes_to_the_top_of_the_control_room_and_its_approval_reaches_both_phones(
        open_page, live_site, organiser, tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    playing, match = (
        Pairing.objects.get(round__tournament=tournament, round__number=1, table=table).match
        for table in (1, 2)
    )
    enter_deals(playing, "B1")  # table 1 plays on: the dispute at table 2 must come above it
    enter_deals(match, "A3 A3 A2 A3")  # 11:0 for seat A, entered from a phone
    a_name = match.player_a.name
    phone_a, phone_b = open_page(), open_page()
    seated(phone_a, live_site, match, "A")
    seated(phone_b, live_site, match, "B")
    phone_a.click("details.dispute summary")
    phone_a.fill("#dispute-text", "Deal 3 was 3 points, not 2")
    phone_a.click("text=Send to the organiser")
    phone_a.wait_for_selector("text=The result is disputed; the organiser will settle it.")
    phone_b.wait_for_selector("text=The result is disputed; the organiser will settle it.",
                              timeout=5_000)
    control = reverse("control:room", args=[tournament.pk])
    organiser_user = organiser
    organiser = organiser_page(open_page, live_site, organiser_user, control)
    first = organiser.locator(".control-row").first
    assert first.get_attribute("data-match") == str(match.pk)
    assert first.locator(".state").inner_text().strip() == "disputed"
    assert f"{a_name} disputes the result: “Deal 3 was 3 points, not 2”" in first.inner_text()
    assert organiser.locator(".control-row").nth(1).get_attribute("data-match") == str(
        playing.pk)
    assert organiser.evaluate("document.documentElement.scrollWidth") <= 390
    shot(organiser, "6-control-room-phone")
    wide = organiser_page(lambda: open_page(width=1280, height=900), live_site, organiser_user,
                          control)
    wide.wait_for_selector(".control-row.state-disputed")
    assert wide.evaluate("document.documentElement.scrollWidth") <= 1280
    shot(wide, "7-control-room-wide")
    links = organiser_page(open_page, live_site, organiser_user,
                           reverse("control:links", args=[tournament.pk]))
    assert links.locator("img.qr").count() == 2  # the two tables of round 1
    assert links.evaluate("document.querySelector('img.qr').naturalWidth") > 20
    assert links.evaluate("document.documentElement.scrollWidth") <= 390
    shot(links, "8-links-phone")
    first.locator("button >> text=Approve the result").click()
    organiser.wait_for_selector("text=Table 2: the result 11:0 is approved and final.")
    row = organiser.locator(f'.control-row[data-match="{match.pk}"]')
    assert row.locator(".state").inner_text().strip() == "final"
    # No reload: both phones poll, and show the result final within 5 s.
    phone_a.wait_for_selector("text=The result 11:0 is final.", timeout=5_000)
    phone_b.wait_for_selector("text=The result 11:0 is final.", timeout=5_000)
    assert MatchTable.objects.get(match=match).approved_at is not None
    # The wide page polled too: its row is final without a reload.
    wide.wait_for_selector(f'.control-row.state-final[data-match="{match.pk}"]', timeout=5_000)
