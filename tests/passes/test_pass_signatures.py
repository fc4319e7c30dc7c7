"""Entering and signing a match from a player's pass: the seat is the pass's player's, the
history names the pass, one phone signs for the other with their personal code (5 wrong
tries, then only the organiser), and the match's link alone no longer signs once passes are
in use. Round 1 of the four-player round robin (tests/passes/test_pass_page.py): table 1 is
player 1 (seat A) against player 4 (seat B)."""

import random

import pytest
from django.test import Client

from events import services as event_services
from events.models import EntryMode
from passes import services
from passes.models import CodeTries
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Deal, Match
from tableside import table_entry
from tableside.match_history import match_history
from tableside.models import MatchEvent
from tests.passes.test_pass_page import round_robin


@pytest.fixture
def table_one(home_club, organiser, players):
    tournament = round_robin(home_club, organiser, players[:4])
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    match = Match.objects.select_related("player_a", "player_b").get(
        pairing__round__tournament=tournament, pairing__round__number=1, pairing__table=1)
    return tournament, match


def phone(player) -> tuple[Client, str]:
    """A phone with the pass of `player` (English; an address of its own on the club's wifi),
    and the address of their pass."""
    client = Client(REMOTE_ADDR=f"10.0.0.{player.pk % 250 + 1}")
    client.cookies["django_language"] = "en"
    return client, f"/pass/{services.token_of(services.pass_make(player))}"


def deal(client, base: str, match: Match, winner: str, points: int, reason: str, number: int):
    return client.post(f"{base}/m/{match.pk}/deal/", {
        "number": number, "winner": winner, "game_points": points, "reason": reason})


