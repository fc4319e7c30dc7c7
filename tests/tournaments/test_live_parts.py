"""The live parts rendered once per version and shared (`tournaments.live_parts`): a second
spectator's poll of a version gets the kept part after the version query alone; a deal makes a
new part; a part is never sent to a visitor who may not see it (a private event, another
visitor class, a revoked link) nor kept when it holds a CSRF token."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.test_live import club_night, deal, round_robin
from tournaments import table_entry
from tournaments.live_parts import element, shareable
from tournaments.models import EntryMode, Tournament

pytestmark = pytest.mark.django_db


def poll(client: Client, url: str, target: str, etag: str | None = None):
    """An htmx poll as `static/js/live.js` sends it: HX-Request, the id of the element it
    swaps (HX-Target) and the ETag of what it shows."""
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, **headers)


def english() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


# --- the element a poll swaps in -----------------------------------------------------------


def test_the_element_runs_from_its_start_tag_to_its_own_end_tag():
    html = ('<body><div id="other"><p>x</p></div><div class="a" id="live" data-live>'
            '<div><div>1 : 0</div></div><p>y</p></div><div>after</div></body>')
    assert element(html, "live") == ('<div class="a" id="live" data-live><div><div>1 : 0'
                                     '</div></div><p>y</p></div>')


def test_no_element_or_no_end_tag_is_none():
    assert element('<div id="a"></div>', "b") is None
    assert element('<div id="live"><div></div>', "live") is None
    assert element('<div data-x="#live"></div>', "live") is None  # an id only in a selector


def test_a_part_with_a_csrf_token_is_not_shareable():
    assert shareable('<div id="live"><a href="/m/1/">2 : 0</a></div>')
    assert not shareable('<div><form method="post"><input type="hidden" '
                         'name="csrfmiddlewaretoken" value="abc"></form></div>')
    assert not shareable('<div hx-headers=\'{"X-CSRFToken": "abc"}\'></div>')


# --- shared between spectators --------------------------------------------------------------


@pytest.fixture
def round_page(tournament):
    event, match = round_robin(tournament)
    return reverse("tournaments:round", args=[event.pk, 1]), event, match


def test_a_second_spectator_gets_the_kept_part_after_the_version_query_alone(round_page):
    url, _, _ = round_page
    first = poll(Client(), url, "live-round")
    assert first.status_code == 200
    part = element(first.content.decode(), "live-round")
    assert part is not None and 'data-live' in part
    with CaptureQueriesContext(connection) as queries:
        second = poll(Client(), url, "live-round")
    assert len(queries) == 1, [query["sql"] for query in queries]
    assert second.status_code == 200
    assert second.content.decode() == part
    assert second["ETag"] == first["ETag"]
    assert second["Cache-Control"] in ("private, no-cache", "no-cache, private")
    assert "HX-Request" in second["Vary"]
    # The part's holder polls again with its ETag: a 304 as ever.
    assert poll(Client(), url, "live-round", second["ETag"]).status_code == 304


def test_a_poll_without_its_target_is_the_whole_page_as_before(round_page):
    url, _, _ = round_page
    poll(Client(), url, "live-round")
    whole = Client().get(url, HTTP_HX_REQUEST="true")
    assert whole.status_code == 200 and b"<html" in whole.content


def test_after_a_deal_the_next_spectator_gets_the_new_score_not_the_kept_part(round_page):
    url, _, match = round_page
    before = poll(Client(), url, "live-round")
    assert "0 : 0" in before.content.decode()
    deal(match)  # seat A: 2 game points
    after = poll(Client(), url, "live-round")
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert "2 : 0" in after.content.decode()
    # And the first spectator's next poll, with the old ETag, is the new part too.
    again = poll(Client(), url, "live-round", before["ETag"])
    assert again.status_code == 200 and "2 : 0" in again.content.decode()


def test_a_part_kept_is_not_sent_once_the_event_is_private(round_page, outsider_client,
                                                           organiser_client):
    url, event, _ = round_page
    assert poll(Client(), url, "live-round").status_code == 200  # kept
    Tournament.objects.filter(pk=event.pk).update(is_public=False)
    for client in (Client(), outsider_client):
        response = poll(client, url, "live-round")
        assert response.status_code == 404
        assert not response.has_header("ETag")
    assert poll(organiser_client, url, "live-round").status_code == 200


def test_an_organiser_and_a_spectator_never_get_each_others_part(tournament, organiser):
    night, _ = club_night(tournament)
    url = reverse("nights:detail", args=[night.pk])
    organiser_client = english()
    organiser_client.force_login(organiser)
    spectator = poll(english(), url, "live-night").content.decode()  # kept: no form in it
    assert "enter deals" not in spectator and "take back" not in spectator
    organisers = poll(organiser_client, url, "live-night").content.decode()
    assert "enter deals" in organisers and "take back" in organisers
    assert "enter deals" not in poll(english(), url, "live-night").content.decode()


def test_a_part_holding_a_csrf_token_is_rendered_for_each_visitor(tournament, organiser):
    """The organiser's part of a club night holds the "take back" form: two browsers of the
    same organiser each get a page with their own token, never the other's."""
    night, _ = club_night(tournament)
    url = reverse("nights:detail", args=[night.pk])
    tokens = []
    for _ in range(2):
        client = english()
        client.force_login(organiser)
        part = poll(client, url, "live-night").content.decode()
        tokens.append(part.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0])
    assert tokens[0] != tokens[1]


def test_a_revoked_players_link_is_404_for_a_phone_that_polled_it(tournament, organiser):
    event, match = round_robin(tournament)
    event.entry_mode = EntryMode.PLAYERS_SIGN
    event.save(update_fields=["entry_mode"])
    token = table_entry.table_of(match).token
    phone = Client()
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    url = f"/p/{token}/"
    first = poll(phone, url, "players-live")
    assert first.status_code == 200
    assert poll(phone, url, "players-live", first["ETag"]).status_code == 304
    table_entry.link_renew(match=match, by=organiser, address="10.0.0.1")
    for etag in (first["ETag"], None):
        assert poll(phone, url, "players-live", etag).status_code == 404
