"""A seat is held by one browser, and once a player has signed, the phones change nothing
(tableside/table_entry.py, tableside/views/players.py): each Django test `Client` below is one
browser, with its own cookies.

Scores are worked out by hand: "A3 A3 A3 A3" is 3+3+3+3 = 12:0 for seat A after deal 4, past
the target of 11 (9:0 after deal 3, so deal 4 decides the match); seat B winning deals 4 to 7
with 3 each after an undo of deal 4 would make it 9:12.
"""

import datetime
import hashlib
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from events.models import EntryMode
from formats.club_night import services as club_nights
from scoring import rules
from scoring.models import Match
from tableside import table_entry
from tableside.errors import TableError
from tableside.models import MatchEvent, MatchTable
from tableside.views.players import DEVICE_COOKIE
from tests.commits import committed
from tests.tableside.test_table_entry import enter, quick, set_mode

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

SENTENCES = {
    "seat_taken": (
        "The seat of {name} is already taken on another phone. If that is a mistake, ask the "
        "organiser to free it.",
        "Мястото на {name} вече е заето от друг телефон. Ако това е грешка, помолете "
        "организатора да го освободи.",
    ),
    "seat_other_held": (
        "This phone already holds the seat of {name}, and one phone plays one seat.",
        "Този телефон вече заема мястото на {name}, а един телефон играе само за едно място.",
    ),
    "result_signed": (
        "The result is signed, so the players can no longer change it here; ask to undo the "
        "last deal from your pass (the signer allows it), or ask the organiser.",
        "Резултатът е подписан, затова играчите вече не могат да го променят оттук; "
        "поискайте отмяна на последното раздаване от пропуска си (подписалият я разрешава) "
        "или помолете организатора.",
    ),
    "result_disputed": (
        "The result is disputed, so the players can no longer change it; only the organiser "
        "changes it now.",
        "Резултатът е оспорен, затова играчите вече не могат да го променят; сега само "
        "организаторът може да го промени.",
    ),
    "seat_not_held": (
        "This phone no longer holds a seat in this match",
        "Този телефон вече не заема място в този мач",
    ),
}


def sentence(code: str, language: str, **names) -> str:
    return SENTENCES[code][language == "bg"].format(**names)


@pytest.fixture
def token(match) -> str:
    return table_entry.table_of(match).token


def browser(language="en", address="127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.cookies["django_language"] = language
    return client


def sit(client: Client, token: str, seat: str):
    return client.post(f"/p/{token}/seat/", {"seat": seat})


def phone(token: str, seat: str, language="en", address="127.0.0.1") -> Client:
    client = browser(language, address)
    assert sit(client, token, seat).status_code == 302
    return client


def text(response) -> str:
    return response.content.decode()


def table(match) -> MatchTable:
    return MatchTable.objects.get(match=match)


def written(match) -> tuple:
    """What a refusal must leave as it was: the deals, the table's sign-off and seats, the
    number of table events."""
    row = table(match)
    deals = list(match.deals.order_by("number").values_list("number", "winner", "game_points"))
    return (deals, row.signed_a, row.signed_b, row.disputed_by, row.holder_a, row.holder_b,
            MatchEvent.objects.filter(match=match).count())


def deal(number: int, winner: str, points: int = 3) -> dict:
    reason = {1: "won", 2: "schneider", 3: "capot"}[points]
    return {"number": number, "winner": winner, "reason": reason, "game_points": points}


# --- a seat is held by one browser ---------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_first_browser_holds_the_seat_and_another_is_refused(language, match, token):
    first = phone(token, "A", language)
    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) >= 32  # 24 random bytes, URL-safe: 192 bits
    assert cookie["path"] == "/p/" and cookie["httponly"] and cookie["samesite"] == "Lax"
    held = table(match)
    assert held.holder_a == hashlib.sha256(cookie.value.encode()).hexdigest()
    assert cookie.value not in json.dumps(list(MatchTable.objects.values()), default=str)
    before = written(match)
    second = browser(language)
    response = sit(second, token, "A")
    assert response.status_code == 409
    assert sentence("seat_taken", language, name=match.player_a.name) in text(response)
    assert written(match) == before
    assert DEVICE_COOKIE not in response.cookies  # nothing given on a refusal
    # Its "Who are you?" marks the seat taken; the free one can still be taken.
    page = text(second.get(f"/p/{token}/"))
    assert 'value="A" class="primary big" disabled' in page
    assert 'value="B" class="primary big">' in page
    assert sit(second, token, "B").status_code == 302
    assert table(match).holder_b not in ("", held.holder_a)


