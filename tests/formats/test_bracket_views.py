"""Knockout pages: create, seed, start, the bracket (live), withdrawals, and the confirmation
step of a correction that would undo later results. Each write view gets the four usual
tests (works; wrong method 405; outsider 403 and anonymous to the log-in page; bad input
writes nothing). The brackets are the hand-worked ones of test_knockout_services."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from events import services
from events.models import Entry, Pairing, Tournament
from formats.knockout import services as knockout
from scoring.models import Match
from tests.commits import committed
from tests.events.test_setup_views import NEW_TOURNAMENT
from tests.formats.test_knockout_services import NAMES, at, play, seeds

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PAGE_QUERY_LIMIT = 12


def english(client):
    client.cookies["django_language"] = "en"
    return client


def assert_sent_to_login(response):
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.fixture
def cup(organiser, home_club) -> Tournament:
    """A draft six-player knockout of the organiser's."""
    tournament = Tournament.objects.create(
        name="Купа на клуба", date=datetime.date(2026, 12, 12), club=home_club,
        format=Tournament.Format.KNOCKOUT, third_place_match=True,
    )
    tournament.organisers.add(organiser)
    for seed, name in enumerate(NAMES[:6], start=1):
        player, _ = Player.objects.get_or_create(name=name, club=home_club)
        Entry.objects.create(tournament=tournament, number=seed, player=player)
    return tournament


@pytest.fixture
def running(cup) -> Tournament:
    knockout.knockout_start(tournament=cup, rng=random.Random(1))
    cup.refresh_from_db()
    return cup


def bracket_url(tournament):
    return reverse("knockout:bracket", args=[tournament.pk])


# --- creating and starting ---------------------------------------------------------------------


def test_create_a_knockout_with_a_third_place_match(organiser_client):
    data = dict(NEW_TOURNAMENT, format="knockout", third_place_match="on")
    response = organiser_client.post(reverse("events:create"), data)
    tournament = Tournament.objects.get(name="Купа Варна")
    assert response.status_code == 302
    assert (tournament.format, tournament.third_place_match) == ("knockout", True)


def test_a_round_robin_never_keeps_a_third_place_match(organiser_client):
    data = dict(NEW_TOURNAMENT, third_place_match="on")
    organiser_client.post(reverse("events:create"), data)
    assert Tournament.objects.get(name="Купа Варна").third_place_match is False


def test_the_players_page_speaks_of_seeds_for_a_knockout(organiser_client, cup):
    html = english(organiser_client).get(reverse("events:players", args=[cup.pk])).content
    html = html.decode()
    assert "Players and seeds" in html and "Draw the seeds by lot" in html
    assert "Seed from a round robin" in html
    assert "draws the bracket" in html


def test_start_draws_the_bracket_and_goes_to_it(organiser_client, cup):
    response = organiser_client.post(reverse("events:start", args=[cup.pk]))
    assert response.status_code == 302 and response.url == bracket_url(cup)
    assert seeds(at(cup, 1, 1)) == (4, 5)
    assert Match.objects.count() == 2


def test_start_refuses_get_outsiders_and_visitors(client, outsider_client, organiser_client, cup):
    url = reverse("events:start", args=[cup.pk])
    assert organiser_client.get(url).status_code == 405
    assert outsider_client.post(url).status_code == 403
    assert_sent_to_login(client.post(url))
    assert not cup.rounds.exists()


def test_start_refused_says_why_and_writes_nothing(organiser_client, cup):
    Entry.objects.filter(tournament=cup, number__gt=3).delete()  # 3 players: no third place
    response = english(organiser_client).post(reverse("events:start", args=[cup.pk]))
    assert response.status_code == 409
    assert "A third-place match needs at least 4 players" in response.content.decode()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.DRAFT and not cup.rounds.exists()


def test_seeds_by_lot_from_the_players_page(organiser_client, cup):
    response = organiser_client.post(reverse("events:draw_lot", args=[cup.pk]))
    assert response.status_code == 302
    assert sorted(cup.entries.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]


# --- seeding from a round robin ----------------------------------------------------------------


