"""A club night of two rounds on four players' passes (four phones, 390×844) and the organiser's
page: each phone says "I'm here", the organiser sees them arrive and pairs them on the night's
pairing form, and every pass shows its table and opponent within 5 s, without a reload.

Round 1: table 1 is played on both players' passes (each enters deals, each signs); table 2 on
one phone, where the opponent signs with their personal code. A second phone on a pass that
has signed, and the opponent's own phone, cannot sign for the seat they do not hold. Round 2 is
paired on the same form and played on the passes to the end.

The results, worked out by hand (matches to 11; a deal gives 1, 2 or 3 game points;
scoring/rules.py, docs/rules.md §2 and §6; the night's order: wins, then game-point
difference, then game points scored):

round 1, table 1: Иван (A) 3+3+2+3 = 11, Мария 1            11:1
round 1, table 2: Георги (A) 3, Елена 3+3+3+2 = 11           3:11
  -> Иван 1 win +10, Елена 1 win +8, Георги 0 wins -8, Мария 0 wins -10: places 1, 2, 3, 4
round 2, table 1: Иван (A) 0, Елена 3+3+3+2 = 11            0:11
round 2, table 2: Мария (A) 3+3+3+2 = 11, Георги 0            11:0
  -> Елена 2 wins (22:3, +19); Мария 1 win (12:11, +1); Иван 1 win (11:12, -1);
     Георги 0 wins (3:22, -19): places 1, 2, 3, 4.
"""

import datetime

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from formats.club_night import services as club_nights
from passes import services
from scoring import rules
from scoring.models import Match
from tableside import table_entry
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOON = 5_000
CAPOT, SCHNEIDER, WON = "capot", "66, loser under 33", "66, loser 33 or more"


def enter(*deals):
    """Each of `deals`, (phone, number, winner, reason), entered on its phone's match page
    (`winner`, a name, won deal `number` for `reason`), one per table; then each phone says
    the server has its deal."""
    for phone, number, winner, reason in deals:
        save = phone.get_by_role("button", name=f"Save deal {number}")
        expect(save).to_be_visible(timeout=SOON)  # the other phone's deal has arrived
        phone.click(f"label.choice >> text={winner}")
        phone.click(f"label.choice.reason >> text={reason}")
        save.click()
    for phone, number, _winner, _reason in deals:
        expect(phone.get_by_text(f"Deal {number} saved.")).to_be_visible(timeout=SOON)


def pair(desk, a, b, table):
    """The organiser pairs `a` (seat A) and `b` at `table` on the night's form."""
    desk.select_option("#id_player_a", str(a.pk))
    desk.select_option("#id_player_b", str(b.pk))
    desk.fill("#id_table", str(table))
    desk.click("button.primary >> text=Start the match")
    expect(desk.get_by_text(f"Table {table}: {a.name} – {b.name}. The match has started.")
           ).to_be_visible()


def sign(phone, answer):
    """The player of `phone`'s pass signs; `answer`: what the page then says."""
    phone.get_by_role("button", name="Sign", exact=True).click()
    expect(phone.get_by_text(answer)).to_be_visible()


def shows(phone, *texts):
    for text in texts:
        expect(phone.locator("#pass-live")).to_contain_text(text, timeout=SOON)