@pytest.mark.parametrize("language", ["en", "bg"])
def test_one_browser_cannot_hold_both_seats(language, match, token):
    client = phone(token, "A", language)
    before = written(match)
    response = sit(client, token, "B")
    assert response.status_code == 409
    assert sentence("seat_other_held", language, name=match.player_a.name) in text(response)
    assert written(match) == before and table(match).holder_b == ""
    # Taking its own seat again changes nothing.
    assert sit(client, token, "A").status_code == 302
    assert written(match) == before


def test_a_browser_without_a_seat_is_asked_who_it_is_and_its_posts_do_nothing(match, token):
    phone(token, "A")
    stranger = browser()
    assert "Who are you?" in text(stranger.get(f"/p/{token}/"))
    response = stranger.post(f"/p/{token}/deal/", deal(1, "B"))
    assert response.status_code == 302 and response["Location"] == f"/p/{token}/"
    answer = stranger.post(f"/p/{token}/deal/sync/", deal(1, "B"), HTTP_ACCEPT="application/json")
    assert answer.status_code == 409
    assert answer.json()["message"].startswith(sentence("seat_not_held", "en"))
    assert match.deals.count() == 0


def test_the_organiser_frees_a_seat_from_the_match_page_and_another_browser_takes_it(
        match, token, organiser, organiser_client):
    lost = phone(token, "A")
    lost_device = table(match).holder_a
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(reverse("matches:seat_free", args=[match.pk, "A"]))
    assert response.status_code == 302
    assert table(match).holder_a == ""
    freed = MatchEvent.objects.get(match=match, kind="freed")
    assert (freed.seat, freed.user, freed.device) == ("A", organiser, lost_device[:8])
    page = text(organiser_client.get(response["Location"]))
    assert f"The seat of {match.player_a.name} is free" in page
    # The lost phone holds nothing now; a new one takes the seat and enters.
    assert "Who are you?" in text(lost.get(f"/p/{token}/"))
    new = phone(token, "A")
    assert new.post(f"/p/{token}/deal/", deal(1, "A")).status_code == 302
    assert lost.post(f"/p/{token}/deal/", deal(2, "A")).status_code == 302  # to "Who are you?"
    assert match.deals.count() == 1
    # Freeing a free seat writes nothing.
    events = MatchEvent.objects.count()
    organiser_client.post(reverse("matches:seat_free", args=[match.pk, "B"]))
    assert MatchEvent.objects.count() == events


def test_the_organiser_frees_a_seat_from_the_control_room(started, match, token,
                                                          organiser_client):
    phone(token, "A")
    phone(token, "B")
    room = reverse("control:room", args=[started.pk])
    organiser_client.cookies["django_language"] = "en"
    page = text(organiser_client.get(room))
    free_b = reverse("control:seat_free", args=[started.pk, match.pk, "B"])
    assert f'action="{free_b}"' in page and f"Free {match.player_b.name}'s seat" in page
    response = organiser_client.post(free_b, {"idle": "15"})
    assert response.status_code == 302 and response["Location"] == f"{room}?idle=15"
    assert (table(match).holder_a != "", table(match).holder_b) == (True, "")
    assert f'action="{free_b}"' not in text(organiser_client.get(room))
    assert sit(browser(), token, "B").status_code == 302


def test_an_outsider_cannot_free_a_seat(started, match, token, outsider_client):
    phone(token, "A")
    before = written(match)
    assert outsider_client.post(
        reverse("matches:seat_free", args=[match.pk, "A"])).status_code in (403, 404)
    assert outsider_client.post(
        reverse("control:seat_free", args=[started.pk, match.pk, "A"])).status_code in (403, 404)
    anonymous = Client().post(reverse("matches:seat_free", args=[match.pk, "A"]))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert written(match) == before


