"""A deal shows in the score at the tap, before the server answers (static/js/offline.js): the
post to the sync address is held here (Playwright's `page.route`) while the page is looked at,
then let go, and the server's answer confirms what the page showed ("Deal 1 saved.", then the
page as the server draws it). A deal the server refuses leaves the score again, with the
server's sentence; a deal entered on a page behind a change the stream told of is listed as
waiting for the server, never counted, until the server answers. Phones are 390×844."""

import random

import pytest
from playwright.sync_api import expect

from events import services as tournament_services
from events.models import Pairing
from scoring import rules
from tableside import table_entry
from tableside.models import MatchTable
from tests.browser.conftest import log_in
from tests.browser.test_players_at_the_table import enter, seated

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def match(tournament):
    tournament_services.tournament_start(tournament=tournament, rng=random.Random(1))
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


def no_worker_page(open_page):
    """A phone without the service worker (the tap is what is tested here, and Playwright's
    routing does not always see a request that went through a worker: now and then the held
    post went by unseen)."""
    page = open_page()
    page.context.add_init_script("delete Navigator.prototype.serviceWorker;")
    return page


def hold_posts(page, parts: bool = False) -> list:
    """Hold every deal the page posts (and with `parts`, every live part it fetches) until the
    test lets them go (`release`: the post first); the held routes, in order."""
    held = []
    path = page.url.split("/", 3)[-1]

    def hold(route):
        request = route.request
        if request.method == "POST" or request.headers.get("hx-request"):
            held.append(route)
        else:
            route.continue_()
    page.held = (lambda url: "/deal/" in url or (parts and url.endswith("/" + path)), hold)
    page.context.route(*page.held)  # the context's: what the service worker sends too
    return held


def release(page, held) -> None:
    """Let the held requests go on to the server, in order, and hold no more."""
    posts = [route for route in held if route.request.method == "POST"]
    assert [route.request.url.endswith("/deal/sync/") for route in posts] == [True]
    for route in posts + [route for route in held if route not in posts]:
        route.continue_()
    page.context.unroute(*page.held)


def wait_held(page, held, count=1):
    for _ in range(200):
        if len(held) >= count:
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"{count} post(s) expected on their way, {len(held)} seen")


def deals(match) -> list[tuple]:
    return list(match.deals.order_by("number").values_list("number", "winner", "game_points",
                                                           "reason"))


def points(page):
    return page.locator(".scoreboard .side .points")


def watch_scores(page) -> None:
    """Record every score the page shows from now on (`window.seenScores`, "a:b")."""
    page.evaluate("""() => {
        window.seenScores = [];
        const score = () => [...document.querySelectorAll(".scoreboard .side .points")]
            .map((points) => points.textContent.trim()).join(":");
        new MutationObserver(() => window.seenScores.push(score())).observe(document.body,
            {childList: true, subtree: true, characterData: true});
    }""")


def test_the_players_score_moves_at_the_tap_and_the_answer_confirms_it(open_page, live_site,
                                                                        match):
    phone = no_worker_page(open_page)
    seated(phone, live_site, match, "A")
    held = hold_posts(phone)
    enter(phone, match.player_a.name, "capot", 1)  # capot: +3 game points to A
    # The post has not reached the server, and the score shows the deal already.
    expect(points(phone)).to_have_text(["3", "0"], timeout=1_000)
    expect(phone.locator("form[data-offline-entry] button.primary")).to_have_text("Save deal 2")
    row = phone.locator("tr.offline-waiting")
    expect(row.locator("td.running")).to_have_text("3:0")
    expect(row.locator(".meta")).to_contain_text("sending")
    wait_held(phone, held)
    assert deals(match) == []
    release(phone, held)
    expect(phone.locator(".scoreboard .board-notice")).to_have_text("Deal 1 saved.")
    # The server's own drawing of the page follows: its row, its next deal.
    expect(phone.locator(".match-state[data-next='2']")).to_have_count(1)
    expect(phone.locator("tr[data-offline-row]")).to_have_count(0)
    expect(phone.locator("#deal-rows td.running")).to_have_text(["3:0"])
    expect(points(phone)).to_have_text(["3", "0"])
    assert deals(match) == [(1, "A", 3, "capot")]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_organisers_score_moves_at_the_tap(open_page, live_site, organiser, match):
    page = no_worker_page(open_page)
    log_in(page, live_site, organiser)
    page.goto(f"{live_site.url}/m/{match.pk}/")
    held = hold_posts(page)
    enter(page, match.player_b.name, "66, loser under 33", 1)  # +2 game points to B
    expect(points(page)).to_have_text(["0", "2"], timeout=1_000)
    wait_held(page, held)
    assert deals(match) == []
    release(page, held)
    expect(page.locator(".scoreboard .board-notice")).to_have_text("Deal 1 saved.")
    expect(page.locator("#history-count")).to_have_text("1")  # the server's panel is in
    expect(points(page)).to_have_text(["0", "2"])
    assert deals(match) == [(1, "B", 2, "schneider")]


