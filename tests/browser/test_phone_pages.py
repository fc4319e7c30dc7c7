"""The pages on a 390 × 844 phone (the browser fixture's window): none is wider than the
screen, for the organiser and for the public; wide tables scroll inside their own box.
And on a match page under way (a knockout semifinal made through the services, its organiser
logged in without the form: `log_in`), the card-points form keeps what was typed when a save
is refused, and a draw asks first."""

import pytest
from django.contrib.auth import get_user_model

from club.models import Club, Player, Season
from events.models import Tournament
from scoring.models import Match
from server.demo import DEMO_ORGANISER, load_demo
from tests.browser.conftest import log_in
from tests.formats.test_knockout_services import at
from tests.formats.test_knockout_services import started as knockout_started
from tests.playing import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_WIDTH = 390  # the fixture's viewport (an iPhone 12–15)


def demo_paths() -> list[str]:
    """Every main page of the demo, by path (paths are stable; URL names may move)."""
    load_demo()
    round_robin = Tournament.objects.get(format=Tournament.Format.ROUND_ROBIN)
    knockout = Tournament.objects.get(format=Tournament.Format.KNOCKOUT)
    night = Tournament.objects.get(format=Tournament.Format.CLUB_NIGHT)
    played = Match.objects.filter(pairing__round__tournament=round_robin).first()
    live = Match.objects.filter(
        pairing__round__tournament=knockout, status=Match.Status.PLAYING).first()
    club, season, player = Club.objects.get(), Season.objects.get(), Player.objects.first()
    paths = ["/", "/accounts/login/", f"/club/{club.pk}/", f"/club/{club.pk}/seasons/{season.pk}/",
             f"/players/{player.pk}/", f"/t/{night.pk}/night/", f"/m/{played.pk}/"]
    if live is not None:
        paths.append(f"/m/{live.pk}/")
    for event in (round_robin, knockout):
        paths += [f"/t/{event.pk}/", f"/t/{event.pk}/rounds/1/"]
    paths += [f"/t/{round_robin.pk}/standings/", f"/t/{knockout.pk}/bracket/",
              f"/t/{round_robin.pk}/crosstable/",
              f"/club/{club.pk}/seasons/{season.pk}/crosstable/"]
    return paths


ORGANISER_PATHS = ["/t/new/", "/t/import/", "/night/new/"]


def wider_than_the_screen(page, base: str, paths: list[str]) -> dict[str, int]:
    wide = {}
    for path in paths:
        answer = page.goto(base + path)
        assert answer.status == 200, (path, answer.status)
        width = scroll_width(page)
        if width > PHONE_WIDTH:
            wide[path] = width
    return wide