def test_freeing_needs_a_post_and_a_seat(started, match, token, organiser_client):
    phone(token, "A")
    before = written(match)
    assert organiser_client.get(
        reverse("matches:seat_free", args=[match.pk, "A"])).status_code == 405
    assert organiser_client.get(
        reverse("control:seat_free", args=[started.pk, match.pk, "A"])).status_code == 405
    assert organiser_client.post(
        reverse("matches:seat_free", args=[match.pk, "C"])).status_code == 404
    csrf = Client(enforce_csrf_checks=True)
    csrf.force_login(started.organisers.get())
    assert csrf.post(reverse("matches:seat_free", args=[match.pk, "A"])).status_code == 403
    assert written(match) == before


def test_a_seat_taken_leaves_the_other_phone_be_and_a_seat_freed_asks_its_phone_again(
        match, token, organiser):
    """Taking a seat moves no version on (the other phone, maybe filling in a deal, fetches
    nothing); freeing one does, and the live part of the phone that held it answers with a
    reload, which asks "Who are you?"."""
    seat_a = phone(token, "A")
    version = Match.objects.get(pk=match.pk).version
    with committed():
        phone(token, "B")
    assert Match.objects.get(pk=match.pk).version == version
    with committed():
        table_entry.seat_free(match=match, seat="A", by=organiser)
    assert Match.objects.get(pk=match.pk).version > version
    part = seat_a.get(f"/p/{token}/", HTTP_HX_REQUEST="true")
    assert (part.status_code, part["HX-Refresh"], part.content) == (200, "true", b"")
    assert "Who are you?" in text(seat_a.get(f"/p/{token}/"))


def test_renewing_the_link_frees_both_seats(match, token, organiser_client):
    phone(token, "A")
    phone(token, "B")
    assert organiser_client.post(reverse("matches:link_renew", args=[match.pk])).status_code == 302
    assert (table(match).holder_a, table(match).holder_b) == ("", "")
    new = table(match).token
    assert sit(browser(), new, "A").status_code == 302


def test_under_players_trusted_only_the_seat_changes(started, match, token):
    set_mode(started, EntryMode.PLAYERS_TRUSTED)
    seat_a = phone(token, "A")
    assert sit(browser(), token, "A").status_code == 409
    for number, winner in enumerate("AAB", start=1):
        assert seat_a.post(f"/p/{token}/deal/", deal(number, winner)).status_code == 302
    assert seat_a.post(f"/p/{token}/undo/", {"number": 3}).status_code == 302
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.deals.count()) == (6, 0, 2)


# --- the sore loser ------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_loser_cannot_change_a_result_the_winner_has_signed(language, match, token):
    winner, loser = phone(token, "A", language), phone(token, "B", language)
    for number in (1, 2, 3, 4):
        assert winner.post(f"/p/{token}/deal/", deal(number, "A")).status_code == 302
    assert winner.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302
    signed_at = table(match).signed_a
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (12, 0, "finished")
    before = written(match)
    signed = sentence("result_signed", language)

    # Undo the deciding deal, then enter deals 4 to 7 for himself: refused, online and offline.
    response = loser.post(f"/p/{token}/undo/", {"number": 4})
    assert response.status_code == 409 and signed in text(response)
    for number in (4, 5):
        response = loser.post(f"/p/{token}/deal/", deal(number, "B"))
        assert response.status_code == 409 and signed in text(response)
        answer = loser.post(f"/p/{token}/deal/sync/", deal(number, "B"),
                            HTTP_ACCEPT="application/json")
        assert answer.status_code == 409
        assert answer.json()["result"] == "refused" and answer.json()["message"] == signed
    # Sign as A on this phone, or take seat A on a cleared browser: refused.
    assert loser.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 403
    cleared = browser(language)
    response = sit(cleared, token, "A")
    assert response.status_code == 409
    assert sentence("seat_taken", language, name=match.player_a.name) in text(response)
    assert cleared.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302  # no seat
    assert written(match) == before
    assert table(match).signed_a == signed_at

    # The winner's page offers no undo and no "Sign"; the loser's no undo, but "Sign".
    winner_page = text(winner.get(f"/p/{token}/"))
    assert f'action="/p/{token}/undo/"' not in winner_page
    assert f'action="/p/{token}/sign/"' not in winner_page
    loser_page = text(loser.get(f"/p/{token}/"))
    assert f'action="/p/{token}/undo/"' not in loser_page
    assert f'action="/p/{token}/sign/"' in loser_page

    # What the loser can do: dispute. The winner's signature stays; the organiser settles it.
    response = loser.post(f"/p/{token}/dispute/", {"text": "deal 4 was mine"})
    assert response.status_code == 302
    after = table(match)
    assert (after.disputed_by, after.signed_a) == ("B", signed_at)
    assert table_entry.result_state(match, EntryMode.PLAYERS_SIGN, after) == "disputed"
    loser_page = text(loser.get(f"/p/{token}/"))
    assert f'action="/p/{token}/sign/"' not in loser_page
    assert f'action="/p/{token}/dispute/"' not in loser_page
    assert f'action="/p/{token}/undo/"' not in loser_page
    response = loser.post(f"/p/{token}/sign/", {"seat": "B"})
    assert response.status_code == 409 and sentence("result_disputed", language) in text(response)
    response = loser.post(f"/p/{token}/undo/", {"number": 4})
    assert response.status_code == 409
    assert match.deals.count() == 4 and table(match).signed_b is None


