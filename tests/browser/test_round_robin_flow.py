"""The main flow in a real browser (Debian's chromium driven by Playwright): an organiser
logs in, creates a five-player round robin, enters a whole match deal by deal and sees the
standings change."""

import pytest

from tests.browser.conftest import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов"]

def test_organiser_runs_a_match_and_sees_the_standings(browser_page, live_server,
                                                       django_user_model):
    page = browser_page
    create_tournament(page, live_server, django_user_model, PLAYERS)
    page.wait_for_selector("text=Round 1")

    # Round 1 of five: 1 rests; table 1 is 2 (Мария Георгиева) v 5 (Димитър Николов).
    assert "rests" in page.content()
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.wait_for_selector("text=Who won the deal")

    # Мария wins 3 + 3 + 3 + 2 = 11 game points, deal by deal, without a page reload.
    for number, reason in enumerate(["capot", "capot", "capot", "loser under 33"], start=1):
        page.click("label.choice >> text=Мария Георгиева")
        page.click(f"label.choice.reason >> text={reason}")
        page.click(f"text=Save deal {number}")
        after = f"text=Save deal {number + 1}" if number < 4 else "text=won the match"
        page.wait_for_selector(after)
    assert "Мария Георгиева won the match 11:0." in page.content()

    page.click("text=Standings")
    first_row = page.locator("table.standings tbody tr").first
    cells = first_row.locator("td").all_inner_texts()
    assert cells[:8] == ["1", "Мария Георгиева", "1", "1", "0", "11", "0", "11"]
