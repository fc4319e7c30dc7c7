"""A deal entered while the match goes on, on a phone: the score and the row show it at the tap
(static/js/offline.js), the deal is sent behind it and answered in JSON with the match's new
version, and the page then fetches its panel once, at that version, to read as if drawn
afresh: both deals listed, the history's count following its list (static/js/match.js). The
page's stream says the match changed too, and the page does not fetch a second time."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import create_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
           "Димитър Николов"]


def test_a_second_deal_adds_its_row_and_its_change(browser_page, live_site,
                                                   django_user_model):
    page = browser_page
    fetched = []  # the match page's live part fetched again, in order
    page.on("request", lambda request: fetched.append(request.url)
            if request.method == "GET" and request.headers.get("hx-request")
            and "/m/" in request.url and "/details/" not in request.url else None)
    create_tournament(page, live_site, django_user_model, PLAYERS)
    page.wait_for_selector("text=Round 1")
    # Table 1 of round 1: 2 (Мария Георгиева) v 5 (Димитър Николов).
    page.click("table.pairings tbody tr:not(.bye) >> nth=0 >> text=enter deals")
    page.click("label.choice >> text=Мария Георгиева")
    page.click("label.choice.reason >> text=capot")
    page.click("text=Save deal 1")  # deal 1: the score, the form, the list with its row
    page.wait_for_selector("text=Save deal 2")
    assert page.locator("#deal-rows tr").count() == 1
    expect(page.locator("text=No deals yet.")).to_have_count(0)
    expect(page.locator("#history-count")).to_have_text("1")
    page.click("label.choice >> text=Димитър Николов")
    page.click("label[for=id_reason_schneider]")
    # Scrolled down so far that "who won" is under the sticky score, as a thumb leaves it.
    page.evaluate("""() => { const save = document.querySelector("#match-entry button.primary");
        window.scrollBy(0, save.getBoundingClientRect().top - 300); }""")
    page.evaluate("""() => { window.told = [];
        document.addEventListener("htmx:sseMessage", e => window.told.push(e.detail.data)); }""")
    fetched.clear()
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        page.click("text=Save deal 2")  # deal 2: the score, the form, the new row, its change
    saved = answer.value.json()["version"]  # the match's version with deal 2
    page.wait_for_selector("text=Save deal 3")
    # Once htmx has settled the swap, match.js scrolls "who won" back out from under the score.
    page.wait_for_function("""() => document.querySelector("fieldset.pick-winner")
        .getBoundingClientRect().top >= document.querySelector(".scoreboard")
        .getBoundingClientRect().bottom""", timeout=5_000)
    assert page.locator("#match-panel").count() == 1
    assert page.locator("#deal-rows tr").count() == 2
    # match.js counts the list again once htmx has settled the swap, a moment after it.
    expect(page.locator("#history-count")).to_have_text("2")
    # "Deal 2 saved." is in the score, which is sticky: in view, not under it, however far
    # the page is scrolled. The stream's "changed" for this very deal fetches nothing, and the
    # notice stays until the next thing done.
    notice = page.locator(".scoreboard .board-notice")
    expect(notice).to_have_text("Deal 2 saved.")
    assert page.evaluate("""() => {
        const notice = document.querySelector(".board-notice").getBoundingClientRect();
        const seen = document.elementFromPoint(notice.left + 4, notice.top + 4);
        return notice.top >= 0 && seen.classList.contains("board-notice"); }""")
    # The stream says "changed" for this very deal; a second fetch would leave at once, in the
    # same task.
    page.wait_for_function("v => window.told.some(data => parseInt(data, 10) >= v)", arg=saved)
    page.wait_for_timeout(200)
    assert len(fetched) == 1, fetched
    expect(notice).to_have_text("Deal 2 saved.")
    page.click("label.choice >> text=Мария Георгиева")
    expect(notice).to_have_count(0)
    page.click("#match-history summary")
    expect(page.locator("#match-history p.empty")).to_be_hidden()  # "Nothing entered yet."
    assert page.locator("#match-history li .what").all_inner_texts() == [
        "Deal 2 entered: Димитър Николов +2 (66, loser under 33)",
        "Deal 1 entered: Мария Георгиева +3 (capot: loser took no trick)",
    ]