def test_a_refused_deal_leaves_the_score_with_the_servers_sentence(open_page, live_site,
                                                                    match):
    phone = no_worker_page(open_page)
    seated(phone, live_site, match, "A")
    held = hold_posts(phone)
    enter(phone, match.player_a.name, "capot", 1)
    expect(points(phone)).to_have_text(["3", "0"], timeout=1_000)
    wait_held(phone, held)
    # Meanwhile the seat is let go on the server (written as is: the page does not learn of it
    # before its post arrives), so the server refuses the deal.
    MatchTable.objects.filter(match=match).update(holder_a="")
    release(phone, held)
    sentence = ("This phone no longer holds a seat in this match; open the match's link again "
                "to choose yours, or ask the organiser.")
    expect(phone.locator(".offline-problem .offline-message")).to_have_text(sentence)
    expect(points(phone)).to_have_text(["0", "0"])
    expect(phone.locator("tr.offline-refused .meta")).to_contain_text("not stored")
    assert deals(match) == []


def test_a_deal_on_a_page_behind_the_stream_waits_for_the_server(open_page, live_site, match):
    a_name, b_name = match.player_a.name, match.player_b.name
    phone = no_worker_page(open_page)
    seated(phone, live_site, match, "A")
    watch_scores(phone)
    phone.click(f"label.choice >> text={a_name}")  # the form is being filled: no redraw now
    # Meanwhile the other phone enters deal 1: B, 66 with the loser at 33 or more (+1).
    table_entry.table_deal_enter(match=match, seat="B", number=1,
                                 score=rules.quick_result("B", 1, "won"))
    expect(phone.locator("[data-live][data-live-stale]")).to_have_count(1)
    held = hold_posts(phone, parts=True)  # the page stays behind while it is looked at
    phone.click("label.choice.reason >> text=capot")
    phone.click("text=Save deal 1")
    # Not counted: the page knows it is behind, the server may refuse it.
    expect(phone.locator("tr.offline-held .meta")).to_contain_text("waiting for the server")
    wait_held(phone, held)
    assert points(phone).all_inner_texts() == ["0", "0"]
    release(phone, held)
    expect(phone.locator(".offline-message")).to_have_text(
        "Deal 1 was entered differently on another phone meanwhile. Nothing was stored from "
        "this phone; choose:")
    problem = phone.locator(".offline-problem").inner_text()
    assert f"Stored\n{b_name} +1 · 66, loser 33 or more" in problem
    assert f"On this phone\n{a_name} +3 · capot" in problem
    expect(points(phone)).to_have_text(["0", "1"])  # the server's drawing, with B's deal
    assert not any(seen.startswith("3:") for seen in phone.evaluate("window.seenScores"))
    assert deals(match) == [(1, "B", 1, "won")]


def test_a_deal_not_complete_is_not_sent_and_the_score_says_why(open_page, live_site, match):
    phone = no_worker_page(open_page)
    seated(phone, live_site, match, "A")
    held = hold_posts(phone)
    phone.click(f"label.choice >> text={match.player_a.name}")  # who won, but not why
    phone.click("text=Save deal 1")
    expect(phone.locator(".scoreboard .board-notice")).to_have_text(
        "Choose who won and why, and the game points where there is a choice.")
    expect(points(phone)).to_have_text(["0", "0"])
    phone.wait_for_timeout(300)
    assert held == []
    assert deals(match) == []