def test_a_dispute_alone_stops_the_phones_too(match, token):
    enter(match, "A3 A3 A3 A3")
    winner, loser = phone(token, "A"), phone(token, "B")
    assert loser.post(f"/p/{token}/dispute/", {"text": "deal 2 was mine"}).status_code == 302
    before = written(match)
    for client in (winner, loser):
        response = client.post(f"/p/{token}/undo/", {"number": 4})
        assert response.status_code == 409
        assert sentence("result_disputed", "en") in text(response)
    assert written(match) == before
    assert winner.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302  # he agrees


def test_the_organisers_correction_clears_the_signatures_and_the_history_says_so(
        match, token, organiser, organiser_client):
    winner, loser = phone(token, "A"), phone(token, "B")
    enter(match, "A3 A3 A3 A3")
    assert winner.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302
    response = organiser_client.post(reverse("matches:deal_undo", args=[match.pk]),
                                     {"number": 4})
    assert response.status_code == 302
    after = table(match)
    assert (after.signed_a, after.signed_b, match.deals.count()) == (None, None, 3)
    cleared = MatchEvent.objects.get(match=match, kind="cleared")
    assert cleared.user == organiser
    organiser_client.cookies["django_language"] = "en"
    page = text(organiser_client.get(reverse("matches:entry", args=[match.pk])))
    assert "Signatures cleared: the result changed" in page
    # The match is open again: the players play on from 9:0.
    assert loser.post(f"/p/{token}/deal/", deal(4, "B")).status_code == 302
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (9, 3)


