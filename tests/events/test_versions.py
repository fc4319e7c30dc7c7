"""The versions the live pages follow (`events.versions`): a match's moves on with everything
its page and the players' page show, and with nothing that happens at another table; an
event's moves on with everything in it. Each step below is a thing a club does; the expected
moves are read off what each page shows."""

import datetime
import random

import pytest
from django.utils import timezone

from events import services
from events.models import Entry, EntryMode, Pairing, Tournament
from ratings.services import player_ratings_recompute
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tableside import table_entry
from tests.tableside.test_table_entry import enter, quick, set_mode

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def other(started):
    """Round 1's match at table 2: the other table of the club."""
    return Pairing.objects.get(round__tournament=started, round__number=1, table=2).match


@pytest.fixture
def another_event(organiser, home_club, players):
    """A second event of the club, running, with its own match."""
    event = Tournament.objects.create(name="Зимна купа", date=datetime.date(2026, 12, 6),
                                      club=home_club, format=Tournament.Format.ROUND_ROBIN)
    event.organisers.add(organiser)
    for number, player in enumerate(players[:3], start=1):
        Entry.objects.create(tournament=event, player=player, number=number)
    services.tournament_start(tournament=event, rng=random.Random(1))
    return event


def versions(match: Match) -> tuple[int, int]:
    """(the match's version, its event's) as stored now."""
    match = Match.objects.select_related("pairing__round__tournament").get(pk=match.pk)
    return match.version, match.pairing.round.tournament.version


def deal(match, number: int = 1) -> None:
    """Seat A wins deal `number` for 2 game points, entered by the organiser."""
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 2, "schneider"),
                                 by=None, number=number)


def assert_moved(before: tuple[int, int], match: Match, *, event: bool = True) -> None:
    after = versions(match)
    assert after[0] > before[0], "the match's version"
    assert (after[1] > before[1]) == event, "the event's version"


# --- what happens elsewhere leaves a match alone ---------------------------------------------


def test_a_deal_at_another_table_moves_the_event_but_not_this_match(match, other):
    before = versions(match)
    deal(other)
    enter(other, "B1", start=2)
    after = versions(match)
    assert after[0] == before[0] and after[1] > before[1]


def test_a_signature_dispute_or_renewal_at_another_table_leaves_this_match(match, other,
                                                                          organiser):
    enter(other, "A3 A3 A3 A2")
    before = versions(match)[0]
    table_entry.result_sign(match=other, seat="A", address="10.0.0.8")
    table_entry.result_dispute(match=other, seat="B", text="Deal 3 was mine")
    table_entry.link_renew(match=other, by=organiser)
    assert versions(match)[0] == before


def test_another_players_new_name_leaves_this_match(match, other):
    outsider = {other.player_a_id, other.player_b_id} - {match.player_a_id, match.player_b_id}
    player = other.player_a if other.player_a_id in outsider else other.player_b
    before = versions(match)[0]
    player.name = "Друго Име"
    player.save()
    assert versions(match)[0] == before
    assert versions(other)[0] > 0


def test_another_event_renamed_or_played_leaves_this_event(match, another_event):
    before = versions(match)
    another_event.name = "Лятна купа"
    another_event.save()
    deal(Pairing.objects.filter(round__tournament=another_event, match__isnull=False)[0].match)
    assert versions(match) == before


# --- what a match's pages show moves its version (and its event's) ---------------------------


def test_a_deal_an_undo_and_a_correction_each_move_both(match):
    before = versions(match)
    deal(match)
    assert_moved(before, match)
    before = versions(match)
    scoring_services.deal_undo_last(match=match, by=None, number=1)
    assert_moved(before, match)
    deal(match)
    before = versions(match)
    scoring_services.deal_correct(deal=match.deals.get(), score=quick("B3"), by=None,
                                  reason="wrong winner")
    assert_moved(before, match)


def test_a_deal_from_the_phones_moves_both(match):
    before = versions(match)
    enter(match, "A3")
    assert_moved(before, match)


