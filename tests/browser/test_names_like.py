"""On a phone: a name typed another way than the register has it is asked about on the
event's players page and the club night's pairing form; the question fits the screen, the
Enter key never answers it, and its buttons do. The club, its register (tests/conftest.py's
`players`) and its organiser, logged in without the form (`log_in`), are made in code."""

import datetime

import pytest

from club.models import Player
from events.models import Tournament
from formats.club_night import services as club_nights
from scoring import rules
from tests.browser.conftest import log_in
from tests.browser.test_phone_pages import PHONE_WIDTH, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_pairing_form_asks_and_its_button_pairs_the_player(browser_page, live_site,
                                                              home_club, players, organiser):
    club = home_club
    night = club_nights.club_night_create(
        club=club, date=datetime.date(2026, 12, 18), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    ivan = Player.objects.get(name="Иван Петров")
    maria = Player.objects.get(name="Мария Георгиева")
    page, base = browser_page, live_site.url
    log_in(page, live_site, organiser)
    page.goto(f"{base}/t/{night.pk}/night/")
    page.fill("#id_new_name_a", "ivan petrov")
    page.select_option("#id_player_b", str(maria.pk))
    page.fill("#id_table", "5")
    page.click("button.primary >> text=Start the match")
    page.wait_for_selector(".like-question")
    assert "Иван Петров is already in the register of" in page.inner_text(".like-question")
    assert scroll_width(page) <= PHONE_WIDTH
    with page.expect_response(lambda answer: answer.request.method == "POST") as answer:
        page.press("#id_table", "Enter")  # the form's default button asks again; uses nobody
    assert answer.value.status == 409
    page.wait_for_selector(".like-question")
    assert not night.rounds.get().pairings.exists()
    page.click("button[name=use_a]")
    page.wait_for_selector("text=Table 5: Иван Петров – Мария Георгиева")
    pairing = night.rounds.get().pairings.get()
    assert (pairing.entry_a.player, pairing.entry_b.player) == (ivan, maria)


def test_the_players_page_asks_and_insisting_adds_the_name_as_typed(browser_page, live_site,
                                                                   home_club, players,
                                                                   organiser):
    club = home_club
    cup = Tournament.objects.create(name="Купа", date=datetime.date(2026, 12, 19), club=club,
                                    format=Tournament.Format.ROUND_ROBIN)
    cup.organisers.add(organiser)
    players = Player.objects.count()
    page, base = browser_page, live_site.url
    log_in(page, live_site, organiser)
    page.goto(f"{base}/t/{cup.pk}/players/")
    page.fill("#id_new_name", "IVAN PETROV")
    page.click("button.primary >> text=Add")
    page.wait_for_selector(".like-question")
    assert scroll_width(page) <= PHONE_WIDTH
    assert page.locator(".like-question button", has_text="Use Иван Петров").count() == 1
    page.click("text=Add a new player “IVAN PETROV”")
    page.wait_for_selector("text=Added IVAN PETROV.")
    assert [entry.player.name for entry in cup.entries.all()] == ["IVAN PETROV"]
    assert Player.objects.count() == players + 1
