"""The players' pages (`players:`, /p/<token>/): every refusal answers 4xx with the sentence in
the user's language and writes nothing; a wrong token is 404 whatever it is; 30 wrong tokens
from one address answer 429; the token opens no organiser page; CSRF stays on."""


import pytest
from django.test import Client
from django.urls import reverse

from events.models import EntryMode, Pairing
from scoring.models import Match
from tableside import table_entry
from tableside.models import MatchEvent, MatchTable
from tests.commits import committed
from tests.tableside.test_table_entry import enter, quick, set_mode

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_cache")]


@pytest.fixture
def token(match) -> str:
    return table_entry.table_of(match).token


def browser(language="en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def phone(token, seat, language="en") -> Client:
    client = browser(language)
    response = client.post(f"/p/{token}/seat/", {"seat": seat})
    assert response.status_code == 302
    return client


def text(response) -> str:
    return response.content.decode()


def test_the_first_visit_asks_who_you_are(match, token):
    response = browser().get(f"/p/{token}/")
    assert response.status_code == 200
    page = text(response)
    assert "Who are you?" in page
    assert match.player_a.name in page and match.player_b.name in page


def test_the_seat_is_remembered_and_a_deal_entered(match, token):
    client = phone(token, "A")
    page = text(client.get(f"/p/{token}/"))
    assert f"This phone: {match.player_a.name}" in page
    response = client.post(f"/p/{token}/deal/", {"number": 1, "winner": "A",
                                                 "reason": "schneider", "game_points": 2})
    assert response.status_code == 302
    assert match.deals.get().game_points == 2
    event = MatchEvent.objects.get(match=match, kind="deal")
    assert (event.kind, event.seat, event.address) == ("deal", "A", "127.0.0.1")


def test_the_saved_deal_is_told_in_the_score_once(match, token):
    """"Deal 1 saved." in the score's last line (which stays in view), not above the page; the
    page drawn again (a poll, a reload) no longer says it."""
    client = phone(token, "A")
    client.post(f"/p/{token}/deal/", {"number": 1, "winner": "A", "reason": "schneider",
                                      "game_points": 2})
    page = text(client.get(f"/p/{token}/"))
    notice = '<span class="message success board-notice" role="status">Deal 1 saved.</span>'
    assert page.count("Deal 1 saved.") == 1 and notice in page
    assert page.index('class="scoreboard') < page.index(notice) < page.index("Game to 11")
    assert 'class="messages"' not in page
    assert "Deal 1 saved." not in text(client.get(f"/p/{token}/"))


@pytest.mark.parametrize("bad", ["A" * 32, "a-well-formed-token-of-no-match", "B" * 64])
def test_a_wrong_token_is_404_without_a_hint(bad, match):
    response = browser().get(f"/p/{bad}/")
    assert response.status_code == 404
    assert "No such match link" in text(response)
    assert match.player_a.name not in text(response)


def test_a_revoked_link_is_410_and_another_matchs_token_opens_only_its_match(
        started, match, token, organiser_client):
    other = Pairing.objects.get(round__tournament=started, round__number=1, table=2).match
    other_token = table_entry.table_of(other).token
    assert match.player_a.name not in text(Client().get(f"/p/{other_token}/"))
    response = organiser_client.post(reverse("matches:link_renew", args=[match.pk]))
    assert response.status_code == 302
    assert Client().get(f"/p/{token}/").status_code == 410
    new = MatchTable.objects.get(match=match).token
    assert Client().get(f"/p/{new}/").status_code == 200


def test_a_seat_chosen_under_the_old_link_is_forgotten(match, token, organiser):
    client = phone(token, "A")
    new = table_entry.link_renew(match=match, by=organiser).token
    assert "Who are you?" in text(client.get(f"/p/{new}/"))
    table = MatchTable.objects.get(match=match)
    assert (table.holder_a, table.holder_b) == ("", "")  # renewing freed the seats


def test_thirty_wrong_tokens_then_429_but_the_right_link_still_opens(token):
    client = Client()
    for attempt in range(30):
        assert client.get(f"/p/a-wrong-token-number-{attempt:02d}/").status_code == 404
    assert client.get("/p/a-wrong-token-once-again/").status_code == 429
    assert client.get(f"/p/{token}/").status_code == 200


def test_the_token_opens_no_organiser_page(match, token):
    client = phone(token, "A")
    assert client.get(reverse("matches:entry", args=[match.pk])).status_code in (200, 404)
    response = client.post(reverse("matches:deal_add", args=[match.pk]),
                           {"number": 1, "winner": "A", "reason": "won", "game_points": 1})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert match.deals.count() == 0


def test_csrf_stays_on(match, token):
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"/p/{token}/seat/", {"seat": "A"})
    assert response.status_code == 403