def eleven_to_nil(client, base: str, match: Match) -> None:
    """Seat A wins 3+3+3+2 = 11 game points to nil, from `client`'s pass."""
    for number, (points, reason) in enumerate(
            [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")], start=1):
        assert deal(client, base, match, "A", points, reason, number).status_code == 302


def test_the_pass_opens_its_own_match_without_choosing_a_seat(table_one, players):
    _tournament, match = table_one
    ivan, base = phone(match.player_a)
    page = ivan.get(f"{base}/m/{match.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Pass of {match.player_a.name}" in text and "Who are you?" not in text
    # A match the pass's player does not play: 404, as any wrong address.
    other = Match.objects.exclude(player_a=match.player_a).exclude(
        player_b=match.player_a).first()
    assert ivan.get(f"{base}/m/{other.pk}/").status_code == 404
    assert ivan.post(f"{base}/m/{other.pk}/sign/").status_code == 404


def test_signing_from_both_passes_makes_the_result_final(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    b, base_b = phone(match.player_b)
    eleven_to_nil(a, base_a, match)
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (11, 0, "finished")
    assert a.post(f"{base_a}/m/{match.pk}/sign/").status_code == 302
    table = table_entry.table_of(match)
    assert table.signed_a and not table.signed_b and not table.is_final
    assert b.post(f"{base_b}/m/{match.pk}/sign/").status_code == 302
    table.refresh_from_db()
    assert table.is_final and table.signed_alike == ""
    signed = MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.SIGNED)
    assert [(event.seat, event.via) for event in signed] == [("A", "pass"), ("B", "pass")]
    history = [change.who for change in match_history(match) if change.after == "result signed"]
    assert any(f"pass of {match.player_b.name}" in who for who in history)
    assert all(services.token_of(services.pass_make(match.player_a)) not in who
               for who in history)


def test_one_pass_cannot_sign_for_the_other_seat(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    eleven_to_nil(a, base_a, match)
    a.post(f"{base_a}/m/{match.pk}/sign/")
    # Naming the other seat is refused with a sentence, and nothing is written.
    refused = a.post(f"{base_a}/m/{match.pk}/sign/", {"seat": "B"})
    assert refused.status_code == 403
    assert "each player signs for themselves" in refused.content.decode()
    # The refusal's page goes on following the match from its own address, not the post's
    # (which answers GET with 405).
    assert f'data-live hx-get="{base_a}/m/{match.pk}/"' in refused.content.decode()
    # Signing again signs seat A again: refused, seat B still unsigned.
    again = a.post(f"{base_a}/m/{match.pk}/sign/")
    assert again.status_code == 409
    table = table_entry.table_of(match)
    assert table.signed_a and not table.signed_b


def test_the_personal_code_signs_for_the_opponent_on_one_phone(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    code_b = services.code_of(services.pass_make(match.player_b))
    eleven_to_nil(a, base_a, match)
    a.post(f"{base_a}/m/{match.pk}/sign/")
    page = a.get(f"{base_a}/m/{match.pk}/").content.decode()
    assert f"Personal code of {match.player_b.name}" in page
    assert a.post(f"{base_a}/m/{match.pk}/code/", {"code": code_b}).status_code == 302
    table = table_entry.table_of(match)
    assert table.is_final and table.signed_alike == ""
    event = MatchEvent.objects.get(match=match, kind=MatchEvent.Kind.SIGNED, seat="B")
    assert event.via == "code"


def test_five_wrong_codes_and_only_the_organiser_settles_it(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    code_b = services.code_of(services.pass_make(match.player_b))
    wrong = f"{(int(code_b) + 1) % 10000:04d}"
    eleven_to_nil(a, base_a, match)
    a.post(f"{base_a}/m/{match.pk}/sign/")
    for left in (4, 3, 2, 1):
        response = a.post(f"{base_a}/m/{match.pk}/code/", {"code": wrong})
        assert response.status_code == 422
        assert f"Tries left: {left}." in response.content.decode()
    fifth = a.post(f"{base_a}/m/{match.pk}/code/", {"code": wrong})
    assert fifth.status_code == 409 and "ask the organiser" in fifth.content.decode()
    # Now even the right code is refused, and seat B stays unsigned.
    right = a.post(f"{base_a}/m/{match.pk}/code/", {"code": code_b})
    assert right.status_code == 409
    assert CodeTries.objects.get(match=match).wrong == 5
    assert not table_entry.table_of(match).signed_b


def test_the_sore_loser_cannot_undo_after_the_winner_signed(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    b, base_b = phone(match.player_b)
    eleven_to_nil(a, base_a, match)
    assert a.post(f"{base_a}/m/{match.pk}/sign/").status_code == 302
    deals_before = list(Deal.objects.filter(match=match).values_list("number", "game_points"))
    events_before = MatchEvent.objects.filter(match=match).count()
    undo = b.post(f"{base_b}/m/{match.pk}/undo/", {"number": 4})
    assert undo.status_code == 409
    assert "The result is signed, so the players can no longer change it" in \
        undo.content.decode()
    assert list(Deal.objects.filter(match=match).values_list("number", "game_points")) == \
        deals_before
    assert MatchEvent.objects.filter(match=match).count() == events_before
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (11, 0)


def test_the_matchs_link_alone_no_longer_signs_once_passes_are_in_use(table_one):
    _tournament, match = table_one
    services.pass_make(match.player_b)  # one player has a pass: passes are in use
    token = table_entry.table_of(match).token
    link = Client()
    link.cookies["django_language"] = "en"
    assert link.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    for number, (points, reason) in enumerate(
            [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")], start=1):
        response = link.post(f"/p/{token}/deal/", {
            "number": number, "winner": "A", "game_points": points, "reason": reason})
        assert response.status_code == 302  # the link still enters deals
    page = link.get(f"/p/{token}/").content.decode()
    assert "sign the result from your pass" in page
    refused = link.post(f"/p/{token}/sign/")
    assert refused.status_code == 409
    assert "signed from a pass" in refused.content.decode()
    assert not table_entry.table_of(match).signed_a


def test_under_players_trusted_nothing_waits_for_a_signature(home_club, organiser, players):
    tournament = round_robin(home_club, organiser, players[:4],
                             entry_mode=EntryMode.PLAYERS_TRUSTED)
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    match = Match.objects.get(pairing__round__tournament=tournament, pairing__round__number=1,
                              pairing__table=1)
    services.pass_make(match.player_b)
    token = table_entry.table_of(match).token
    link = Client()
    link.post(f"/p/{token}/seat/", {"seat": "A"})
    for number, (points, reason) in enumerate(
            [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")], start=1):
        link.post(f"/p/{token}/deal/", {
            "number": number, "winner": "A", "game_points": points, "reason": reason})
    match.refresh_from_db()
    assert match.status == "finished"
    table = table_entry.table_of(match)
    assert table_entry.result_state(match, tournament.entry_mode, table) == ""


def test_a_revoked_pass_opens_no_match_and_signs_nothing(table_one):
    _tournament, match = table_one
    a, base_a = phone(match.player_a)
    eleven_to_nil(a, base_a, match)
    services.pass_revoke(match.player_a)
    assert a.get(f"{base_a}/m/{match.pk}/").status_code == 404
    assert a.post(f"{base_a}/m/{match.pk}/sign/").status_code == 404
    assert a.post(f"{base_a}/m/{match.pk}/undo/", {"number": 4}).status_code == 404
    assert not table_entry.table_of(match).signed_a
    assert match.deals.count() == 4


def test_the_organisers_correction_and_its_reason_show_on_both_passes(table_one, organiser):
    """Deal 2 entered as 66 under 33 (2 game points) is corrected by the organiser to a capot
    (3): 3:0, 5:0 becomes 3:0, 6:0, and both players read it, with the reason, on their
    passes. Before any correction nothing is said."""
    _tournament, match = table_one
    ivan, ivan_base = phone(match.player_a)
    maria, maria_base = phone(match.player_b)
    assert deal(ivan, ivan_base, match, "A", 3, "capot", 1).status_code == 302
    assert deal(ivan, ivan_base, match, "A", 2, "schneider", 2).status_code == 302
    page = ivan.get(f"{ivan_base}/m/{match.pk}/").content.decode()
    assert "Corrected by the organiser" not in page
    second = Deal.objects.get(match=match, number=2)
    scoring_services.deal_correct(deal=second, score=rules.quick_result("A", 3, "capot"),
                                  by=organiser, reason="Мария took no trick")
    name = match.player_a.name
    line = (f"Deal 2: {name} +2 (66, loser under 33) → {name} +3 (capot: loser took no trick)"
            " · <q>Мария took no trick</q>")
    for client, base in ((ivan, ivan_base), (maria, maria_base)):
        page = client.get(f"{base}/m/{match.pk}/").content.decode()
        assert "Corrected by the organiser" in page
        assert line in page
