"""Offline entry, the server's side: a deal sent again under its deal number is stored once
(`scoring.services.deal_record`, `deal_is_same`), a different deal under a stored number is a
conflict answered with the stored version, and the JSON answers of the two sync addresses
(`matches:deal_sync`, `players:deal_sync`; `tableside.offline_sync`). Also the service
worker, the manifest and what the match pages give the offline script."""

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from events.models import EntryMode
from scoring import rules, services
from scoring.errors import RecordingError
from scoring.models import Deal
from tableside import table_entry
from tableside.models import MatchEvent, MatchTable
from tests.tableside.test_table_entry import set_mode

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = pytest.mark.django_db


def deals(match) -> list[tuple]:
    return list(match.deals.order_by("number").values_list("number", "winner", "game_points",
                                                           "reason"))


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def phone(token: str, seat: str) -> Client:
    client = english(Client())
    assert client.post(f"/p/{token}/seat/", {"seat": seat}).status_code == 302
    return client


def answer(response) -> dict:
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


# ---- the service ---------------------------------------------------------------------------


def test_the_same_deal_sent_again_is_stored_once(match, organiser):
    won_a = rules.quick_result("A", 1, "won")
    schneider_b = rules.quick_result("B", 2, "schneider")
    services.deal_record(match=match, score=won_a, by=organiser, number=1)
    services.deal_record(match=match, score=schneider_b, by=organiser, number=2)
    again = services.deal_record(match=match, score=won_a, by=organiser, number=1)
    assert again.already_stored and again.number == 1
    match.refresh_from_db()
    assert deals(match) == [(1, "A", 1, "won"), (2, "B", 2, "schneider")]
    assert (match.game_points_a, match.game_points_b) == (1, 2)
    assert Deal.history.filter(match_id=match.pk).count() == 2  # nothing written again


def test_a_different_deal_under_a_stored_number_is_still_refused(match, organiser):
    services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=organiser,
                         number=1)
    with pytest.raises(RecordingError) as refused:
        services.deal_record(match=match, score=rules.quick_result("A", 3, "capot"),
                             by=organiser, number=1)
    assert refused.value.code == "deal_already_entered"
    assert deals(match) == [(1, "A", 1, "won")]


def test_card_points_that_differ_make_a_different_deal(match, organiser):
    record = rules.DealRecord(end="claim", card_points={"A": 70, "B": 30},
                              marriage_points={"A": 0, "B": 0}, tricks={"A": 5, "B": 3},
                              claim_by="A")
    other = rules.DealRecord(end="claim", card_points={"A": 72, "B": 28},
                             marriage_points={"A": 0, "B": 0}, tricks={"A": 5, "B": 3},
                             claim_by="A")
    score = rules.score_deal(record, match.house_rules())  # A claims, B has 30 < 33: 2
    services.deal_record(match=match, score=score, details=record, by=organiser, number=1)
    assert services.deal_record(match=match, score=score, details=record, by=organiser,
                                number=1).already_stored
    # The quick result alone (what an offline phone sends) is the same deal too.
    assert services.deal_record(match=match, score=score, by=organiser, number=1).already_stored
    # The same result (B has 28 < 33: 2) from other card points is another deal.
    other_score = rules.score_deal(other, match.house_rules())
    assert (other_score.winner, other_score.game_points) == (score.winner, score.game_points)
    with pytest.raises(RecordingError):
        services.deal_record(match=match, score=other_score, details=other, by=organiser,
                             number=1)
    assert deals(match) == [(1, "A", 2, "schneider")]


# ---- the organiser's form and sync address -------------------------------------------------


def test_the_organisers_form_sent_twice_says_already_stored(organiser_client, match):
    english(organiser_client)
    url = reverse("matches:deal_add", args=[match.pk])
    data = {"number": 1, "winner": "B", "reason": "capot"}
    assert organiser_client.post(url, data).status_code == 302
    second = organiser_client.post(url, data, follow=True)
    assert second.status_code == 200
    assert "Deal 1 was already stored." in second.content.decode()
    assert deals(match) == [(1, "B", 3, "capot")]


def test_the_organisers_queue_is_stored_once_and_in_order(organiser_client, match):
    url = reverse("matches:deal_sync", args=[match.pk])
    queue = [{"number": 1, "winner": "A", "reason": "capot"},       # 3:0
             {"number": 2, "winner": "B", "reason": "schneider"},   # 3:2
             {"number": 3, "draw": "1"}]                            # 3:2, a draw
    results = [answer(organiser_client.post(url, deal)) for deal in queue]
    assert [r["result"] for r in results] == ["stored", "stored", "stored"]
    assert [r["score"] for r in results] == [[3, 0], [3, 2], [3, 2]]
    assert results[-1]["next_number"] == 4
    # The answer to deal 2 was lost: the phone sends 2 and 3 again.
    again = [answer(organiser_client.post(url, deal)) for deal in queue[1:]]
    assert [r["result"] for r in again] == ["already_stored", "already_stored"]
    assert deals(match) == [(1, "A", 3, "capot"), (2, "B", 2, "schneider"), (3, "", 0, "draw")]


def test_a_conflict_answers_both_versions_and_writes_nothing(organiser_client, organiser,
                                                             match):
    english(organiser_client)
    services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=organiser,
                         number=1)
    response = organiser_client.post(reverse("matches:deal_sync", args=[match.pk]),
                                     {"number": 1, "winner": "B", "reason": "capot"})
    assert response.status_code == 409
    conflict = answer(response)
    assert conflict["result"] == "conflict"
    assert conflict["next_number"] == 2
    assert conflict["stored"] == {
        "number": 1, "winner_name": match.player_a.name, "game_points": 1,
        "reason_label": "66, loser 33 or more", "pending": False,
    }
    assert "Deal 1 was already entered by someone else" in conflict["message"]
    assert deals(match) == [(1, "A", 1, "won")]


