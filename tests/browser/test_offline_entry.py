"""Offline entry on a phone (390×844): the club's wifi drops, deals entered meanwhile are kept
on the phone (IndexedDB), shown as "waiting to send" with the running score worked out on the
phone, survive a reload while still offline (the service worker keeps the page), and are
stored exactly once, in order, when the network is back. A conflict (the other phone entered
that deal otherwise) shows both versions and stores nothing until the player chooses.
Each phone's first page registers the service worker before its match page is drawn ("Who
are you?", the login page), as on a phone used before: with a match page drawn first, before
the worker was in charge, Chromium under Playwright's offline emulation and routing now and
then fails the reload offline (net::ERR_FAILED). Screenshots go to $OFFLINE_SCREENSHOTS (a
folder) when it is set."""

import os
import random

import pytest

from events import services as tournament_services
from events.models import EntryMode, Pairing
from scoring import rules, services
from tableside import table_entry
from tableside.models import MatchTable
from tests.browser.test_players_at_the_table import enter, sit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Three deals, worked out by hand under the default house rules (target 11): A capot +3 (3:0),
# B 66 with the loser under 33 +2 (3:2), A 66 with the loser at 33 or more +1 (4:2).
THREE = [("A", "capot", 1), ("B", "66, loser under 33", 2), ("A", "66, loser 33 or more", 3)]
STORED = [(1, "A", 3, "capot"), (2, "B", 2, "schneider"), (3, "A", 1, "won")]
RUNNING = ["3:0", "3:2", "4:2"]


@pytest.fixture
def match(tournament):
    tournament_services.tournament_start(tournament=tournament, rng=random.Random(1))
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


def shot(page, name):
    """The phone's screen (390×844) at the top of the page, and again at the deal list."""
    folder = os.environ.get("OFFLINE_SCREENSHOTS")
    if folder:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(folder, f"{name}.png"))
        if page.locator("#deal-rows").count():
            page.locator("#deal-rows").scroll_into_view_if_needed()
            page.screenshot(path=os.path.join(folder, f"{name}-deals.png"))