def test_under_organiser_mode_the_link_is_404(started, token):
    set_mode(started, EntryMode.ORGANISER)
    assert Client().get(f"/p/{token}/").status_code == 404


# Refusals: status, sentence in both languages (with its numbers), nothing written.

SENTENCES = {
    "sign_before_end": (
        "The match is not over yet (3:0, the game is to 11)",
        "Мачът още не е свършил (3:0, играе се до 11)",
    ),
    "sign_twice": (
        "You have already signed the result 11:0.",
        "Вече сте подписали резултата 11:0.",
    ),
    "sign_other_seat": ("each player signs for themselves", "всеки играч подписва сам"),
    "result_final": ("The result is final", "Резултатът е окончателен"),
    "confirm_own_deal": ("You entered deal 1 yourself", "Вие въведохте раздаване 1"),
}


@pytest.mark.parametrize("language", ["en", "bg"])
def test_signing_before_the_end_is_refused(language, match, token):
    enter(match, "A3")
    client = phone(token, "A", language)
    response = client.post(f"/p/{token}/sign/", {"seat": "A"})
    assert response.status_code == 409
    assert SENTENCES["sign_before_end"][language == "bg"] in text(response)
    assert MatchTable.objects.get(match=match).signed_a is None


@pytest.mark.parametrize("language", ["en", "bg"])
def test_signing_twice_is_refused(language, match, token):
    enter(match, "A3 A3 A2 A3")
    client = phone(token, "A", language)
    assert client.post(f"/p/{token}/sign/", {"seat": "A"}).status_code == 302
    response = client.post(f"/p/{token}/sign/", {"seat": "A"})
    assert response.status_code == 409
    assert SENTENCES["sign_twice"][language == "bg"] in text(response)
    assert MatchEvent.objects.filter(kind="signed").count() == 1


def test_a_signature_is_said_once_with_the_score_then_final_once_both_signed(match, token):
    enter(match, "A3 A3 A2 A3")  # 3 + 3 + 2 + 3: A wins 11:0
    phone_a, phone_b = phone(token, "A"), phone(token, "B")
    page = text(phone_a.post(f"/p/{token}/sign/", {"seat": "A"}, follow=True))
    assert page.count("You signed the result") == 1
    assert "You signed the result 11:0. Waiting for your opponent's signature." in page
    page = text(phone_b.post(f"/p/{token}/sign/", {"seat": "B"}, follow=True))
    assert "You signed the result" not in page
    assert page.count("The result 11:0 is final.") == 1


@pytest.mark.parametrize("language", ["en", "bg"])
def test_signing_for_the_other_seat_is_refused(language, match, token):
    enter(match, "A3 A3 A2 A3")
    client = phone(token, "A", language)
    response = client.post(f"/p/{token}/sign/", {"seat": "B"})
    assert response.status_code == 403
    assert SENTENCES["sign_other_seat"][language == "bg"] in text(response)
    table = MatchTable.objects.get(match=match)
    assert (table.signed_a, table.signed_b) == (None, None)


@pytest.mark.parametrize("language", ["en", "bg"])
def test_disputing_a_final_match_is_refused(language, match, token):
    enter(match, "A3 A3 A2 A3")
    table_entry.result_sign(match=match, seat="A")
    table_entry.result_sign(match=match, seat="B")
    client = phone(token, "B", language)
    response = client.post(f"/p/{token}/dispute/", {"text": "no"})
    assert response.status_code == 409
    assert SENTENCES["result_final"][language == "bg"] in text(response)
    assert MatchTable.objects.get(match=match).dispute == ""
    response = client.post(f"/p/{token}/undo/", {"number": 4})
    assert response.status_code == 409 and match.deals.count() == 4


@pytest.mark.parametrize("language", ["en", "bg"])
def test_confirming_ones_own_deal_is_refused(language, started, match, token):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    client = phone(token, "A", language)
    client.post(f"/p/{token}/deal/", {"number": 1, "winner": "A", "reason": "capot",
                                      "game_points": 3})
    response = client.post(f"/p/{token}/confirm/", {"number": 1})
    assert response.status_code == 409
    assert SENTENCES["confirm_own_deal"][language == "bg"] in text(response)
    assert match.deals.count() == 0
    other = phone(token, "B", language)
    assert other.post(f"/p/{token}/confirm/", {"number": 1}).status_code == 302
    assert match.deals.get().game_points == 3


