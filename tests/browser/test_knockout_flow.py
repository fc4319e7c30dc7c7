"""A knockout in a real browser (Debian's chromium driven by Playwright): an organiser starts
a six-player knockout (seeds 1 and 2 get byes), corrects a quarterfinal after the semifinal
it fed had started, which asks for confirmation first, plays that quarterfinal to its end on
its page and sees the bracket, the podium and the champion's path.

The event, its players and every other match are made and entered through the services
(`organiser_event`, `tests.playing.play`); the page is loaded again to show them. In the
browser: the start, the bracket, the undo with its confirmation, the corrected match's last
four deals.

Seeds (the order the players are added): 1 Иван, 2 Мария, 3 Георги, 4 Елена, 5 Димитър,
6 Светла. Round 1: (1, bye), (4, 5), (2, bye), (3, 6)."""

import re

import pytest
from django.db.models import Q

from scoring.models import Match
from tests.browser.conftest import organiser_event
from tests.playing import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов", "Светла Иванова"]
ELEVEN = ["capot", "capot", "capot", "loser under 33"]  # 3 + 3 + 3 + 2 game points


def win(tournament, number: int, name: str, deals: str = "3 3 3 2") -> None:
    """Through the services: `name` wins each of `deals` (game points) of the match of round
    `number` that they play; by default 11:0, as ELEVEN on the page."""
    match = Match.objects.select_related("player_a").get(
        Q(player_a__name=name) | Q(player_b__name=name),
        pairing__round__tournament=tournament, pairing__round__number=number)
    seat = "A" if match.player_a.name == name else "B"
    play(match, " ".join(seat + points for points in deals.split()))


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


def test_a_six_player_knockout_played_to_the_champion_with_a_correction(browser_page,
                                                                         live_site):
    page = browser_page
    tournament = organiser_event(page, live_site, PLAYERS, format="knockout", start=False)
    assert "Players and seeds" in page.content()
    page.click("text=Start the tournament")
    page.wait_for_selector("#bracket-board")

    # Seeds 1 and 2 have byes: shown as such, and already in the semifinals.
    first_round = page.locator(".bracket-round").nth(0)
    assert first_round.locator(".bm-bye").count() == 2
    semifinals = page.locator(".bracket-round").nth(1)
    assert semifinals.locator(".bm", has_text="Иван Петров").count() == 1
    assert semifinals.locator(".bm", has_text="Мария Георгиева").count() == 1

    # Through the services: the quarterfinals, Елена (4) beats Димитър (5) 11:0 and Георги (3)
    # beats Светла (6); semifinal 1, Иван v Елена, starts: Иван takes a capot, 3:0.
    win(tournament, 1, "Елена Стоянова")
    win(tournament, 1, "Георги Димитров")
    win(tournament, 2, "Иван Петров", "3")
    page.reload()
    semifinal = page.locator(".bracket-round").nth(1).locator(".bm").nth(0)
    assert "Елена Стоянова" in semifinal.inner_text()

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
    # Елена leads 9:0; Димитър comes back and wins 9:11, deal by deal on the page.
    enter_deals(page, "Димитър Николов", ELEVEN, first=4)
    assert "Димитър Николов won the match 9:11." in page.content()
    back_to_the_bracket(page)
    semifinal = page.locator(".bracket-round").nth(1).locator(".bm").nth(0)
    assert "Димитър Николов" in semifinal.inner_text()
    assert "Елена Стоянова" not in semifinal.inner_text()

    # The semifinals and the final through the services: Иван beats Димитър, Мария beats
    # Георги, Мария beats Иван.
    win(tournament, 2, "Иван Петров")
    win(tournament, 2, "Мария Георгиева")
    win(tournament, 3, "Мария Георгиева")
    page.reload()

    podium = page.locator(".podium").inner_text()
    assert re.search(r"Champion:?\s*♛?\s*Мария Георгиева", podium)
    assert "Иван Петров" in podium
    assert "Finished" in page.locator(".tournament-head").inner_text()
    # Tapping the champion lights up her path: bye, semifinal, final.
    page.locator(".bracket-round").nth(2).locator(".bm-side", has_text="Мария Георгиева").click()
    assert page.locator(".bm-side.path").count() == 3