def test_a_signature_a_dispute_and_an_approval_each_move_both(match, organiser):
    enter(match, "A3 A3 A3 A2")
    for step in (lambda: table_entry.result_sign(match=match, seat="A", address="10.0.0.7"),
                 lambda: table_entry.result_dispute(match=match, seat="B", text="Deal 2 was mine"),
                 lambda: table_entry.result_approve(match=match, by=organiser)):
        before = versions(match)
        step()
        assert_moved(before, match)


def test_a_deal_waiting_for_confirmation_moves_both(match):
    set_mode(match.pairing.round.tournament, EntryMode.PLAYERS_CONFIRM_EACH)
    before = versions(match)
    enter(match, "A3")  # pending: no deal yet, only the table
    assert match.deals.count() == 0
    assert_moved(before, match)


def test_a_link_renewed_moves_both(match, organiser):
    before = versions(match)
    table_entry.link_renew(match=match, by=organiser)
    assert_moved(before, match)


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_player_of_this_match_renamed_moves_both(match, seat):
    before = versions(match)
    player = match.player(seat)
    player.name = "Ново Име"
    player.save()
    assert_moved(before, match)


@pytest.mark.parametrize("change", ["name", "house rules", "entry mode"])
def test_the_event_renamed_or_its_rules_or_mode_changed_move_every_match(match, other, change):
    event = match.pairing.round.tournament
    before, before_other = versions(match), versions(other)
    if change == "entry mode":
        set_mode(event, EntryMode.PLAYERS_TRUSTED)
    elif change == "house rules":
        event.game_target = 7
        event.save(update_fields=["game_target"])
    else:
        event.name = "Купа Пловдив 2026"
        event.save()
    assert_moved(before, match)
    assert_moved(before_other, other)


def test_a_withdrawal_moves_every_match_of_the_event(match, organiser):
    event = match.pairing.round.tournament
    entry = event.entries.exclude(player_id__in={match.player_a_id, match.player_b_id}).first()
    before = versions(match)
    services.entry_withdraw(entry=entry, by=organiser)
    assert_moved(before, match)


def test_the_match_closed_unplayed_or_moved_to_another_table_moves_both(match):
    deal(match)
    before = versions(match)
    scoring_services.match_close_unplayed(match=match, by=None)
    assert_moved(before, match)
    pairing = Pairing.objects.get(match=match)
    before = versions(match)
    pairing.table = 9
    pairing.save()
    assert_moved(before, match)


def test_ratings_recomputed_move_the_unfinished_matches(match, other):
    """The match page shows each player's chance from the ratings, which are written anew,
    as a whole, when an event ends."""
    enter(other, "A3 A3 A3 A2")
    before, before_other = versions(match), versions(other)
    player_ratings_recompute(computed_at=timezone.now())
    assert_moved(before, match)
    assert versions(other)[0] == before_other[0]  # over: its page shows no chances


def test_a_plain_save_of_an_instance_read_earlier_never_sets_a_version_back(match):
    stale = Match.objects.get(pk=match.pk)
    deal(match)
    moved = versions(match)[0]
    stale.first_dealer = "B"
    stale.save()  # writes every other column, then moves the version on
    assert versions(match)[0] > moved
    event = Tournament.objects.get(pk=match.pairing.round.tournament_id)
    deal(match, 2)
    moved = versions(match)[1]
    event.venue = "Клуб"
    event.save()
    assert versions(match)[1] > moved


def test_starting_an_event_moves_it_and_each_match_once(organiser, home_club, players):
    """Starting five players' round robin saves 5 entries, 5 rounds, 10 pairings with a
    match, 5 pairings with a bye and the event: each match is new (version 0), so each ends
    at 1, and the event, created at 0, moves on once — the whole start is one change."""
    event = Tournament.objects.create(name="Коледна купа", date=datetime.date(2026, 12, 20),
                                      club=home_club, format=Tournament.Format.ROUND_ROBIN)
    for number, player in enumerate(players[:5], start=1):
        Entry.objects.create(tournament=event, player=player, number=number)
    before = Tournament.objects.get(pk=event.pk).version

    services.tournament_start(tournament=event, rng=random.Random(1))

    matches = Match.objects.filter(pairing__round__tournament=event)
    assert sorted(matches.values_list("version", flat=True)) == [1] * 10
    assert Tournament.objects.get(pk=event.pk).version == before + 1