def test_the_entering_phone_cannot_confirm_for_the_other_seat(started, match, token):
    """The phone that entered a deal cannot confirm it "as the other seat" (no such button,
    and a post naming the other seat is its own seat's confirmation: refused); the phone
    holding the other seat confirms it."""
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    client = phone(token, "A")
    client.post(f"/p/{token}/deal/", {"number": 1, "winner": "B", "reason": "won",
                                      "game_points": 1})
    page = text(client.get(f"/p/{token}/"))
    assert f"I am {match.player_b.name}" not in page and 'name="as_seat"' not in page
    assert f"{match.player_b.name} confirms it on their own phone." in page
    response = client.post(f"/p/{token}/confirm/", {"number": 1, "as_seat": "B"})
    assert response.status_code == 409
    assert SENTENCES["confirm_own_deal"][0] in text(response)
    assert match.deals.count() == 0 and not MatchEvent.objects.filter(kind="confirmed").exists()
    other = phone(token, "B")
    assert other.post(f"/p/{token}/confirm/", {"number": 1}).status_code == 302
    assert match.deals.get().winner == "B"
    event = MatchEvent.objects.get(kind="confirmed")
    assert (event.seat, event.text) == ("B", "")
    assert event.device == MatchTable.objects.get(match=match).holder_b[:8]


def test_a_malformed_token_is_404_too():
    assert Client().get("/p/short/").status_code == 404
    assert Client().get("/p/" + "x" * 65 + "/").status_code == 404


def test_the_second_phone_entering_the_same_deal_is_told(match, token):
    first, second = phone(token, "A"), phone(token, "B")
    data = {"number": 1, "winner": "A", "reason": "won", "game_points": 1}
    assert first.post(f"/p/{token}/deal/", data).status_code == 302
    response = second.post(f"/p/{token}/deal/", {**data, "winner": "B"})
    assert response.status_code == 409
    assert "Deal 1 was already entered" in text(response)
    assert match.deals.count() == 1


def test_the_organiser_sees_the_link_the_state_and_who_did_what(match, token,
                                                                organiser_client):
    organiser_client.cookies["django_language"] = "en"
    table_entry.table_deal_enter(match=match, seat="B", score=quick("A3"), number=1,
                                 address="192.0.2.5")
    page = text(organiser_client.get(reverse("matches:entry", args=[match.pk])))
    assert f"/p/{token}/" in page
    assert f"{match.player_b.name} (seat B) · 192.0.2.5" in page


def test_the_organiser_approves_an_unsigned_result(match, token, organiser_client):
    organiser_client.cookies["django_language"] = "en"
    enter(match, "A3 A3 A2 A3")
    page = text(organiser_client.get(reverse("matches:entry", args=[match.pk])))
    assert "Provisional: the result 11:0 waits for the players" in page
    response = organiser_client.post(reverse("matches:result_approve", args=[match.pk]))
    assert response.status_code == 302
    assert MatchTable.objects.get(match=match).is_final


def test_the_round_page_marks_an_unsigned_result_provisional(started, match, token):
    enter(match, "A3 A3 A2 A3")
    url = reverse("events:round", args=[started.pk, 1])
    assert "provisional: not signed yet" in text(browser().get(url))
    table_entry.result_sign(match=match, seat="A")
    table_entry.result_sign(match=match, seat="B")
    assert "provisional: not signed yet" not in text(browser().get(url))


# --- the players' page is live -----------------------------------------------------------------

PART = {"HTTP_HX_REQUEST": "true"}


def test_the_players_page_follows_its_match_and_its_part_shows_the_other_phones_deal(
        match, token):
    client = phone(token, "B")
    page = text(client.get(f"/p/{token}/"))
    assert f'sse-connect="/p/{token}/live/?v=' in page
    assert 'id="players-live" data-live' in page and 'hx-trigger="sse:changed"' in page
    version = Match.objects.get(pk=match.pk).version
    with committed():
        enter(match, "A3")  # the phone of seat A enters deal 1
    assert Match.objects.get(pk=match.pk).version > version  # the stream says changed
    part = client.get(f"/p/{token}/", **PART)
    assert part.status_code == 200 and "+3" in text(part) and "<html" not in text(part)
    enter(match, "A3 A3 A2", start=2)  # 11:0: the match waits for the signatures
    version = Match.objects.get(pk=match.pk).version
    with committed():
        table_entry.result_sign(match=match, seat="A", address="10.0.0.7")
    assert Match.objects.get(pk=match.pk).version > version


def test_each_seat_sees_its_own_part(match, token):
    enter(match, "A3 A3 A3 A2")
    seat_a = text(phone(token, "A").get(f"/p/{token}/", **PART))
    seat_b = text(phone(token, "B").get(f"/p/{token}/", **PART))
    assert seat_a != seat_b

