"""The history of changes on the match page, on a phone (390×844): an organiser enters a deal,
corrects it with a long reason and undoes it; the opened history lists the three steps and
nothing on the page is wider than the screen. The event is made through the services, the
organiser logged in without the form (`organiser_event`). A screenshot goes to
$MATCH_HISTORY_SCREENSHOT (a file) when it is set."""

import os

import pytest

from tests.browser.conftest import organiser_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов"]
# One word longer than the screen: it must wrap, not widen the page.
REASON = "Сгрешен-играч-на-листа-при-преписването-от-картона-на-масата-" * 2


def test_the_history_fits_a_phone(browser_page, live_site):
    page = browser_page
    organiser_event(page, live_site, PLAYERS)
    page.wait_for_selector("text=Round 1")
    # Table 1 of round 1: 2 (Мария Георгиева) v 5 (Димитър Николов).
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.click("label.choice >> text=Мария Георгиева")
    page.click("label.choice.reason >> text=capot")
    page.click("text=Save deal 1")
    page.wait_for_selector("text=Save deal 2")

    page.click("a.correct-link")
    page.wait_for_selector("text=Save the correction")
    page.click("label.choice >> text=Димитър Николов")
    page.click("label[for=id_reason_schneider]")
    page.fill("[name=correction_reason]", REASON[:100])
    page.click("text=Save the correction")
    page.wait_for_selector("text=Deal 1 corrected.")

    page.click("text=Undo the last deal")
    page.click("text=Yes, undo deal 1")
    page.wait_for_selector("text=Deal 1 undone.")

    page.click("#match-history summary")
    items = page.locator("#match-history li .what").all_inner_texts()
    assert items == [
        "Deal 1 undone (it was “Димитър Николов +2 (66, loser under 33)”)",
        "Deal 1 corrected from “Мария Георгиева +3 (capot: loser took no trick)” to "
        "“Димитър Николов +2 (66, loser under 33)”",
        "Deal 1 entered: Мария Георгиева +3 (capot: loser took no trick)",
    ]
    assert page.locator("#match-history .why").inner_text() == f"Reason: {REASON[:100]}"

    page.locator("#match-history").scroll_into_view_if_needed()
    shot = os.environ.get("MATCH_HISTORY_SCREENSHOT")
    if shot:
        page.screenshot(path=shot, full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    widest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('#match-history *')]"
        ".map(e => e.getBoundingClientRect().right))"
    )
    assert widest <= 390