@pytest.fixture
def finished_league(organiser, home_club) -> Tournament:
    """A finished four-player round robin of the organiser's: the lower number always wins,
    so the standings are NAMES[6], NAMES[7], NAMES[0], NAMES[1] (entered in that order)."""
    league = Tournament.objects.create(name="Лига", date="2026-11-01",
                                       format=Tournament.Format.ROUND_ROBIN)
    league.organisers.add(organiser)
    for name in [NAMES[6], NAMES[7], NAMES[0], NAMES[1]]:
        player, _ = Player.objects.get_or_create(name=name, defaults={"club": home_club})
        services.entry_add(tournament=league, player=player)
    services.tournament_start(tournament=league, rng=random.Random(1))
    for pairing in Pairing.objects.filter(round__tournament=league, match__isnull=False):
        play(pairing.match, "A" if pairing.entry_a.number < pairing.entry_b.number else "B")
    league.refresh_from_db()
    assert league.status == Tournament.Status.FINISHED
    return league


def seed_url(tournament):
    return reverse("events:seed_from_standings", args=[tournament.pk])


def test_seed_from_standings_replaces_the_players(organiser_client, cup, finished_league):
    response = organiser_client.post(seed_url(cup), {"source": finished_league.pk, "count": 3})
    assert response.status_code == 302
    assert list(cup.entries.order_by("number").values_list("player__name", flat=True)) == [
        NAMES[6], NAMES[7], NAMES[0]
    ]
    cup.refresh_from_db()
    assert cup.seeded_from == finished_league


def test_seed_from_standings_refuses_get_outsiders_and_visitors(
    client, outsider_client, organiser_client, cup, finished_league
):
    data = {"source": finished_league.pk}
    assert organiser_client.get(seed_url(cup)).status_code == 405
    assert outsider_client.post(seed_url(cup), data).status_code == 403
    assert_sent_to_login(client.post(seed_url(cup), data))
    assert cup.entries.count() == 6 and cup.seeded_from is None


@pytest.mark.parametrize("data", [{"source": "x"}, {"count": 2}, {"source": 0}])
def test_seed_from_standings_bad_input_writes_nothing(organiser_client, cup, finished_league,
                                                      data):
    response = organiser_client.post(seed_url(cup), data)
    assert response.status_code == 422
    assert list(cup.entries.order_by("number").values_list("player__name", flat=True)) == (
        NAMES[:6]
    )


def test_seed_from_standings_of_someone_elses_league_is_refused(
    organiser_client, outsider, cup, finished_league
):
    finished_league.organisers.set([outsider])
    response = organiser_client.post(seed_url(cup), {"source": finished_league.pk})
    assert response.status_code == 422
    assert cup.entries.count() == 6


def test_seed_from_standings_more_players_than_there_are(organiser_client, cup, finished_league):
    response = english(organiser_client).post(
        seed_url(cup), {"source": finished_league.pk, "count": 5}
    )
    assert response.status_code == 422
    assert "Take from 2 to 4 players from the standings." in response.content.decode()
    assert cup.entries.count() == 6


# --- the bracket page --------------------------------------------------------------------------


def test_anyone_may_read_a_public_bracket(client, running):
    response = english(client).get(bracket_url(running))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Quarterfinal" in html and "Semifinal" in html and "Final" in html
    assert html.count(">bye<") >= 2  # seeds 1 and 2: shown as byes, not as matches
    for name in NAMES[:6]:
        assert name in html
    assert 'hx-trigger="sse:changed"' in html
    assert "Withdraw a player" not in html


def test_the_organiser_gets_withdrawals_and_the_print_button(organiser_client, running):
    html = english(organiser_client).get(bracket_url(running)).content.decode()
    assert "Withdraw a player" in html and "Print the bracket" in html
    assert "enter deals" in html


def test_a_private_bracket_is_hidden_and_a_round_robin_has_none(client, tournament, running):
    running.is_public = False
    running.save()
    assert client.get(bracket_url(running)).status_code == 404
    assert client.get(bracket_url(tournament)).status_code == 404


