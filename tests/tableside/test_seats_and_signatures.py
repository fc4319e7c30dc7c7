"""Once a player has signed, the phones change nothing (tableside/table_entry.py,
tableside/views/players.py): each Django test `Client` below is one browser, with its own
cookies.

Scores are worked out by hand: "A3 A3 A3 A3" is 3+3+3+3 = 12:0 for seat A after deal 4, past
the target of 11 (9:0 after deal 3, so deal 4 decides the match); seat B winning deals 4 to 7
with 3 each after an undo of deal 4 would make it 9:12.
"""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from events.models import EntryMode
from tableside import table_entry
from tableside.errors import TableError
from tableside.models import MatchEvent, MatchTable
from tests.tableside.test_table_entry import enter

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]

SENTENCES = {
    "result_signed": (
        "The result is signed, so the players can no longer change it; only the organiser "
        "changes it now.",
        "Резултатът е подписан, затова играчите вече не могат да го променят; сега само "
        "организаторът може да го промени.",
    ),
    "result_disputed": (
        "The result is disputed, so the players can no longer change it; only the organiser "
        "changes it now.",
        "Резултатът е оспорен, затова играчите вече не могат да го променят; сега само "
        "организаторът може да го промени.",
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
    """What a refusal must leave as it was: the deals, the table's sign-off, the number of
    table events."""
    row = table(match)
    deals = list(match.deals.order_by("number").values_list("number", "winner", "game_points"))
    return (deals, row.signed_a, row.signed_b, row.disputed_by,
            MatchEvent.objects.filter(match=match).count())


def deal(number: int, winner: str, points: int = 3) -> dict:
    reason = {1: "won", 2: "schneider", 3: "capot"}[points]
    return {"number": number, "winner": winner, "reason": reason, "game_points": points}


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
    # Sign as A on this phone: refused.
    assert loser.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 403
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


# --- every new refusal has its Bulgarian sentence ------------------------------------------


@pytest.mark.parametrize("code", ["result_signed", "result_disputed"])
def test_each_refusal_about_signatures_is_said_in_bulgarian(code):
    params = {"name": "Иван"}
    with translation.override("bg"):
        bulgarian = str(TableError.messages[code]) % params
    with translation.override("en"):
        english = str(TableError.messages[code]) % params
    assert bulgarian != english
    assert sentence(code, "bg", name="Иван") in bulgarian
    assert sentence(code, "en", name="Иван") in english