def test_a_club_night_of_two_rounds_on_four_passes(open_page, live_site, organiser, home_club,
                                                   players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 5), name="Петъчна вечер",
        organiser=organiser, house_rules=rules.HouseRules.preset("default"), language="en",
    )
    ivan, maria, georgi, elena = players[:4]
    passes = {player.pk: services.pass_make(player) for player in (ivan, maria, georgi, elena)}

    def pass_url(player, match=None):
        token = services.token_of(passes[player.pk])
        if match is None:
            return live_site.url + reverse("passes:page", args=[token])
        return live_site.url + reverse("players:pass_match", args=[token, match.pk])

    desk = open_page(1280, 900)
    log_in(desk, live_site, organiser)
    desk.goto(live_site.url + reverse("nights:detail", args=[night.pk]))
    phones = {player.pk: open_page() for player in (ivan, maria, georgi, elena)}
    # The phones load side by side: each step waits for what it taps or checks.
    for player in (ivan, maria, georgi, elena):
        phones[player.pk].goto(pass_url(player), wait_until="commit")
    for phone in phones.values():
        phone.click("button >> text=I'm here")
    for phone in phones.values():
        shows(phone, "You are here since")
    # The organiser's page hears of each arrival by itself.
    arrived = desk.locator("section.night-arrived")
    expect(arrived.locator("h2")).to_contain_text("(4)", timeout=SOON)
    for player in (ivan, maria, georgi, elena):
        expect(arrived).to_contain_text(player.name)

    # Round 1.
    pair(desk, ivan, maria, 1)
    pair(desk, georgi, elena, 2)
    expect(desk.locator("section.night-arrived")).to_have_count(0, timeout=SOON)
    for player, table, opponent in [(ivan, 1, maria), (maria, 1, ivan), (georgi, 2, elena),
                                    (elena, 2, georgi)]:
        shows(phones[player.pk], f"Table {table}", f"against {opponent.name}")
    assert phones[ivan.pk].evaluate("document.documentElement.scrollWidth") <= 390
    one = Match.objects.get(player_a=ivan, player_b=maria)
    two = Match.objects.get(player_a=georgi, player_b=elena)

    # Table 1 on both passes, each entering deals from their own; table 2 on Георги's phone
    # alone (Елена's phone opens the match too, to try signing below).
    phone_ivan, phone_maria = phones[ivan.pk], phones[maria.pk]
    phone_georgi, phone_elena = phones[georgi.pk], phones[elena.pk]
    for phone in phones.values():
        phone.click("text=Open my match")
    for player in (ivan, maria, georgi, elena):
        expect(phones[player.pk].get_by_text(f"Pass of {player.name}")).to_be_visible()
    enter((phone_ivan, 1, ivan.name, CAPOT), (phone_georgi, 1, elena.name, CAPOT))
    enter((phone_maria, 2, maria.name, WON), (phone_georgi, 2, georgi.name, CAPOT))
    enter((phone_maria, 3, ivan.name, CAPOT), (phone_georgi, 3, elena.name, CAPOT))
    enter((phone_ivan, 4, ivan.name, SCHNEIDER), (phone_georgi, 4, elena.name, CAPOT))
    enter((phone_ivan, 5, ivan.name, CAPOT),  # 11:1
          (phone_georgi, 5, elena.name, SCHNEIDER))  # 3:11
    sign(phone_ivan, "You signed the result 11:1.")
    # A second phone on Иван's pass, which has signed, cannot sign for Мария: not without
    # her personal code.
    second = open_page()
    second.goto(pass_url(ivan, one))
    expect(second.get_by_text("You signed the result 11:1.")).to_be_visible()
    expect(second.get_by_role("button", name="Sign", exact=True)).to_have_count(0)
    wrong = "1111" if services.code_of(passes[maria.pk]) == "0000" else "0000"
    second.fill("#pass-code", wrong)
    second.click(f"button >> text=Sign for {maria.name}")
    expect(second.get_by_role("alert")).to_have_text(
        f"That is not the personal code of {maria.name}. Tries left: 4.")
    assert not table_entry.table_of(one).signed_b
    expect(phone_maria.get_by_text("Sign the result 11:1")).to_be_visible(timeout=SOON)
    sign(phone_maria, "The result 11:1 is final.")

    # Table 2: Елена's own phone signs for her seat only: a sign form altered to name
    # Георги's seat is refused with the sentence, and nothing is signed.
    expect(phone_elena.get_by_text("Sign the result 3:11")).to_be_visible(timeout=SOON)
    phone_elena.locator("form:has(button:text-is('Sign')) input[name=seat]").evaluate(
        "input => input.value = 'A'")
    phone_elena.get_by_role("button", name="Sign", exact=True).click()
    expect(phone_elena.get_by_role("alert")).to_have_text(
        f"This phone is {elena.name}'s seat; each player signs for themselves.")
    table = table_entry.table_of(two)
    assert not table.signed_a and not table.signed_b
    sign(phone_georgi, "You signed the result 3:11.")
    phone_georgi.fill("#pass-code", services.code_of(passes[elena.pk]))
    phone_georgi.click(f"button >> text=Sign for {elena.name}")
    expect(phone_georgi.get_by_text("The result 3:11 is final.")).to_be_visible()
    table = table_entry.table_of(two)
    assert table.is_final and table.signed_a and table.signed_b

    # Back on the passes: the result and the place after round 1.
    for phone in phones.values():
        phone.click("text=Back to my pass")
    for player, last, place in [(ivan, f"Last match: 11:1 against {maria.name} · won", 1),
                                (elena, f"Last match: 11:3 against {georgi.name} · won", 2),
                                (georgi, f"Last match: 3:11 against {elena.name} · lost", 3),
                                (maria, f"Last match: 1:11 against {ivan.name} · lost", 4)]:
        shows(phones[player.pk], last, f"Your place in the standings: {place}")

    # Round 2, paired on the same form; every pass shows it by itself.
    expect(desk.locator("section.night-arrived h2")).to_contain_text("(4)", timeout=SOON)
    pair(desk, ivan, elena, 1)
    pair(desk, maria, georgi, 2)
    for player, table, opponent in [(ivan, 1, elena), (elena, 1, ivan), (maria, 2, georgi),
                                    (georgi, 2, maria)]:
        shows(phones[player.pk], f"Table {table}", f"against {opponent.name}")
    for phone in phones.values():
        phone.click("text=Open my match")
    for player in (ivan, maria, georgi, elena):
        expect(phones[player.pk].get_by_text(f"Pass of {player.name}")).to_be_visible()
    enter((phone_elena, 1, elena.name, CAPOT), (phone_maria, 1, maria.name, CAPOT))
    enter((phone_ivan, 2, elena.name, CAPOT), (phone_georgi, 2, maria.name, CAPOT))
    enter((phone_elena, 3, elena.name, CAPOT), (phone_maria, 3, maria.name, CAPOT))
    enter((phone_ivan, 4, elena.name, SCHNEIDER),  # 0:11
          (phone_georgi, 4, maria.name, SCHNEIDER))  # 11:0
    # Each player signs on their own pass, the two tables side by side.
    signing = [([(phone_ivan, "0:11"), (phone_georgi, "11:0")], "You signed the result {}."),
               ([(phone_elena, "0:11"), (phone_maria, "11:0")], "The result {} is final.")]
    for signs, answer in signing:
        for phone, score in signs:
            expect(phone.get_by_text(f"Sign the result {score}")).to_be_visible(timeout=SOON)
            phone.get_by_role("button", name="Sign", exact=True).click()
        for phone, score in signs:
            expect(phone.get_by_text(answer.format(score))).to_be_visible()
    for phone in phones.values():
        phone.click("text=Back to my pass")
    for player, last, place in [(elena, f"Last match: 11:0 against {ivan.name} · won", 1),
                                (maria, f"Last match: 11:0 against {georgi.name} · won", 2),
                                (ivan, f"Last match: 0:11 against {elena.name} · lost", 3),
                                (georgi, f"Last match: 0:11 against {maria.name} · lost", 4)]:
        shows(phones[player.pk], last, f"Your place in the standings: {place}")
    assert all(table_entry.table_of(match).is_final
               for match in Match.objects.filter(pairing__round__tournament=night))