def kept_for_offline(page):
    """Wait until the service worker has this page and every file it loaded in its caches."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("""async () => {
        const files = [...document.querySelectorAll("script[src], link[rel=stylesheet]")]
            .map((element) => element.src || element.href);
        const pages = await caches.open("santase-pages");
        if (!await pages.match(location.pathname)) return false;
        const kept = await caches.open("santase-static");
        for (const file of files) if (!await kept.match(file)) return false;
        return true;
    }""", polling=200)


def deals(match) -> list[tuple]:
    return list(match.deals.order_by("number").values_list("number", "winner", "game_points",
                                                           "reason"))


def go_offline(context, offline: bool) -> None:
    """Playwright's network emulation, and while offline every POST refused as the network
    would: after a reload Chromium sometimes lets the new page's first request through the
    emulation (seen about one run in four), which a phone without a network never does."""
    if offline:
        context.set_offline(True)
        context.route("**/*", _refuse_posts)
    else:
        # The refusal goes first: the page sends its deals as soon as the network is back, and a
        # send refused by a refusal left over would wait for the next try, ten seconds later.
        context.unroute("**/*", _refuse_posts)
        context.set_offline(False)


def _refuse_posts(route) -> None:
    if route.request.method == "POST":
        route.abort("internetdisconnected")
    else:
        route.continue_()


def waiting_rows(page) -> list[str]:
    return page.locator("tr.offline-waiting td.running").all_inner_texts()


def scoreboard(page) -> list[str]:
    return page.locator(".scoreboard .side .points").all_inner_texts()


def enter_three_offline(page, match):
    names = {"A": match.player_a.name, "B": match.player_b.name}
    for seat, reason, number in THREE:
        enter(page, names[seat], reason, number)
        page.wait_for_selector(f"text=Offline · deals waiting to send: {number}")
    assert waiting_rows(page) == RUNNING
    assert scoreboard(page) == ["4", "2"]


def offline_then_online(page, match, name):
    kept_for_offline(page)
    go_offline(page.context, True)
    page.wait_for_selector("text=Offline: the deals you enter are kept on this phone.")
    enter_three_offline(page, match)
    assert deals(match) == []
    shot(page, f"{name}-1-offline-3-waiting")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # A reload while still offline: the page comes from the service worker, the deals from
    # IndexedDB.
    page.reload()
    page.wait_for_selector("text=Offline · deals waiting to send: 3")
    assert waiting_rows(page) == RUNNING
    assert scoreboard(page) == ["4", "2"]
    # Chromium's emulation now and then lets the reloaded page's first request through and
    # drops its answer (as a real network can: sent, stored, the answer lost): the first
    # waiting deal is then stored already while the page still keeps it; sending it again
    # below must store nothing twice (the counts at the end).
    assert deals(match) in ([], STORED[:1])
    go_offline(page.context, False)
    page.wait_for_selector("text=All sent: every deal entered offline is stored.")
    assert deals(match) == STORED
    match.refresh_from_db()
    # The score the phone worked out is the server's.
    assert (match.game_points_a, match.game_points_b) == (4, 2)
    assert scoreboard(page) == ["4", "2"]
    assert page.locator("#deal-rows td.running").all_inner_texts() == RUNNING
    assert page.locator("tr.offline-waiting").count() == 0
    shot(page, f"{name}-2-all-sent")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_players_phone_keeps_three_deals_offline_and_sends_them_once(open_page,
                                                                          live_site, match):
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), match.player_a.name)
    offline_then_online(phone, match, "players")
    # Sent exactly once: the deal-number guard answered nothing twice, the log says it too.
    assert match.deals.count() == 3
    assert match.table_events.filter(kind="deal").count() == 3


def test_the_organisers_page_keeps_three_deals_offline_and_sends_them_once(open_page,
                                                                            live_site, match):
    page = open_page()  # logged in on the login form, which hands on to the match page
    page.goto(f"{live_site.url}/accounts/login/?next=/m/{match.pk}/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", "pass-organiser-1")
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Save deal 1")
    offline_then_online(page, match, "organiser")


def test_a_conflict_shows_both_versions_and_stores_neither_silently(open_page, live_site,
                                                                     match):
    a_name, b_name = match.player_a.name, match.player_b.name
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), a_name)
    kept_for_offline(phone)
    go_offline(phone.context, True)
    enter(phone, a_name, "capot", 1)
    phone.wait_for_selector("text=Offline · deals waiting to send: 1")
    # Meanwhile the other phone, online, enters deal 1 otherwise: B, 66 with the loser at 33.
    table_entry.table_deal_enter(match=match, seat="B", number=1,
                                 score=rules.quick_result("B", 1, "won"))
    go_offline(phone.context, False)
    phone.wait_for_selector("text=Deal 1 was entered differently on another phone meanwhile.")
    problem = phone.locator(".offline-problem").inner_text()
    assert f"Stored\n{b_name} +1 · 66, loser 33 or more" in problem
    assert f"On this phone\n{a_name} +3 · capot" in problem
    shot(phone, "conflict")
    assert deals(match) == [(1, "B", 1, "won")]  # nothing of this phone's, nothing dropped
    phone.reload()  # the choice waits, across a reload
    phone.wait_for_selector("text=Deal 1 was entered differently on another phone meanwhile.")
    assert deals(match) == [(1, "B", 1, "won")]
    phone.click("text=Send mine as the next deal")
    phone.wait_for_selector("text=All sent: every deal entered offline is stored.")
    assert deals(match) == [(1, "B", 1, "won"), (2, "A", 3, "capot")]
    assert scoreboard(phone) == ["3", "1"]


def test_keeping_the_stored_version_drops_only_this_phones_deal(open_page, live_site, match):
    a_name = match.player_a.name
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), a_name)
    kept_for_offline(phone)
    go_offline(phone.context, True)
    enter(phone, a_name, "capot", 1)
    enter(phone, a_name, "capot", 2)
    phone.wait_for_selector("text=Offline · deals waiting to send: 2")
    table_entry.table_deal_enter(match=match, seat="B", number=1,
                                 score=rules.quick_result("B", 1, "won"))
    go_offline(phone.context, False)
    phone.click("text=Keep the stored deal, drop mine")
    phone.wait_for_selector("text=All sent: every deal entered offline is stored.")
    assert deals(match) == [(1, "B", 1, "won"), (2, "A", 3, "capot")]


def test_a_deal_already_stored_is_not_stored_twice(open_page, live_site, match):
    """The phone's deal 1 reached the server, but the answer did not reach the phone (here: the
    same deal was stored meanwhile): sending it again stores nothing more."""
    a_name = match.player_a.name
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), a_name)
    kept_for_offline(phone)
    go_offline(phone.context, True)
    enter(phone, a_name, "capot", 1)
    phone.wait_for_selector("text=Offline · deals waiting to send: 1")
    services.deal_record(match=match, score=rules.quick_result("A", 3, "capot"), by=None,
                         number=1)
    go_offline(phone.context, False)
    phone.wait_for_selector("text=All sent: every deal entered offline is stored.")
    assert deals(match) == [(1, "A", 3, "capot")]
    assert scoreboard(phone) == ["3", "0"]


def test_the_target_reached_on_the_phone_closes_the_form(open_page, live_site, match):
    a_name = match.player_a.name
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), a_name)
    kept_for_offline(phone)
    go_offline(phone.context, True)
    for number in range(1, 5):  # 3 + 3 + 3 + 3 = 12, past the target 11 after deal 4
        enter(phone, a_name, "capot", number)
    phone.wait_for_selector("text=The match is won on this phone; it is sent when the network "
                            "is back.")
    assert not phone.locator("form[data-offline-entry]").is_visible()
    assert scoreboard(phone) == ["12", "0"]
    # A slip: the last waiting deal is removed on the phone, and entered again.
    phone.click("text=Remove the last waiting deal")
    phone.wait_for_selector("text=Offline · deals waiting to send: 3")
    assert scoreboard(phone) == ["9", "0"]
    enter(phone, a_name, "capot", 4)
    phone.wait_for_selector("text=The match is won on this phone")
    go_offline(phone.context, False)
    phone.wait_for_selector("text=Sign the result 12:0")
    assert [deal[2] for deal in deals(match)] == [3, 3, 3, 3]


def test_confirm_each_keeps_one_deal_offline_for_the_opponent_to_confirm(
        open_page, live_site, tournament, match):
    tournament.entry_mode = EntryMode.PLAYERS_CONFIRM_EACH
    tournament.save(update_fields=["entry_mode"])
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), match.player_a.name)
    kept_for_offline(phone)
    go_offline(phone.context, True)
    enter(phone, match.player_b.name, "capot", 1)
    phone.wait_for_selector("text=Your opponent confirms each deal, which needs the network")
    assert not phone.locator("form[data-offline-entry]").is_visible()
    go_offline(phone.context, False)
    phone.wait_for_selector("text=Deal 1 waits for confirmation")
    assert MatchTable.objects.get(match=match).pending["number"] == 1
    assert deals(match) == []


def test_the_installed_app_opens_the_last_match_page_offline(open_page, live_site, match):
    a_name = match.player_a.name
    phone = open_page()
    sit(phone, live_site.url + table_entry.entry_path(match), a_name)
    manifest = phone.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
    assert (manifest["name"], manifest["start_url"]) == ("Santase club", "/?source=app")
    kept_for_offline(phone)
    go_offline(phone.context, True)
    phone.goto(live_site.url + manifest["start_url"])  # what the app's icon opens
    phone.wait_for_selector(f"text=This phone: {a_name}")
    phone.wait_for_selector("text=Offline: the deals you enter are kept on this phone.")
