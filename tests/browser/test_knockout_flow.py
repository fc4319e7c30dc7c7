"""A knockout in a real browser (Debian's chromium driven by Playwright): an organiser creates a
six-player knockout, starts it (seeds 1 and 2 get byes), plays it to the champion from the
bracket page, and corrects a quarterfinal after the semifinal it fed had started, which asks
for confirmation first.

Seeds (the order the players are added): 1 Иван, 2 Мария, 3 Георги, 4 Елена, 5 Димитър,
6 Светла. Round 1: (1, bye), (4, 5), (2, bye), (3, 6)."""

import re

import pytest

from tests.browser.conftest import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов", "Светла Иванова"]
ELEVEN = ["capot", "capot", "capot", "loser under 33"]  # 3 + 3 + 3 + 2 game points


def open_match(page, column: int, name: str) -> None:
    """From the bracket, open the match of `column` (0: quarterfinals) that `name` plays."""
    page.locator(".bracket-round").nth(column).locator(".bm", has_text=name).locator(
        ".bm-meta a"
    ).click()
    page.wait_for_selector("text=Deals")


def enter_deals(page, winner: str, reasons: list[str], first: int = 1) -> None:
    """Deal by deal without a page reload; the last one ends the match."""
    for number, reason in enumerate(reasons, start=first):
        page.click(f"label.choice >> text={winner}")
        page.click(f"label.choice.reason >> text={reason}")
        page.click(f"text=Save deal {number}")
        last = number == first + len(reasons) - 1
        page.wait_for_selector("text=won the match" if last else f"text=Save deal {number + 1}")


def back_to_the_bracket(page) -> None:
    page.click(".match-nav >> text=Bracket")
    page.wait_for_selector("#bracket-board")


def test_a_six_player_knockout_played_to_the_champion_with_a_correction(
    browser_page, live_site, django_user_model
):
    page = browser_page
    create_tournament(page, live_site, django_user_model, PLAYERS, format="knockout",
                      start=False)
    assert "Players and seeds" in page.content()
    page.click("text=Start the tournament")
    page.wait_for_selector("#bracket-board")

    # Seeds 1 and 2 have byes: shown as such, and already in the semifinals.
    first_round = page.locator(".bracket-round").nth(0)
    assert first_round.locator(".bm-bye").count() == 2
    semifinals = page.locator(".bracket-round").nth(1)
    assert semifinals.locator(".bm", has_text="Иван Петров").count() == 1
    assert semifinals.locator(".bm", has_text="Мария Георгиева").count() == 1

    # Quarterfinals: Елена (4) beats Димитър (5); Георги (3) beats Светла (6).
    open_match(page, 0, "Елена Стоянова")
    enter_deals(page, "Елена Стоянова", ELEVEN)
    back_to_the_bracket(page)
    open_match(page, 0, "Георги Димитров")
    enter_deals(page, "Георги Димитров", ELEVEN)
    back_to_the_bracket(page)

    # Semifinal 1, Иван v Елена, starts: Иван takes a capot, 3:0.
    open_match(page, 1, "Елена Стоянова")
    page.click("label.choice >> text=Иван Петров")
    page.click("label.choice.reason >> text=capot")
    page.click("text=Save deal 1")
    page.wait_for_selector("text=Save deal 2")
    back_to_the_bracket(page)

    # The quarterfinal's last deal was wrong. Undoing it would clear the semifinal: the page
    # says exactly that and waits for confirmation.
    open_match(page, 0, "Димитър Николов")
    page.click("text=Undo the last deal")
    page.click("text=Yes, undo deal 4")
    page.wait_for_selector(".confirm-step >> text=This also undoes what followed")
    consequences = page.locator(".consequences").inner_text()
    assert ("Semifinal, table 1: Иван Петров – Елена Стоянова, 3:0 after 1 deal, "
            "will be cleared.") in consequences
    assert "Елена Стоянова is taken out of: Semifinal, table 1." in consequences
    page.click("button >> text=Confirm")
    page.wait_for_selector("text=Deal 4 undone.")
    # Елена leads 9:0; Димитър comes back and wins 9:11.
    enter_deals(page, "Димитър Николов", ELEVEN, first=4)
    assert "Димитър Николов won the match 9:11." in page.content()
    back_to_the_bracket(page)
    semifinal = page.locator(".bracket-round").nth(1).locator(".bm").nth(0)
    assert "Димитър Николов" in semifinal.inner_text()
    assert "Елена Стоянова" not in semifinal.inner_text()

    # Semifinals and the final.
    open_match(page, 1, "Димитър Николов")
    enter_deals(page, "Иван Петров", ELEVEN)
    back_to_the_bracket(page)
    open_match(page, 1, "Георги Димитров")
    enter_deals(page, "Мария Георгиева", ELEVEN)
    back_to_the_bracket(page)
    open_match(page, 2, "Мария Георгиева")
    enter_deals(page, "Мария Георгиева", ELEVEN)
    back_to_the_bracket(page)

    podium = page.locator(".podium").inner_text()
    assert re.search(r"Champion:?\s*♛?\s*Мария Георгиева", podium)
    assert "Иван Петров" in podium
    assert "Finished" in page.locator(".tournament-head").inner_text()
    # Tapping the champion lights up her path: bye, semifinal, final.
    page.locator(".bracket-round").nth(2).locator(".bm-side", has_text="Мария Георгиева").click()
    assert page.locator(".bm-side.path").count() == 3
