"""A players' link that no longer opens its match says why, and is no wrong link.

- Its match removed by a correction upstream (the knockout of `test_removed_match`: the
  semifinal's match is deleted when the quarterfinal's deciding deal is undone): the link's
  pages and its offline sync answer 409 with the organiser's sentence (JSON to the offline
  queue), as the organiser's own match page and offline sync do; nothing is written.
- Renewed: the old link answers 410 with "scan the new card", its stream says `gone`.
- Neither counts toward the 30 wrong links per address; links that never existed do (429),
  and a valid link is never refused. What recognises an old link is its SHA-256 only."""

import hashlib

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Match
from tableside import link_guesses, table_entry
from tableside.models import RetiredLink
from tests.tableside.test_removed_match import (
    REMOVED_BG,
    REMOVED_EN,
    running,  # noqa: F401 - the fixture
    semifinal_after_quarterfinal,
    undo_quarterfinal,
)

pytestmark = pytest.mark.django_db

RENEWED_EN = ("The organiser gave this match a new link, and this one no longer opens it. "
              "Scan the new scorecard (or its QR code) to go on.")
RENEWED_BG = ("Организаторът даде нова връзка на този мач и тази вече не го отваря. Сканирайте "
              "новия картон (или неговия QR код), за да продължите.")
DEAL = {"number": 1, "winner": "A", "reason": "won"}
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def seated(token, seat="A", language="en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    assert client.post(f"/p/{token}/seat/", {"seat": seat}).status_code == 302
    return client


def misses() -> int:
    return cache.get("players:wrong-tokens:127.0.0.1", 0)


@pytest.fixture
def removed(running):  # noqa: F811
    """(the semifinal's match id, its link's token, a phone seated on it), after the
    correction upstream removed the match."""
    semifinal = semifinal_after_quarterfinal(running)
    token = table_entry.table_of(semifinal).token
    phones = {language: seated(token, seat, language) for seat, language in (("A", "en"),
                                                                              ("B", "bg"))}
    undo_quarterfinal(running)
    assert not Match.objects.filter(pk=semifinal.pk).exists()
    return semifinal.pk, token, phones


def test_the_link_of_a_removed_match_says_so_with_the_organiser_s_sentence(removed):
    match_id, token, phones = removed
    for language, sentence in [("en", REMOVED_EN), ("bg", REMOVED_BG)]:
        phone = phones[language]
        for response in (phone.get(f"/p/{token}/"),
                         phone.post(f"/p/{token}/deal/", DEAL),
                         phone.post(f"/p/{token}/sign/", {"seat": "A"})):
            assert response.status_code == 409
            assert sentence in response.content.decode()
            assert response["Content-Language"] == language
        answer = phone.post(f"/p/{token}/deal/sync/", DEAL, **JSON)
        assert answer.status_code == 409
        assert answer.json() == {"result": "refused", "message": sentence}
    assert not Deal.objects.filter(match_id=match_id).exists()
    assert misses() == 0


def test_the_organiser_s_offline_sync_of_a_removed_match_is_409_in_json(removed,
                                                                       organiser_client):
    match_id, _token, _phones = removed
    organiser_client.cookies["django_language"] = "bg"
    answer = organiser_client.post(reverse("matches:deal_sync", args=[match_id]), DEAL, **JSON)
    assert answer.status_code == 409
    assert answer.json() == {"result": "refused", "message": REMOVED_BG}
    assert not Deal.objects.filter(match_id=match_id).exists()


def test_a_removed_match_s_link_is_kept_by_its_hash_only(removed):
    match_id, token, _phones = removed
    retired = RetiredLink.objects.get()
    assert retired.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert (retired.match_id, retired.reason) == (match_id, "removed")
    assert all(token not in str(value) for value in RetiredLink.objects.values().get().values())


def test_a_renewed_link_is_410_and_tells_the_player_to_scan_the_new_card(running,  # noqa: F811
                                                                        organiser):
    semifinal = semifinal_after_quarterfinal(running)
    old = table_entry.table_of(semifinal).token
    phone = seated(old, "B", "bg")
    new = table_entry.link_renew(match=semifinal, by=organiser).token
    for language, sentence in [("en", RENEWED_EN), ("bg", RENEWED_BG)]:
        phone.cookies["django_language"] = language
        response = phone.get(f"/p/{old}/")
        assert response.status_code == 410
        assert sentence in response.content.decode()
    answer = phone.post(f"/p/{old}/deal/sync/", DEAL, **JSON)
    assert (answer.status_code, answer.json()["message"]) == (410, RENEWED_BG)
    assert phone.post(f"/p/{old}/deal/", DEAL).status_code == 410
    assert not Deal.objects.filter(match=semifinal).exists()
    assert Client().get(f"/p/{new}/").status_code == 200
    retired = RetiredLink.objects.get()
    assert (retired.token_hash, retired.reason) == (
        hashlib.sha256(old.encode()).hexdigest(), "renewed")


def test_old_links_are_no_guesses_wrong_ones_are_and_the_right_one_always_opens(
        running, organiser):  # noqa: F811
    semifinal = semifinal_after_quarterfinal(running)
    old = table_entry.table_of(semifinal).token
    new = table_entry.link_renew(match=semifinal, by=organiser).token
    client = Client()
    for _ in range(40):  # more than the limit: none of them counts
        assert client.get(f"/p/{old}/").status_code == 410
    assert misses() == 0
    for attempt in range(link_guesses.GUESS_LIMIT):  # 30 links that never existed
        assert client.get(f"/p/never-a-link-{attempt:02d}-of-this-club/").status_code == 404
    assert misses() == 30
    assert client.get("/p/never-a-link-30-of-this-club/").status_code == 429
    assert client.get(f"/p/{new}/").status_code == 200  # never blocked
    assert client.get(f"/p/{old}/").status_code == 410
