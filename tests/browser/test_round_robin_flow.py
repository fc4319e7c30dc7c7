"""The main flow in a real browser (Debian's chromium driven by Playwright): an organiser
logs in on the login form, creates a five-player round robin on the new-tournament form, adds
its players on the players page, enters a whole match deal by deal and sees the standings
change. The other tests here start from a round robin made through the services, logged in
(`organiser_event`)."""

import pytest

from tests.browser.conftest import create_tournament, organiser_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов"]

def test_organiser_runs_a_match_and_sees_the_standings(browser_page, live_site,
                                                       django_user_model):
    page = browser_page
    create_tournament(page, live_site, django_user_model, PLAYERS)
    page.wait_for_selector("text=Round 1")

    # Round 1 of five: 1 rests; table 1 is 2 (Мария Георгиева) v 5 (Димитър Николов).
    assert "rests" in page.content()
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.wait_for_selector("text=Who won the deal")

    # Мария wins 3 + 3 + 3 = 9 game points, deal by deal, without a page reload.
    for number in (1, 2, 3):
        page.click("label.choice >> text=Мария Георгиева")
        page.click("label.choice.reason >> text=capot")
        with page.expect_response(lambda response: response.request.method == "POST") as saved:
            page.click(f"text=Save deal {number}")
        page.wait_for_selector(f"text=Save deal {number + 1}")
        # Each deal shows at the tap and is sent behind it to the match's sync address, which
        # answers with a short JSON ("stored"), not a page.
        assert saved.value.url.endswith(f"/m/{page.url.rstrip('/').rsplit('/', 1)[-1]}/deal/sync/")
        assert saved.value.json()["result"] == "stored"
    # Each deal is a row of the list below the form.
    running = page.locator("table.deal-list td.running")
    assert running.all_inner_texts() == ["3:0", "6:0", "9:0"]

    # The undo form sent with deal 3 undoes deal 3; the list loses that row; deal 3 again.
    page.click("text=Undo the last deal")
    page.click("text=Yes, undo deal 3")
    page.wait_for_selector("text=Save deal 3")
    assert running.all_inner_texts() == ["3:0", "6:0"]
    page.click("label.choice >> text=Мария Георгиева")
    page.click("label.choice.reason >> text=capot")
    page.click("text=Save deal 3")
    page.wait_for_selector("text=Save deal 4")
    assert running.all_inner_texts() == ["3:0", "6:0", "9:0"]

    # Deal 4 from the card points (the form loads when its section opens): Мария (seat A)
    # claims with 70 in 5 tricks, Димитър has 30 in 3, under 33: 2 game points, 11:0.
    page.click("text=Enter card points and tricks instead")
    details = page.locator("details.details-entry form")
    details.locator("label.choice >> text=claimed 66").click()  # "A player claimed 66"
    details.locator("[name=details-claim_by]").select_option("A")
    for name, value in [("card_points_a", "70"), ("card_points_b", "30"), ("tricks_a", "5"),
                        ("tricks_b", "3")]:
        details.locator(f"[name=details-{name}]").fill(value)
    details.locator("text=Save deal 4").click()
    page.wait_for_selector("text=won the match")
    assert "Мария Георгиева won the match 11:0." in page.content()

    page.click("text=Standings")
    first_row = page.locator("table.standings tbody tr").first
    cells = first_row.locator("td").all_inner_texts()
    assert cells[:8] == ["1", "Мария Георгиева", "1", "1", "0", "11", "0", "11"]


def test_a_refused_deal_shows_its_message_in_place(browser_page, live_site):
    """A 422 answer carries the form with its message: static/js/match.js has htmx swap it
    in (the CSP allows no inline hx-on handler), and the page stays where it was."""
    page = browser_page
    organiser_event(page, live_site, PLAYERS)
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.wait_for_selector("text=Who won the deal")
    url = page.url
    # 70 + 60 card points: more than the pack's 120.
    page.click("text=Enter card points and tricks instead")
    details = page.locator("details.details-entry form")
    details.locator("label.choice >> text=claimed 66").click()
    details.locator("[name=details-claim_by]").select_option("A")
    for name, value in [("card_points_a", "70"), ("card_points_b", "60"), ("tricks_a", "5"),
                        ("tricks_b", "3")]:
        details.locator(f"[name=details-{name}]").fill(value)
    with page.expect_response(lambda response: response.request.method == "POST") as saved:
        details.locator("text=Save deal 1").click()
    assert saved.value.status == 422
    page.wait_for_selector("details.details-entry .form-errors, details.details-entry .errors")
    assert page.url == url
    assert page.locator("table.deal-list td.running").count() == 0


def test_withdrawing_asks_first(browser_page, live_site):
    """The confirm question lives in the button's data-confirm (static/js/site.js): answering
    no keeps the player; yes withdraws them."""
    page = browser_page
    organiser_event(page, live_site, PLAYERS)
    page.click("text=Standings")
    page.click("text=Withdraw a player")
    button = page.locator("details.withdraw button >> text=Withdraw Иван Петров")
    questions = []

    def answer(dialog, accept):
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    button.click()
    assert questions == ["Withdraw Иван Петров? This cannot be undone."]
    assert button.count() == 1
    page.once("dialog", lambda dialog: answer(dialog, True))
    with page.expect_navigation():
        button.click()
    assert len(questions) == 2
    assert page.locator("details.withdraw button >> text=Withdraw Иван Петров").count() == 0
