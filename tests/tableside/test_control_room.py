"""The organiser's control room (`control:`, tableside/views/control_room.py): who may open
it, which matches it lists and in which order (worked out by hand below), its actions
(approve, renew, the card, the links) and its live list.

The event: the conftest's round robin with a sixth player, so round 1 has three matches, at
tables 1, 2 and 3 (draw by lot with a fixed seed). Scores: "A3 A3 A2 A3" is 3+3+2+3 = 11 for
seat A, the target.
"""

import datetime
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Player
from events import services
from events.models import Entry, EntryMode, Pairing, Tournament
from formats.club_night import services as club_nights
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Deal
from tableside import table_entry
from tableside.models import MatchEvent, MatchTable
from tests.commits import committed
from tests.tableside.test_table_entry import enter, quick, set_mode

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(tournament, players):
    Entry.objects.create(tournament=tournament, player=players[5], number=6)
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def at_table(event, table, round_number=1):
    return Pairing.objects.get(round__tournament=event, round__number=round_number,
                               table=table).match


def room(event, **query):
    url = reverse("control:room", args=[event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def page_of(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def row_order(html: str) -> list[int]:
    """The match ids of the rows, top to bottom."""
    return [int(pk) for pk in re.findall(r'class="control-row[^"]*" data-match="(\d+)"', html)]


def age(match, minutes):
    """Make every entry of `match` `minutes` old."""
    then = timezone.now() - datetime.timedelta(minutes=minutes)
    MatchEvent.objects.filter(match=match).update(at=then)
    Deal.objects.filter(match=match).update(entered_at=then)


# --- who may open it ---------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(event):
    response = Client().get(room(event))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_another_organiser_is_refused_403_and_a_private_event_is_404(event, outsider_client):
    assert outsider_client.get(room(event)).status_code == 403
    assert outsider_client.get(reverse("control:links", args=[event.pk])).status_code == 403
    match = at_table(event, 1)
    assert outsider_client.get(
        reverse("control:card", args=[event.pk, match.pk])).status_code == 403
    event.is_public = False
    event.save(update_fields=["is_public"])
    assert outsider_client.get(room(event)).status_code == 404


def test_the_owner_sees_the_current_round_with_names_scores_and_states(event,
                                                                      organiser_client):
    one, two, three = (at_table(event, table) for table in (1, 2, 3))
    enter(one, "A3 A2")
    page = page_of(english(organiser_client), room(event))
    assert row_order(page) == [one.pk, two.pk, three.pk]  # by table
    assert one.player_a.name in page and one.player_b.name in page
    assert "5 : 0" in page and "playing" in page and "not started" in page
    assert "no entry yet" in page
    assert "idle: no entry for 10 minutes or more" in page
    assert reverse("matches:entry", args=[one.pk]) in page
    # Round 2 has not begun: none of its matches is listed.
    assert at_table(event, 1, round_number=2).pk not in row_order(page)


def test_a_disputed_match_comes_above_an_idle_one_above_a_playing_one(event, organiser_client):
    playing, idle, disputed = (at_table(event, table) for table in (1, 2, 3))
    enter(playing, "A1")
    enter(idle, "B2")
    age(idle, 15)  # over the 10 minutes
    enter(disputed, "A3 A3 A2 A3")  # 11:0
    table_entry.result_dispute(match=disputed, seat="B", text="deal 3 was mine")
    page = page_of(english(organiser_client), room(event))
    assert row_order(page) == [disputed.pk, idle.pk, playing.pk]
    assert f"{disputed.player_b.name} disputes the result: “deal 3 was mine”" in page
    assert "15\xa0minutes ago" in page  # timesince joins with a no-break space
    # Twenty minutes make the idle match an ordinary one: back to table order after the dispute.
    later = page_of(organiser_client, room(event, idle=20))
    assert row_order(later) == [disputed.pk, playing.pk, idle.pk]
    assert "idle: no entry for 20 minutes or more" in later


def test_a_result_waiting_for_signatures_is_listed_whatever_its_round(event, organiser_client):
    first = at_table(event, 1)
    enter(first, "A3 A3 A2 A3")
    for table in (2, 3):
        enter(at_table(event, table), "B3 B3 B3 B2")
        for seat in "AB":
            table_entry.result_sign(match=at_table(event, table), seat=seat)
    # Round 1 is over (the first match waits for signatures): round 2 is the current round,
    # and the unsigned result of round 1 stays on the page, above nothing idle, by table.
    page = page_of(english(organiser_client), room(event))
    round_two = [at_table(event, table, 2).pk for table in (1, 2, 3)]
    assert row_order(page) == [first.pk, round_two[0], round_two[1], round_two[2]]
    assert "waiting for signatures" in page and "Approve the result" in page


# --- approve -----------------------------------------------------------------------------------


def test_the_organiser_approves_a_disputed_result_from_the_control_room(event, organiser,
                                                                       organiser_client):
    match = at_table(event, 2)
    enter(match, "A3 A3 A2 A3")
    table_entry.result_dispute(match=match, seat="B", text="deal 3 was mine")
    response = english(organiser_client).post(
        reverse("control:approve", args=[event.pk, match.pk]), {"idle": "15"})
    assert response.status_code == 302
    assert response["Location"] == room(event, idle=15)
    table = MatchTable.objects.get(match=match)
    assert table.is_final and table.approved_at is not None
    event_row = MatchEvent.objects.filter(match=match).last()
    assert (event_row.kind, event_row.user, event_row.text) == ("approved", organiser, "11:0")
    page = page_of(organiser_client, response["Location"])
    assert "Table 2: the result 11:0 is approved and final." in page


@pytest.mark.parametrize(("situation", "sentence"), [
    ("playing", "The match is not over yet (3:0, the game is to 11)"),
    ("signed", "The result is final (signed or approved)"),
    ("organiser", "This result needs no approval"),
])
def test_approving_where_it_does_not_apply_is_refused_and_writes_nothing(
        event, organiser, organiser_client, situation, sentence):
    match = at_table(event, 1)
    if situation == "playing":
        enter(match, "A3")
    elif situation == "signed":
        enter(match, "A3 A3 A2 A3")
        table_entry.result_sign(match=match, seat="A")
        table_entry.result_sign(match=match, seat="B")
    else:  # the organiser entered the whole match: nobody signs it
        for number, deal in enumerate(["A3", "A3", "A2", "A3"], start=1):
            scoring_services.deal_record(match=match, score=quick(deal), by=organiser,
                                         number=number)
    events = MatchEvent.objects.count()
    response = english(organiser_client).post(
        reverse("control:approve", args=[event.pk, match.pk]))
    assert response.status_code == 409
    assert sentence in response.content.decode()
    assert MatchEvent.objects.count() == events
    assert not MatchTable.objects.filter(match=match, approved_at__isnull=False).exists()


def test_the_actions_refuse_get_and_a_match_of_another_event(event, organiser_client):
    match = at_table(event, 1)
    for name in ("control:approve", "control:renew"):
        assert organiser_client.get(reverse(name, args=[event.pk, match.pk])).status_code == 405
    night = club_nights.club_night_create(
        club=event.club, date=event.date, name="Вечер", organiser=event.organisers.get(),
        house_rules=match.house_rules(),
    )
    for name in ("control:approve", "control:renew"):
        response = organiser_client.post(reverse(name, args=[night.pk, match.pk]))
        assert response.status_code == 404


# --- renew -------------------------------------------------------------------------------------


def test_renewing_makes_the_old_link_410_and_offers_the_card_again(event, organiser_client):
    match = at_table(event, 3)
    old = table_entry.table_of(match).token
    response = english(organiser_client).post(
        reverse("control:renew", args=[event.pk, match.pk]))
    assert response.status_code == 302
    assert response["Location"] == room(event, renewed=match.pk)
    assert Client().get(f"/p/{old}/").status_code == 410
    new = MatchTable.objects.get(match=match).token
    assert new != old and Client().get(f"/p/{new}/").status_code == 200
    page = page_of(organiser_client, response["Location"])
    assert "Table 3: the old link no longer works." in page
    card = reverse("control:card", args=[event.pk, match.pk])
    assert f'href="{card}">Print its card again' in page
    pdf = organiser_client.get(card)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    assert "table-3-round-1-scorecard.pdf" in pdf["Content-Disposition"]


def test_renewing_where_only_the_organisers_enter_is_refused(event, organiser_client):
    set_mode(event, EntryMode.ORGANISER)
    match = at_table(event, 1)
    token = table_entry.table_of(match).token
    response = english(organiser_client).post(
        reverse("control:renew", args=[event.pk, match.pk]))
    assert response.status_code == 409
    assert "In this event only the organisers enter the results." in response.content.decode()
    assert MatchTable.objects.get(match=match).token == token
    assert not MatchEvent.objects.filter(kind="renewed").exists()
    assert "Renew the link" not in page_of(organiser_client, room(event))


# --- the links -----------------------------------------------------------------------------------


def test_the_links_page_lists_each_open_table_with_its_link_and_qr_code(settings, event,
                                                                        organiser_client):
    settings.SITE_URL = "http://192.168.1.20:8000"
    one, two, three = (at_table(event, table) for table in (1, 2, 3))
    enter(two, "B3 B3 B3 B2")  # over, waiting for the signatures: still the players' link
    enter(three, "A3 A3 A2 A3")
    for seat in "AB":
        table_entry.result_sign(match=three, seat=seat)  # final: its link is no longer needed
    page = page_of(english(organiser_client), reverse("control:links", args=[event.pk]))
    for match in (one, two):
        token = table_entry.table_of(match).token
        assert f"http://192.168.1.20:8000/p/{token}/" in page
        assert match.player_a.name in page
    assert table_entry.table_of(three).token not in page
    assert page.count('<img class="qr" src="data:image/png;base64,') == 2


def test_the_links_page_says_so_where_only_the_organisers_enter(event, organiser_client):
    set_mode(event, EntryMode.ORGANISER)
    response = english(organiser_client).get(reverse("control:links", args=[event.pk]))
    assert response.status_code == 409
    assert "In this event only the organisers enter the results." in response.content.decode()
    assert "Print the links" not in page_of(organiser_client, room(event))


# --- links to the control room -------------------------------------------------------------------


def test_the_event_and_round_pages_link_it_for_organisers_only(event, organiser_client):
    url = room(event)
    for page in (reverse("events:detail", args=[event.pk]),
                 reverse("events:round", args=[event.pk, 1])):
        assert f'href="{url}"' in page_of(organiser_client, page)
        assert f'href="{url}"' not in page_of(Client(), page)


def test_a_club_night_has_its_control_room_too(organiser, organiser_client, home_club,
                                               players):
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Петък", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    url = room(night)
    assert f'href="{url}"' in page_of(organiser_client, reverse("nights:detail", args=[night.pk]))
    assert f'href="{url}"' not in page_of(Client(), reverse("nights:detail", args=[night.pk]))
    first = club_nights.club_night_pair(night=night, player_a=players[0], player_b=players[1],
                                        table=4, by=organiser).match
    second = club_nights.club_night_pair(night=night, player_a=players[2],
                                         player_b=players[3], table=2, by=organiser).match
    done = club_nights.club_night_pair(night=night, player_a=players[4], player_b=players[5],
                                       table=7, by=organiser).match
    enter(done, "A3 A3 A2 A3")
    for seat in "AB":
        table_entry.result_sign(match=done, seat=seat)
    page = page_of(english(organiser_client), url)
    # The night's one round lasts all evening: its final result has left the room.
    assert row_order(page) == [second.pk, first.pk]
    assert "Round 1" not in page


# --- live ----------------------------------------------------------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


def part(client, event, **query):
    return client.get(room(event, **query), **HTMX)


def test_the_list_follows_the_event_and_comes_back_alone(event, organiser_client):
    page = page_of(organiser_client, room(event))
    assert 'id="control-rows" data-live' in page and 'hx-trigger="sse:changed"' in page
    assert f'sse-connect="/t/{event.pk}/live/?v=' in page
    answer = part(organiser_client, event)
    html = answer.content.decode()
    assert answer.status_code == 200 and html.lstrip().startswith('<div id="control-rows"')
    assert "<body" not in html


def test_a_deal_a_signature_a_dispute_and_an_approval_each_show_in_the_list(
        event, organiser, organiser_client):
    match = at_table(event, 1)
    steps = [
        (lambda: enter(match, "A3 A3 A2 A3"), "state-awaiting"),
        (lambda: table_entry.result_sign(match=match, seat="A"), "state-awaiting"),
        (lambda: table_entry.result_dispute(match=match, seat="B", text="deal 2 was mine"),
         "state-disputed"),
        (lambda: table_entry.result_approve(match=match, by=organiser), "state-final"),
    ]
    for step, state in steps:
        version = Tournament.objects.get(pk=event.pk).version
        before = part(organiser_client, event).content
        with committed():
            step()
        assert Tournament.objects.get(pk=event.pk).version > version  # the stream says so
        after = part(organiser_client, event).content
        assert after != before and state in after.decode()


def test_an_outsiders_fetch_is_refused(event, outsider_client):
    assert part(outsider_client, event).status_code == 403


def test_a_new_player_name_never_breaks_the_page(event, organiser_client):
    Player.objects.filter(pk=at_table(event, 1).player_a_id).update(name="<b>Зло</b>")
    assert "&lt;b&gt;Зло&lt;/b&gt;" in page_of(organiser_client, room(event))


def test_the_page_reads_the_same_eleven_queries_whatever_its_rows_hold(
        event, organiser_client, django_assert_num_queries):
    # The user (the session comes from the cache), the event (with its version), its
    # organisers, the current round (two), the pairings with their players, tables and last
    # entries, the rounds' count; for self check-in, the event's club, its organisers, the
    # claims waiting (none: no query for their passes) and the club's join code.
    organiser_client.get(room(event))
    with django_assert_num_queries(11):
        organiser_client.get(room(event))
    for table in (1, 2, 3):
        enter(at_table(event, table), "A3 A3 A2 A3")
    table_entry.result_dispute(match=at_table(event, 1), seat="B", text="no")
    with django_assert_num_queries(11):
        organiser_client.get(room(event))
