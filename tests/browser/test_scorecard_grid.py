"""The finished-scorecard grid in a browser: an organiser copies a paper card of 8 deals with
the keyboard only (Tab between cells, Enter to the next row), sees the running score as they
type, saves with one wrong deal, finds it flagged with its number, fixes it and saves; the
match page then shows the result. On a phone (390×844) and a desktop (1280×900) the page
never scrolls sideways. Scores by hand (target 11): A 1, B 2, A 3, draw, B false claim 3,
A 2, A 3, A 2 -> 11:5. The event and its organiser are made in code, the organiser logged in
without the form (`log_in`). Screenshots go to $GRID_SCREENSHOTS (a folder) when it is
set."""

import datetime
import os

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Player
from events.models import Entry, Pairing, Tournament
from events.services import tournament_start
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# (winner, game points, code) as on the card; row 5 mistyped: a false claim scores 3, not 1.
CARD = [("A", "", "1"), ("B", "2", "2"), ("A", "3", "3"), ("", "", "="),
        ("B", "1", "FC"), ("A", "2", "2"), ("A", "", "3"), ("A", "2", "2")]
RUNNING = ["1:0", "1:2", "4:2", "4:2", None, "6:2", "9:2", "11:2"]  # row 5 unread: skipped


def shot(page, name: str) -> None:
    folder = os.environ.get("GRID_SCREENSHOTS")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


@pytest.fixture
def match(django_user_model):
    organiser = django_user_model.objects.create_user("maria", password="santase-66-pass")
    tournament = Tournament.objects.create(name="Купа на браузъра",
                                           date=datetime.date(2026, 12, 19),
                                           format="round_robin", entry_mode="organiser")
    tournament.organisers.add(organiser)
    for number, name in enumerate(["Иван Петров", "Мария Георгиева", "Георги Димитров"], 1):
        Entry.objects.create(tournament=tournament, player=Player.objects.create(name=name),
                             number=number)
    tournament_start(tournament=tournament)
    return Pairing.objects.filter(match__isnull=False).order_by("round__number", "table")[0].match


def totals(page, number: int) -> str:
    row = page.locator(f'tr[data-row="{number}"]')
    return row.locator('[data-total="A"]').inner_text() + ":" + row.locator(
        '[data-total="B"]').inner_text()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_a_card_copied_in_with_the_keyboard(open_page, live_site, match, width, height):
    page = open_page(width=width, height=height)
    log_in(page, live_site, get_user_model().objects.get(username="maria"))
    page.goto(live_site.url + reverse("matches:entry", args=[match.pk]))
    shot(page, f"grid_offer_{width}")
    page.click("text=Enter a finished scorecard")
    page.wait_for_selector("text=Legend")
    # The first winner cell has the focus: the whole card is typed from here.
    expect(page.locator('[name="winner-1"]')).to_be_focused()
    for winner, points, code in CARD:
        page.keyboard.type(winner)
        page.keyboard.press("Tab")
        page.keyboard.type(points)
        page.keyboard.press("Tab")
        page.keyboard.type(code)
        page.keyboard.press("Enter")
    expect(page.locator('[name="winner-9"]')).to_be_focused()
    for number, expected in enumerate(RUNNING, start=1):
        if expected is not None:
            assert totals(page, number) == expected, number
    assert "unread" in page.locator('tr[data-row="5"]').get_attribute("class")
    expect(page.locator("#running-score")).to_have_text("11 : 2")
    # The code fixes the game points where it can: shown as the cell's placeholder.
    assert page.locator('[name="points-1"]').get_attribute("placeholder") == "1"
    shot(page, f"grid_typing_{width}")

    page.keyboard.press("Control+Enter")
    page.wait_for_selector("#grid-errors")
    assert "One row needs fixing; nothing was saved." in page.inner_text("#grid-errors")
    flagged = page.inner_text("#row-error-5")
    assert flagged.startswith("Deal 5: ")
    assert "bad" in page.locator('tr[data-row="5"]').get_attribute("class").split()
    shot(page, f"grid_refused_{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The focus is on the flagged row: fix the game points (a false claim scores 3).
    expect(page.locator('[name="winner-5"]')).to_be_focused()
    page.keyboard.press("Tab")
    page.keyboard.press("Backspace")
    page.keyboard.type("3")
    expect(page.locator("#running-score")).to_have_text("11 : 5")
    page.click("text=Save the scorecard")
    page.wait_for_selector("text=The scorecard is saved: 8 deals, 11:5.")
    assert "won the match 11:5." in page.inner_text(".scoreboard")
    assert page.locator("#deal-rows tr").count() == 8
    shot(page, f"grid_saved_{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_final_score_only_event_on_a_phone(open_page, live_site, match):
    """The same match in an event that keeps only final scores: two numbers, 11:7 saved,
    the standings say "Final scores only"."""
    tournament = match.pairing.round.tournament
    tournament.records = "final_score"
    tournament.save(update_fields=["records"])
    page = open_page()
    log_in(page, live_site, get_user_model().objects.get(username="maria"))
    page.goto(live_site.url + reverse("matches:entry", args=[match.pk]))
    assert page.locator("text=Enter a finished scorecard").count() == 0
    page.fill("#id_game_points_a", "14")
    page.fill("#id_game_points_b", "7")
    page.click("text=Save the final score")
    page.wait_for_selector("text=A match cannot end 14:7")
    shot(page, "final_score_refused_390")
    page.fill("#id_game_points_a", "11")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Final score saved: 11:7.")
    assert "won the match 11:7." in page.inner_text(".scoreboard")
    shot(page, "final_score_saved_390")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(live_site.url + reverse("standings:standings", args=[tournament.pk]))
    assert "Final scores only" in page.inner_text("main")