def test_a_deal_after_the_end_is_refused_not_dropped(organiser_client, organiser, match):
    for number in range(1, 5):  # 3 + 3 + 3 + 3 = 12: A won
        services.deal_record(match=match, score=rules.quick_result("A", 3, "capot"),
                             by=organiser, number=number)
    response = organiser_client.post(reverse("matches:deal_sync", args=[match.pk]),
                                     {"number": 5, "winner": "B", "reason": "won"})
    assert response.status_code == 409
    assert answer(response)["result"] == "refused"
    assert len(deals(match)) == 4


def test_an_incomplete_deal_is_422_with_the_forms_message(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(reverse("matches:deal_sync", args=[match.pk]),
                                     {"number": 1, "winner": "A"})
    assert response.status_code == 422
    assert answer(response) == {"result": "refused", "number": "1",
                                "message": "This field is required."}
    assert deals(match) == []


def test_a_phone_logged_out_keeps_its_queue(match, outsider_client):
    url = reverse("matches:deal_sync", args=[match.pk])
    data = {"number": 1, "winner": "A", "reason": "won"}
    logged_out = english(Client()).post(url, data)
    assert (logged_out.status_code, answer(logged_out)["result"]) == (403, "login")
    other = outsider_client.post(url, data)
    assert (other.status_code, answer(other)["result"]) == (403, "refused")
    assert deals(match) == []


# ---- the players' sync address -------------------------------------------------------------


def test_a_players_resend_is_stored_once_and_logged_once(match):
    token = table_entry.table_of(match).token
    url = reverse("players:deal_sync", args=[token])
    a = phone(token, "A")
    first = answer(a.post(url, {"number": 1, "winner": "A", "reason": "schneider"}))
    again = answer(a.post(url, {"number": 1, "winner": "A", "reason": "schneider"}))
    assert (first["result"], first["score"]) == ("stored", [2, 0])
    assert (again["result"], again["score"]) == ("already_stored", [2, 0])
    assert deals(match) == [(1, "A", 2, "schneider")]
    assert MatchEvent.objects.filter(match=match, kind="deal").count() == 1


def test_the_other_phones_deal_under_the_same_number_is_a_conflict(match):
    token = table_entry.table_of(match).token
    url = reverse("players:deal_sync", args=[token])
    phone(token, "B").post(url, {"number": 1, "winner": "B", "reason": "won"})
    response = phone(token, "A").post(url, {"number": 1, "winner": "A", "reason": "capot"})
    assert response.status_code == 409
    conflict = answer(response)
    assert conflict["result"] == "conflict"
    assert (conflict["stored"]["winner_name"], conflict["stored"]["game_points"]) == (
        match.player_b.name, 1)
    assert deals(match) == [(1, "B", 1, "won")]


def test_confirm_each_a_resent_pending_deal_stays_one_pending_deal(started, match):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    token = table_entry.table_of(match).token
    url = reverse("players:deal_sync", args=[token])
    a = phone(token, "A")
    data = {"number": 1, "winner": "A", "reason": "capot"}
    assert answer(a.post(url, data))["result"] == "pending"
    assert answer(a.post(url, data))["result"] == "pending"
    assert MatchTable.objects.get(match=match).pending["number"] == 1
    assert MatchEvent.objects.filter(match=match, kind="pending").count() == 1
    # The opponent's phone, offline meanwhile, had its own deal 1: both versions shown.
    other = phone(token, "B").post(url, {"number": 1, "winner": "B", "reason": "won"})
    conflict = answer(other)
    assert (other.status_code, conflict["result"]) == (409, "conflict")
    assert conflict["stored"]["pending"] is True
    assert conflict["stored"]["winner_name"] == match.player_a.name
    # Confirmed meanwhile, then sent again: already stored.
    table_entry.table_deal_confirm(match=match, seat="B", number=1)
    assert answer(a.post(url, data))["result"] == "already_stored"
    assert deals(match) == [(1, "A", 3, "capot")]


# ---- the service worker, the manifest, the pages ---------------------------------------------


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert b"santase-pages" in response.content


@pytest.mark.parametrize(("language", "name", "short_name"), [
    ("bg", "Клуб по сантасе", "Сантасе"), ("en", "Santase club", "Santase"),
])
def test_the_manifest_speaks_the_visitors_language(client, language, name, short_name):
    client.cookies["django_language"] = language
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (manifest["name"], manifest["short_name"], manifest["lang"]) == (
        name, short_name, language)
    assert manifest["start_url"] == "/?source=app"
    assert [icon["sizes"] for icon in manifest["icons"]] == ["192x192", "512x512"]
    for size in (192, 512):
        assert finders.find(f"icons/icon-{size}.png")


def test_the_pages_give_the_script_the_points_and_the_target(organiser_client, match):
    page = organiser_client.get(reverse("matches:entry", args=[match.pk])).content.decode()
    assert f'data-sync="{reverse("matches:deal_sync", args=[match.pk])}"' in page
    assert 'data-target="11"' in page
    assert 'value="capot"' in page and 'data-points="3"' in page
    token = table_entry.table_of(match).token
    players = phone(token, "A").get(f"/p/{token}/").content.decode()
    assert f'data-sync="/p/{token}/deal/sync/"' in players
    assert 'data-limit="0"' in players
    assert 'rel="manifest"' in players
