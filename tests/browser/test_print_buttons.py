"""The print buttons at a phone's width (390 px): styled like the site's other buttons, and the
round page's "with the entered deals" checkbox on the line of its words. The event is made
through the services, the organiser logged in without the form (`organiser_event`)."""

import pytest

from tests.browser.conftest import organiser_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров"]
TOUCH = 44
"""The smallest comfortable touch target, in CSS pixels (the site's buttons: 2.8rem)."""


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_print_buttons_are_buttons_and_the_checkbox_keeps_its_words(browser_page, live_site):
    page = browser_page
    organiser_event(page, live_site, PLAYERS)
    page.wait_for_selector("text=Round 1")
    buttons = page.locator(".print-buttons button")
    assert buttons.count() == 2
    for index in range(2):
        button = buttons.nth(index)
        assert button.bounding_box()["height"] >= TOUCH
        # The text is the page's size (17 px at this width), not the browser's small default.
        assert button.evaluate("b => getComputedStyle(b).fontSize") == "17px"
        assert float(button.evaluate("b => parseFloat(getComputedStyle(b).paddingLeft)")) >= 12

    checkbox = box(page, ".print-buttons label.check input")
    words = page.locator(".print-buttons label.check").first.evaluate(
        """label => { const range = document.createRange();
                      range.selectNodeContents(label.lastChild);
                      const r = range.getBoundingClientRect();
                      return {x: r.x, y: r.y, height: r.height}; }"""
    )
    # Side by side: the words start right of the box, and the two share a line.
    assert words["x"] > checkbox["x"] + checkbox["width"]
    middle = checkbox["y"] + checkbox["height"] / 2
    assert words["y"] <= middle <= words["y"] + words["height"]

    page.click("text=Standings")
    standings_button = page.locator(".print-buttons button")
    assert standings_button.bounding_box()["height"] >= TOUCH