def test_a_correction_to_another_score_with_the_same_winner_clears_the_signatures(
        match, token, organiser, organiser_client):
    """12:0 signed by both; the organiser corrects deal 4 from a capot (3) to a schneider (2):
    11:0, the same winner, but not the score they signed."""
    enter(match, "A3 A3 A3 A3")
    assert phone(token, "A").post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302
    assert phone(token, "B").post(f"/p/{token}/sign/", {"seat": "B"}).status_code == 302
    assert table(match).is_final
    response = organiser_client.post(reverse("matches:deal_correct", args=[match.pk, 4]), {
        "winner": "A", "reason": "schneider", "correction_reason": "loser had 31"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.winner, match.game_points_a, match.game_points_b) == ("A", 11, 0)
    after = table(match)
    assert (after.signed_a, after.signed_b, after.is_final) == (None, None, False)
    assert MatchEvent.objects.get(match=match, kind="cleared").user == organiser


def test_a_correction_that_keeps_the_score_keeps_the_signatures(match, token,
                                                                organiser_client):
    """Deal 4 corrected from one capot to the same capot: 12:0 as signed."""
    enter(match, "A3 A3 A3 A3")
    phone(token, "A").post(f"/p/{token}/sign/", {"seat": "A"})
    phone(token, "B").post(f"/p/{token}/sign/", {"seat": "B"})
    organiser_client.post(reverse("matches:deal_correct", args=[match.pk, 4]), {
        "winner": "A", "reason": "capot", "correction_reason": "checked again"})
    assert table(match).is_final
    assert not MatchEvent.objects.filter(match=match, kind="cleared").exists()


# --- only the holder acts for a seat -------------------------------------------------------


def test_the_services_refuse_a_device_that_does_not_hold_the_seat(match, token):
    phone(token, "A")
    holder = table(match).holder_a
    stranger = table_entry.device_hash(table_entry.new_device_id())
    with pytest.raises(TableError) as entering:
        table_entry.table_deal_enter(match=match, seat="A", score=quick("A3"), number=1,
                                     device=stranger)
    with pytest.raises(TableError) as for_free_seat:
        table_entry.table_deal_enter(match=match, seat="B", score=quick("A3"), number=1,
                                     device=holder)
    assert (entering.value.code, for_free_seat.value.code) == ("seat_not_held",
                                                               "seat_not_held")
    assert match.deals.count() == 0
    table_entry.table_deal_enter(match=match, seat="A", score=quick("A3"), number=1,
                                 device=holder)
    assert match.deals.count() == 1


def test_under_confirm_each_a_browser_never_confirms_its_own_deal(started, match, token,
                                                                 organiser):
    """Even after the organiser freed its seat and it took the other one, the browser that
    entered the pending deal cannot confirm it; the browser holding the other seat can."""
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    author = phone(token, "A")
    assert author.post(f"/p/{token}/deal/", deal(1, "A", 2)).status_code == 302
    assert table(match).pending["device"] == table(match).holder_a
    table_entry.seat_free(match=match, seat="A", by=organiser)
    assert sit(author, token, "B").status_code == 302  # now seat B's browser
    response = author.post(f"/p/{token}/confirm/", {"number": 1})
    assert response.status_code == 409
    assert "You entered deal 1 yourself; your opponent confirms it." in text(response)
    assert match.deals.count() == 0 and table(match).pending is not None
    table_entry.seat_free(match=match, seat="B", by=organiser)
    opponent = phone(token, "B")
    assert opponent.post(f"/p/{token}/confirm/", {"number": 1}).status_code == 302
    assert list(match.deals.values_list("winner", "game_points")) == [("A", 2)]


# --- the history ---------------------------------------------------------------------------


def test_the_history_names_the_seat_the_address_and_the_phone_never_its_id(
        match, token, organiser, organiser_client):
    seat_a = phone(token, "A", address="192.0.2.10")
    seat_b = phone(token, "B", address="192.0.2.20")
    seat_a.post(f"/p/{token}/deal/", deal(1, "A"))
    seat_b.post(f"/p/{token}/undo/", {"number": 1})
    for number in (1, 2, 3, 4):
        seat_a.post(f"/p/{token}/deal/", deal(number, "A"))
    seat_a.post(f"/p/{token}/sign/", {"seat": "A"})
    seat_b.post(f"/p/{token}/dispute/", {"text": "deal 3 was mine"})
    table_entry.seat_free(match=match, seat="B", by=organiser, address="192.0.2.1")
    label_a, label_b = (hashlib.sha256(client.cookies[DEVICE_COOKIE].value.encode())
                        .hexdigest()[:8] for client in (seat_a, seat_b))
    steps = list(MatchEvent.objects.filter(match=match).values_list(
        "kind", "seat", "address", "device"))
    assert steps == [
        ("claimed", "A", "192.0.2.10", label_a), ("claimed", "B", "192.0.2.20", label_b),
        ("deal", "A", "192.0.2.10", label_a), ("undo", "B", "192.0.2.20", label_b),
        *[("deal", "A", "192.0.2.10", label_a)] * 4,
        ("signed", "A", "192.0.2.10", label_a), ("disputed", "B", "192.0.2.20", label_b),
        ("freed", "B", "192.0.2.1", label_b),
    ]
    organiser_client.cookies["django_language"] = "en"
    page = text(organiser_client.get(reverse("matches:entry", args=[match.pk])))
    a, b = match.player_a.name, match.player_b.name
    assert f"{a} (seat A) · 192.0.2.10 · phone {label_a}" in page
    assert f"{b} (seat B) · 192.0.2.20 · phone {label_b}" in page
    assert f"Seat freed by the organiser · {b} (seat B) · phone {label_b}" in page
    assert page.count("Seat taken") == 2
    for client in (seat_a, seat_b):
        device_id = client.cookies[DEVICE_COOKIE].value
        assert device_id not in page
        assert table_entry.device_hash(device_id) not in page


# --- the control room's mark ---------------------------------------------------------------


def test_two_browsers_signing_from_one_address_are_marked_until_approved(
        started, match, token, organiser_client):
    enter(match, "A3 A3 A3 A3")
    seat_a, seat_b = phone(token, "A", address="10.0.0.9"), phone(token, "B", address="10.0.0.9")
    seat_a.post(f"/p/{token}/sign/", {"seat": "A"})
    seat_b.post(f"/p/{token}/sign/", {"seat": "B"})
    assert table(match).is_final and table(match).signed_alike == "address"
    organiser_client.cookies["django_language"] = "en"
    room = reverse("control:room", args=[started.pk])
    page = text(organiser_client.get(room))
    note = "Both signatures came from one address: check the result with both players"
    assert page.count(note) == 1
    row = page[page.index(f'data-match="{match.pk}"'):]
    row = row[:row.index("</li>")]
    assert note in row and "Approve the result" in row
    assert note in text(organiser_client.get(reverse("matches:entry", args=[match.pk])))
    approve = reverse("control:approve", args=[started.pk, match.pk])
    assert organiser_client.post(approve).status_code == 302
    assert table(match).approved_at is not None
    assert note not in text(organiser_client.get(room))


def test_two_browsers_signing_from_two_addresses_are_not_marked(started, match, token,
                                                                organiser_client):
    enter(match, "A3 A3 A3 A3")
    phone(token, "A", address="10.0.0.7").post(f"/p/{token}/sign/", {"seat": "A"})
    phone(token, "B", address="10.0.0.8").post(f"/p/{token}/sign/", {"seat": "B"})
    assert table(match).is_final and table(match).signed_alike == ""
    page = text(organiser_client.get(reverse("control:room", args=[started.pk])))
    assert "Both signatures came from" not in page
    approve = reverse("control:approve", args=[started.pk, match.pk])
    assert organiser_client.post(approve).status_code == 409


def test_one_browser_signing_both_seats_in_turn_is_marked_one_phone(
        started, match, token, organiser, organiser_client):
    enter(match, "A3 A3 A3 A3")
    same = phone(token, "A", address="10.0.0.7")
    phone(token, "B", address="10.0.0.8")
    same.post(f"/p/{token}/sign/", {"seat": "A"}, REMOTE_ADDR="10.0.0.7")
    for seat in "AB":  # asked to, the organiser frees both seats
        table_entry.seat_free(match=match, seat=seat, by=organiser)
    assert sit(same, token, "B").status_code == 302
    same.post(f"/p/{token}/sign/", {"seat": "B"}, REMOTE_ADDR="10.0.0.8")
    assert table(match).signed_alike == "device"
    organiser_client.cookies["django_language"] = "bg"
    page = text(organiser_client.get(reverse("control:room", args=[started.pk])))
    assert "И двата подписа са дадени от един телефон" in page


def test_a_club_night_keeps_a_marked_result_in_the_room(organiser, organiser_client,
                                                       home_club, players):
    """A club night's room lists only its matches not over, yet a result signed from one
    address stays, first, until approved."""
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Петък", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    playing = club_nights.club_night_pair(night=night, player_a=players[0],
                                          player_b=players[1], table=1, by=organiser).match
    done = club_nights.club_night_pair(night=night, player_a=players[2], player_b=players[3],
                                       table=2, by=organiser).match
    enter(done, "A3 A3 A3 A3")
    for seat in "AB":
        table_entry.result_sign(match=done, seat=seat, address="10.0.0.7")
    organiser_client.cookies["django_language"] = "en"
    url = reverse("control:room", args=[night.pk])
    page = text(organiser_client.get(url))
    rows = [int(pk) for pk in re.findall(r'class="control-row[^"]*" data-match="(\d+)"', page)]
    assert rows == [done.pk, playing.pk]
    table_entry.result_approve(match=done, by=organiser)
    page = text(organiser_client.get(url))
    assert f'data-match="{done.pk}"' not in page


# --- every new refusal has its Bulgarian sentence ------------------------------------------


@pytest.mark.parametrize("code", ["result_signed", "result_disputed", "seat_taken",
                                  "seat_other_held", "seat_not_held"])
def test_each_refusal_about_seats_and_signatures_is_said_in_bulgarian(code):
    params = {"name": "Иван"}
    with translation.override("bg"):
        bulgarian = str(TableError.messages[code]) % params
    with translation.override("en"):
        english = str(TableError.messages[code]) % params
    assert bulgarian != english
    assert sentence(code, "bg", name="Иван") in bulgarian
    assert sentence(code, "en", name="Иван") in english

