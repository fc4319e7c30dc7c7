"""Live pages (`live.pages`): every live page names its stream, with the version it was drawn
at, on its <body>; the live region it fetches again when the stream says `changed` (an htmx GET
of the same address) comes back alone, with the change; visitors who are not signed in share
one render of a part per version, organisers never share theirs, and a private event's part
is 404 to the public as its page is."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from events import services
from events.models import Tournament
from formats.club_night import services as club_nights
from formats.knockout import services as knockout
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tableside import table_entry

pytestmark = pytest.mark.django_db(transaction=True)

POLL = {"HTTP_HX_REQUEST": "true"}


def round_robin(tournament) -> tuple[Tournament, Match]:
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    return tournament, Match.objects.filter(pairing__round__tournament=tournament).first()


def knockout_cup(tournament) -> tuple[Tournament, Match]:
    tournament.format = Tournament.Format.KNOCKOUT
    tournament.save()
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    return tournament, Match.objects.filter(pairing__round__tournament=tournament).first()


def club_night(tournament) -> tuple[Tournament, Match]:
    night = club_nights.club_night_create(
        club=tournament.club, date=tournament.date, name="Клубна вечер",
        organiser=tournament.organisers.get(), house_rules=rules.HouseRules(),
    )
    entries = list(tournament.entries.select_related("player"))
    pairing = club_nights.club_night_pair(
        night=night, player_a=entries[0].player, player_b=entries[1].player, table=1, by=None
    )
    return night, pairing.match


# page -> (how the event is built, the address of its live page)
PAGES = {
    "standings": (round_robin, lambda t, m: reverse("standings:standings", args=[t.pk])),
    "round": (round_robin, lambda t, m: reverse("events:round", args=[t.pk, 1])),
    "match": (round_robin, lambda t, m: reverse("matches:entry", args=[m.pk])),
    "players": (round_robin, lambda t, m: f"/p/{table_entry.table_of(m).token}/"),
    "bracket": (knockout_cup, lambda t, m: reverse("knockout:bracket", args=[t.pk])),
    "night": (club_night, lambda t, m: reverse("nights:detail", args=[t.pk])),
    "projector": (round_robin, lambda t, m: reverse("live:projector", args=[t.pk])),
    "projector, knockout": (
        knockout_cup, lambda t, m: reverse("live:projector", args=[t.pk])),
}


@pytest.fixture(params=list(PAGES))
def live_page(request, tournament) -> tuple[str, Tournament, Match]:
    build, address = PAGES[request.param]
    event, match = build(tournament)
    return address(event, match), event, match


REGION = {"standings": "live-standings", "round": "live-round", "match": "match-panel",
          "players": "players-live", "bracket": "bracket-board", "night": "live-night",
          "projector": "projector-slides", "projector, knockout": "projector-slides"}
PART = {"HTTP_HX_REQUEST": "true"}


def deal(match: Match) -> None:
    """Seat A wins a deal for 2 game points (a schneider)."""
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 2, "schneider"),
                                 by=None)


def visitor(address: str) -> Client:
    """A spectator; on a players' link, the phone of seat A."""
    client = Client()
    if address.startswith("/p/"):
        assert client.post(f"{address}seat/", {"seat": "A"}).status_code == 302
    return client


def stream_of(address: str, event: Tournament, match: Match) -> str:
    if address.startswith("/p/"):
        return f"{address}live/?v={Match.objects.get(pk=match.pk).version}"
    if address.startswith("/m/"):
        return f"/m/{match.pk}/live/?v={Match.objects.get(pk=match.pk).version}"
    return f"/t/{event.pk}/live/?v={Tournament.objects.get(pk=event.pk).version}"


def test_a_live_page_names_its_stream_from_its_version(live_page):
    address, event, match = live_page
    deal(match)  # the versions are past 0
    page = visitor(address).get(address).content.decode()
    stream, current = stream_of(address, event, match).split("?v=")
    drawn = re.search(rf'sse-connect="{re.escape(stream)}\?v=(\d+)(&amp;part=[^"]*)?"', page)
    # The version read with what the page shows: the current one, unless the visit itself
    # wrote something (the first look at a match makes its players' link), when the stream
    # then says `changed` at once.
    assert drawn and 0 < int(drawn.group(1)) <= int(current)
    # A spectator's stream is told the page's part, to push it; a players' link's is not.
    assert drawn.group(2) == (None if address.startswith("/p/") else f"&amp;part={address}")
    assert "vendor/htmx-ext-sse.min.js" in page
    assert 'hx-trigger="sse:changed"' in page
    assert "every " not in page  # no poll left anywhere


def test_a_page_that_shows_nothing_live_has_no_stream(client, tournament):
    for address in ("/", reverse("events:detail", args=[tournament.pk])):
        page = client.get(address).content.decode()
        assert "sse-connect" not in page and "htmx-ext-sse" not in page


def test_the_part_comes_back_alone_with_the_change(live_page, request):
    address, event, match = live_page
    kind = request.node.callspec.params["live_page"]
    client = visitor(address)
    before = client.get(address, **PART).content.decode()
    assert before.lstrip().startswith("<") and "<html" not in before and "<body" not in before
    assert f'id="{REGION[kind]}"' in before
    deal(match)
    after = client.get(address, **PART).content.decode()
    assert after != before and f'id="{REGION[kind]}"' in after


@pytest.mark.parametrize("kind", ["standings", "round", "projector", "night"])
def test_spectators_share_one_render_of_a_part_per_version(kind, tournament,
                                                         django_assert_num_queries):
    build, address = PAGES[kind]
    event, match = build(tournament)
    address = address(event, match)
    first = Client().get(address, **PART)
    with django_assert_num_queries(1):  # the version, then the part kept by the first
        second = Client().get(address, **PART)
    assert second.content == first.content
    deal(match)
    assert Client().get(address, **PART).content != first.content  # a new version, a new key


def test_an_organisers_part_is_drawn_for_them(tournament, organiser_client):
    event, match = round_robin(tournament)
    address = reverse("standings:standings", args=[event.pk])
    Client().get(address, **PART)  # a spectator's render, kept
    mine = organiser_client.get(address, **PART).content.decode()
    assert "csrfmiddlewaretoken" not in Client().get(address, **PART).content.decode()
    assert mine.count('id="live-standings"') == 1


def test_a_private_events_part_is_404_to_the_public(live_page, outsider_client,
                                                     organiser_client):
    address, event, _match = live_page
    if address.startswith("/p/"):
        pytest.skip("a players' link opens its match whoever holds it")
    Tournament.objects.filter(pk=event.pk).update(is_public=False)
    for client in (Client(), outsider_client):
        assert client.get(address, **PART).status_code == 404
    assert organiser_client.get(address, **PART).status_code == 200