def speak(page, base: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


IMPORT_OK = "round,table,player_a,player_b,deal,winner,game_points,reason\n" + "".join(
    f"1,1,Иван Петров,Мария Георгиева,{number},A,3,capot\n" for number in (1, 2, 3))
IMPORT_BAD = IMPORT_OK + "1,1,Иван Петров,Мария Георгиева,5,A,3,capot_with_a_long_wrong_reason\n"


def import_page(page, base: str, content: str) -> int:
    """Upload `content` on the import page; the width of the preview or error page."""
    page.goto(base + "/t/import/")
    page.set_input_files("input[type=file]", files=[{
        "name": "deals.csv", "mimeType": "text/csv", "buffer": content.encode()}])
    page.fill("input[name=name]", "Купа с много дълго име за проверка на ширината 2026")
    page.click("main form button.primary")
    page.wait_for_load_state()
    return scroll_width(page)


def test_no_page_scrolls_sideways_for_the_public_or_the_organiser(browser_page, live_site):
    """Every page of the demo in English and in Bulgarian (longer words), first as the public
    sees it, then as its organiser does; the demo is loaded once for all four."""
    public = demo_paths()
    for language in ("en", "bg"):
        speak(browser_page, live_site.url, language)
        assert wider_than_the_screen(browser_page, live_site.url, public) == {}, language
    log_in(browser_page, live_site, get_user_model().objects.get(username=DEMO_ORGANISER))
    knockout = Tournament.objects.get(format=Tournament.Format.KNOCKOUT)
    organiser = public + ORGANISER_PATHS + [f"/t/{knockout.pk}/players/",
                                            f"/t/{knockout.pk}/edit/"]
    for event in Tournament.objects.all():  # the control rooms and their links pages
        organiser += [f"/t/{event.pk}/control/", f"/t/{event.pk}/control/links/"]
    for language in ("en", "bg"):
        speak(browser_page, live_site.url, language)
        assert wider_than_the_screen(browser_page, live_site.url, organiser) == {}, language
        assert import_page(browser_page, live_site.url, IMPORT_OK) <= PHONE_WIDTH
        assert browser_page.locator("main table").count() == 1  # the preview
        assert import_page(browser_page, live_site.url, IMPORT_BAD) <= PHONE_WIDTH
        assert browser_page.locator(".import-errors").count() == 1


@pytest.fixture
def live_match(organiser) -> Match:
    """A semifinal of a four-player knockout of `organiser`'s, two deals in: 3:0, then 3:1."""
    cup = knockout_started(4)
    cup.organisers.add(organiser)
    match = at(cup, 1, 0).match
    play(match, "A3 B1")
    return match


def open_live_match(page, live_site, match: Match) -> None:
    """The match page of `match`, its event's organiser logged in."""
    log_in(page, live_site, match.pairing.round.tournament.organisers.get())
    page.goto(f"{live_site.url}/m/{match.pk}/")


CARD_POINTS = {"#id_details-card_points_a": "70", "#id_details-card_points_b": "70",
               "#id_details-tricks_a": "5", "#id_details-tricks_b": "7"}


def type_card_points(page) -> None:
    if not page.locator("#id_details-card_points_a").is_visible():
        page.click("text=Enter card points and tricks instead")
    page.wait_for_selector("#id_details-card_points_a")
    page.check("#id_details-end_1", force=True)  # the stock ran out
    for selector, value in CARD_POINTS.items():
        page.fill(selector, value)


# Whether an element is wholly inside the window.
IN_VIEW = ("e => { const r = e.getBoundingClientRect(); "
           "return r.top >= 0 && r.bottom <= innerHeight }")


def typed_values(page) -> dict[str, str]:
    return {selector: page.input_value(selector) for selector in CARD_POINTS}


def test_the_card_points_form_keeps_what_was_typed(browser_page, live_site, live_match):
    page, match = browser_page, live_match
    open_live_match(page, live_site, match)
    deals = match.deals.count()
    type_card_points(page)
    # One Save button while the card-points form is open: the quick form steps aside.
    assert page.locator("button:visible", has_text="Save deal").count() == 1
    assert page.locator("button:visible", has_text="Draw").count() == 0

    # The stock ran out but nobody took the last trick: refused (422), the error beside that
    # field and scrolled into view; everything typed is still there.
    with page.expect_response(lambda answer: answer.request.method == "POST") as answer:
        page.click("button:visible >> text=Save deal")
    assert answer.value.status == 422
    error = page.locator(".details-entry .errorlist").first
    error.wait_for()
    assert error.is_visible() and error.evaluate(IN_VIEW)
    assert typed_values(page) == CARD_POINTS
    assert page.is_checked("#id_details-end_1")

    from playwright.sync_api import expect

    # Another button (undo the last deal) redraws the panel: the form comes back as typed.
    page.click("text=Undo the last deal")
    with page.expect_response(lambda answer: "/undo/" in answer.url):
        page.click("button.danger >> text=Yes, undo deal")
    # The redrawn panel's Save: the quick form's shows only until the card-points form is open
    # again (with its own), so wait for a visible one, not the first.
    page.locator("button:visible", has_text=f"Save deal {deals}").first.wait_for()
    expect(page.locator("#id_details-card_points_a")).to_have_value("70")
    assert typed_values(page) == CARD_POINTS
    assert match.deals.count() == deals - 1


def test_draw_asks_first_and_the_saved_notice_goes_at_the_next_action(browser_page, live_site,
                                                                      live_match):
    page, match = browser_page, live_match
    open_live_match(page, live_site, match)
    deals = match.deals.count()
    questions = []
    page.on("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.click("button >> text=Draw: 0 game points")
    assert questions == [f"Record deal {deals + 1} as a draw, 0 game points to each player?"]
    assert match.deals.count() == deals
    # Draw is no bigger than Save.
    save = page.locator(".quick-entry button.primary.big").bounding_box()
    draw = page.locator("button.draw").bounding_box()
    assert draw["width"] <= save["width"] and draw["height"] <= save["height"]

    # A saved deal: the notice shows, the score stays in view, the notice goes at the next tap.
    page.click("label.choice >> nth=0")
    page.click("label.choice.reason >> nth=0")
    page.click(f"text=Save deal {deals + 1}")
    notice = page.locator(".message.success")
    notice.wait_for()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    assert page.locator(".scoreboard").evaluate(IN_VIEW)
    page.click("label.choice >> nth=1")
    assert notice.count() == 0

