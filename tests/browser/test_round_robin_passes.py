"""Three rounds of a six-player round robin on six players' passes (six phones, 390×844),
started by the organiser: every pass shows its table, round and opponent within 5 s of the
start, and the next round's as soon as its match is over, without a reload.

The draw numbers are the order of entry (1 Иван ... 6 Светла); the FIDE Berger table for six
(FIDE Handbook C.05, Annex 1; formats/round_robin/berger.py), seat A first, tables in the
table's order:

    round 1: 1-6, 2-5, 3-4      round 2: 6-4, 5-3, 1-2
    round 3: 2-6, 3-1, 4-5      round 4: 6-5, 1-4, 2-3

Two tables a round are played on a pass in the browser (one phone enters the deals, the other
player's pass follows); the third is entered through the services the pass's pages call
(`tableside.table_entry.table_deal_enter` with the pass as device), to keep the test short.
In round 1 the four players of the two tables sign from their own passes: the first signature
of a table is said as given, the second makes the result final.

Results (matches to 11; capot 3, under 33 2, plain win 1 game point):

    round 1: 1-6 11:4 (services), 2-5 11:0, 3-4 11:0
    round 2: 6-4 0:11, 5-3 0:11, 1-2 11:0 (services)
    round 3: 2-6 11:0, 3-1 5:11 (services), 4-5 11:3

After round 1, 1 (one win, +7) is third behind 2 and 3 (one win, +11 each) and 6 (-7)
fourth. After round 3: 1 has 3 wins; 2, 3 and 4 two each, and have not all met each other, so
the head-to-head is not used (docs/formats.md "Round robin") and the game-point difference
orders them: 3 +16 (27:11), 2 +11 (22:11), 4 +8 (22:14); 5 and 6 no win: 6 -29 (4:33) before
5 -30 (3:33). Places 1, 3, 2, 4, 6, 5.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from passes import services
from scoring import rules
from scoring.models import Match
from tableside import table_entry
from tableside.models import MatchEvent
from tests.browser.conftest import log_in
from tests.passes.test_pass_page import round_robin

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOON = 5_000
CAPOT, SCHNEIDER, WON = "capot", "66, loser under 33", "66, loser 33 or more"
POINTS = {CAPOT: (3, "capot"), SCHNEIDER: (2, "schneider"), WON: (1, "won")}
ELEVEN_NIL = ["A"] * 4
"""Seat A: capot, capot, capot, under 33 (`deals`)."""


def deals(winners, reasons=None):
    """[(winning seat, reason)]: capots, and the last deal under 33 unless `reasons` says."""
    reasons = reasons or [CAPOT] * (len(winners) - 1) + [SCHNEIDER]
    return list(zip(winners, reasons, strict=True))


def enter(*tables):
    """Each of `tables`, (phone, match, [(winning seat, reason)]), played deal by deal on its
    phone's match page, the tables side by side; each phone then says the server has its last
    deal."""
    longest = max(len(played) for _phone, _match, played in tables)
    for index in range(longest):
        for phone, match, played in tables:
            if index < len(played):
                seat, reason = played[index]
                save = phone.get_by_role("button", name=f"Save deal {index + 1}")
                expect(save).to_be_visible()
                phone.click(f"label.choice >> text={match.player(seat).name}")
                phone.click(f"label.choice.reason >> text={reason}")
                save.click()
    for phone, _match, played in tables:
        expect(phone.get_by_text(f"Deal {len(played)} saved.")).to_be_visible(timeout=SOON)


def entered_elsewhere(match, played, player_pass):
    """`played` entered through the services from `player_pass` (one of the match's players'),
    as its match page would."""
    seat = "A" if match.player_a_id == player_pass.player_id else "B"
    for number, (winner, reason) in enumerate(played, start=1):
        points, code = POINTS[reason]
        table_entry.table_deal_enter(
            match=match, seat=seat, score=rules.quick_result(winner, points, code),
            number=number, device=services.pass_device(player_pass), via=MatchEvent.Via.PASS)


def test_three_rounds_of_a_round_robin_on_six_passes(open_page, live_site, organiser,
                                                     home_club, players):
    six = players[:6]
    tournament = round_robin(home_club, organiser, six)
    passes = [services.pass_make(player) for player in six]
    phones = [open_page() for _player in six]
    # The phones load side by side: each step waits for what it checks.
    for phone, player_pass in zip(phones, passes, strict=True):
        phone.goto(live_site.url + reverse("passes:page", args=[services.token_of(player_pass)]),
                   wait_until="commit")
    for phone in phones:
        expect(phone.get_by_text("No event of your club is under way")).to_be_visible()

    desk = open_page(1280, 900)
    log_in(desk, live_site, organiser)
    desk.goto(live_site.url + reverse("events:players", args=[tournament.pk]))
    desk.click("text=Start the tournament")
    expect(desk.get_by_text("The tournament has started. Round 1 is ready.")).to_be_visible()

    def number(player):
        return six.index(player) + 1

    def match_of(round_number, table):
        return Match.objects.select_related("player_a", "player_b").get(
            pairing__round__tournament=tournament, pairing__round__number=round_number,
            pairing__table=table)

    def paired(round_number, pairs):
        """Every pass shows its table of `round_number` (pairs: draw numbers, table 1 first)
        and its opponent, by itself."""
        for table, (a, b) in enumerate(pairs, start=1):
            for me, other in ((a, b), (b, a)):
                phone = phones[me - 1]
                now = phone.locator(".pass-now")
                expect(now).to_contain_text(f"Table {table}", timeout=SOON)
                expect(now).to_contain_text(f"Round {round_number}")
                expect(phone.locator(".pass-opponent")).to_have_text(
                    f"against {six[other - 1].name}")
            match = match_of(round_number, table)
            assert (number(match.player_a), number(match.player_b)) == (a, b)

    def open_match(*draw_numbers):
        for me in draw_numbers:
            phones[me - 1].click("text=Open my match")
        for me in draw_numbers:
            expect(phones[me - 1].get_by_text(f"Pass of {six[me - 1].name}")).to_be_visible()

    def back_to_pass(*draw_numbers):
        for me in draw_numbers:
            phones[me - 1].click("text=Back to my pass")

    def place(me, expected):
        expect(phones[me - 1].locator(".pass-place")).to_have_text(
            f"Your place in the standings: {expected}", timeout=SOON)

    paired(1, [(1, 6), (2, 5), (3, 4)])
    assert phones[0].evaluate("document.documentElement.scrollWidth") <= 390

    # Round 1: table 1 through the services (11:4); 2 and 3 enter theirs on their passes.
    entered_elsewhere(match_of(1, 1), deals(["B", "A", "A", "A", "B", "A"],
                                            [CAPOT, CAPOT, CAPOT, CAPOT, WON, SCHNEIDER]),
                      passes[0])
    open_match(2, 3, 5, 4)
    enter((phones[1], match_of(1, 2), deals(ELEVEN_NIL)),
          (phones[2], match_of(1, 3), deals(ELEVEN_NIL)))
    for signs, answer in [([(2, "11:0"), (3, "11:0")], "You signed the result {}."),
                          ([(5, "11:0"), (4, "11:0")], "The result {} is final.")]:
        for me, score in signs:
            expect(phones[me - 1].get_by_text(f"Sign the result {score}")).to_be_visible(
                timeout=SOON)
            phones[me - 1].get_by_role("button", name="Sign", exact=True).click()
        for me, score in signs:
            expect(phones[me - 1].get_by_text(answer.format(score))).to_be_visible()
    assert all(table_entry.table_of(match_of(1, table)).is_final for table in (2, 3))
    back_to_pass(2, 3, 5, 4)
    paired(2, [(6, 4), (5, 3), (1, 2)])
    place(1, 3)
    place(6, 4)

    # Round 2: tables 1 and 2 on the passes of 4 and 3 (seat B), table 3 through the services.
    open_match(4, 3)
    enter((phones[3], match_of(2, 1), deals(["B"] * 4)),
          (phones[2], match_of(2, 2), deals(["B"] * 4)))
    entered_elsewhere(match_of(2, 3), deals(ELEVEN_NIL), passes[1])
    back_to_pass(4, 3)
    paired(3, [(2, 6), (3, 1), (4, 5)])

    # Round 3: tables 1 and 3 on the passes of 2 and 4, table 2 (5:11) through the services.
    open_match(2, 4)
    enter((phones[1], match_of(3, 1), deals(ELEVEN_NIL)),
          (phones[3], match_of(3, 3), deals(["A", "B", "A", "A", "A"])))  # 11:3
    entered_elsewhere(match_of(3, 2), deals(["B", "A", "B", "A", "B", "B"],
                                            [CAPOT, CAPOT, CAPOT, SCHNEIDER, CAPOT, SCHNEIDER]),
                      passes[0])  # 5:11
    back_to_pass(2, 4)
    paired(4, [(6, 5), (1, 4), (2, 3)])
    for me, expected in [(1, 1), (3, 2), (2, 3), (4, 4), (6, 5), (5, 6)]:
        place(me, expected)
    expect(phones[2].locator(".pass-last")).to_have_text(
        f"Last match: 5:11 against {six[0].name} · lost")
    expect(phones[3].locator(".pass-last")).to_have_text(
        f"Last match: 11:3 against {six[4].name} · won")