def test_the_board_is_fetched_again_at_each_change_until_the_tournament_is_over(client,
                                                                              running):
    response = client.get(bracket_url(running), **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="bracket-board" id="bracket-board"')
    assert 'hx-trigger="sse:changed"' in html
    running.status = Tournament.Status.FINISHED
    with committed():
        running.save()
    assert "hx-trigger" not in client.get(bracket_url(running), **HTMX).content.decode()


def test_the_champion_is_shown_when_the_final_is_over(client, running):
    for number, index, seat, third in [(1, 1, "A", False), (1, 3, "B", False),
                                        (2, 0, "B", False), (2, 1, "A", False),
                                        (3, 0, "B", False), (3, 0, "B", True)]:
        play(at(running, number, index, third).match, seat)
    html = english(client).get(bracket_url(running)).content.decode()
    assert f'Champion</dt><dd data-entry="{running.entries.get(number=2).pk}">{NAMES[1]}' in html
    assert f"Runner-up</dt><dd>{NAMES[3]}" in html and f"Third</dt><dd>{NAMES[5]}" in html


def test_the_round_page_names_the_knockout_round(client, running):
    html = english(client).get(reverse("events:round", args=[running.pk, 2])).content.decode()
    assert "Round 2 · Semifinal" in html and "waiting" in html
    html = english(client).get(reverse("events:round", args=[running.pk, 1])).content.decode()
    assert "bye: goes through" in html and "rests (bye)" not in html


def test_the_nav_links_to_the_bracket_not_the_standings(client, running):
    html = english(client).get(running.get_absolute_url()).content.decode()
    assert bracket_url(running) in html
    assert reverse("standings:standings", args=[running.pk]) not in html


def make_running_knockout(size: int) -> Tournament:
    tournament = Tournament.objects.create(
        name=f"Купа {size}", date=datetime.date(2026, 12, 1), format=Tournament.Format.KNOCKOUT,
    )
    Entry.objects.bulk_create([
        Entry(tournament=tournament, number=seed,
              player=Player.objects.create(name=f"Играч {size}-{seed}"))
        for seed in range(1, size + 1)
    ])
    knockout.knockout_start(tournament=tournament)
    for pairing in Pairing.objects.filter(round__tournament=tournament, round__number=1):
        play(pairing.match, "A")
    return tournament


@pytest.mark.parametrize("size", [8, 64])
def test_bracket_pages_use_a_fixed_number_of_queries(
    client, organiser_client, organiser, django_assert_max_num_queries, size
):
    tournament = make_running_knockout(size)
    tournament.organisers.add(organiser)
    for reader in (client, organiser_client):
        with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
            assert reader.get(bracket_url(tournament)).status_code == 200
        with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
            assert reader.get(bracket_url(tournament), **HTMX).status_code == 200
        with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
            round_2 = reverse("events:round", args=[tournament.pk, 2])
            assert reader.get(round_2).status_code == 200
        with django_assert_max_num_queries(PAGE_QUERY_LIMIT):
            assert reader.get(tournament.get_absolute_url()).status_code == 200


def test_the_bracket_page_costs_the_same_queries_for_8_and_64_players(client, organiser_client,
                                                                     organiser):
    counts = []
    organiser_client.get("/")  # the user's first request reads the user, the next the cache
    for size in (8, 64):
        tournament = make_running_knockout(size)
        tournament.organisers.add(organiser)
        for reader in (client, organiser_client):
            with CaptureQueriesContext(connection) as queries:
                reader.get(bracket_url(tournament))
            counts.append(len(queries))
    assert counts[:2] == counts[2:]


# --- withdrawals -------------------------------------------------------------------------------


def withdraw_url(tournament, number):
    entry = tournament.entries.get(number=number)
    return reverse("events:player_withdraw", args=[tournament.pk, entry.pk])


def test_withdrawal_gives_the_opponent_a_walkover(organiser_client, running):
    response = english(organiser_client).post(withdraw_url(running, 5), follow=True)
    assert response.redirect_chain[-1][0] == bracket_url(running)
    assert at(running, 1, 1).walkover == "A" and at(running, 1, 1).match is None
    html = response.content.decode()
    assert "walkover" in html and "(withdrawn)" in html


def test_withdrawal_refuses_get_outsiders_and_visitors(client, outsider_client,
                                                       organiser_client, running):
    url = withdraw_url(running, 5)
    assert organiser_client.get(url).status_code == 405
    assert outsider_client.post(url).status_code == 403
    assert_sent_to_login(client.post(url))
    assert not running.entries.filter(withdrawn=True).exists()


def test_withdrawing_twice_says_so_and_changes_nothing(organiser_client, running):
    url = withdraw_url(running, 5)
    organiser_client.post(url)
    response = english(organiser_client).post(url, follow=True)
    assert "This player has already withdrawn." in response.content.decode()
    assert running.entries.filter(withdrawn=True).count() == 1
    assert seeds(at(running, 2, 0)) == (1, 4)


# --- corrections that need confirmation --------------------------------------------------------


@pytest.fixture
def semifinal_started(running):
    """4 beat 5 11:0; the semifinal 1 v 4 stands at 3:2 after two deals."""
    play(at(running, 1, 1).match, "A")
    semifinal = at(running, 2, 0).match
    play(semifinal, "A", [3])
    play(semifinal, "B", [2])
    return running


def undo_url(match):
    return reverse("matches:deal_undo", args=[match.pk])


def test_undo_that_would_clear_the_next_match_asks_first(organiser_client, semifinal_started):
    quarterfinal = at(semifinal_started, 1, 1).match
    response = english(organiser_client).post(undo_url(quarterfinal), {"number": 4})
    assert response.status_code == 409
    html = response.content.decode()
    assert f"Semifinal, table 1: {NAMES[0]} – {NAMES[3]}, 3:2 after 2 deals, will be cleared." in (
        html
    )
    assert 'name="confirmed" value="1"' in html and 'name="number" value="4"' in html
    assert quarterfinal.deals.count() == 4
    assert at(semifinal_started, 2, 0).match.deals.count() == 2

    response = organiser_client.post(undo_url(quarterfinal), {"number": 4, "confirmed": "1"})
    assert response.status_code == 302
    assert quarterfinal.deals.count() == 3
    assert at(semifinal_started, 2, 0).match is None


def test_the_confirmation_comes_as_an_htmx_partial(organiser_client, semifinal_started):
    quarterfinal = at(semifinal_started, 1, 1).match
    response = english(organiser_client).post(undo_url(quarterfinal), {"number": 4}, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert html.startswith('<div id="match-panel"') and "Confirm" in html
    response = organiser_client.post(
        undo_url(quarterfinal), {"number": 4, "confirmed": "1"}, **HTMX
    )
    assert response.status_code == 200 and quarterfinal.deals.count() == 3


def test_a_correction_that_changes_the_winner_asks_first_then_clears(organiser_client,
                                                                      semifinal_started):
    quarterfinal = at(semifinal_started, 1, 1).match
    url = reverse("matches:deal_correct", args=[quarterfinal.pk, 4])
    data = {"winner": "B", "reason": "capot", "correction_reason": "грешен играч"}
    response = english(organiser_client).post(url, data)
    assert response.status_code == 409
    html = response.content.decode()
    assert "will be cleared" in html and 'name="correction_reason" value="грешен играч"' in html
    assert quarterfinal.deals.get(number=4).winner == "A"

    response = organiser_client.post(url, dict(data, confirmed="1"))
    assert response.status_code == 302
    quarterfinal.refresh_from_db()
    assert (quarterfinal.status, quarterfinal.game_points_a, quarterfinal.game_points_b) == (
        Match.Status.PLAYING, 9, 3
    )
    assert at(semifinal_started, 2, 0).match is None


def test_no_confirmation_while_the_next_match_has_not_started(organiser_client, running):
    play(at(running, 1, 1).match, "A")
    response = organiser_client.post(undo_url(at(running, 1, 1).match), {"number": 4})
    assert response.status_code == 302
    assert seeds(at(running, 2, 0)) == (1, None)
