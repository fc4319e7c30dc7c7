"""Knockout services against the database: the draw, advancement, third place, corrections,
withdrawals, seeding from standings. Every bracket below is worked out by hand.

Six players: bracket size 8, bracket_slots(8) = 1,8,4,5,2,7,3,6, seeds 7 and 8 do not exist,
so round 1 (quarterfinals) is (1, bye), (4, 5), (2, bye), (3, 6); the round-1 tables are
numbered over the real matches only: 4-5 is table 1, 3-6 table 2. Seeds 1 and 2 go straight
to the semifinals: semifinal 1 is 1 v winner(4-5), semifinal 2 is 2 v winner(3-6).
"""

import datetime
import random
from functools import partial

import pytest
from django.utils import translation

from club.models import Player
from events import services
from events.errors import TournamentError
from events.models import Entry, Pairing, Tournament
from formats.knockout import selectors
from formats.knockout import services as knockout
from scoring import rules
from scoring import services as scoring_services
from scoring.errors import ConfirmationRequired
from scoring.models import Deal, Match
from tests.concurrency import run_at_once
from tests.services import require_vendor

pytestmark = pytest.mark.django_db

NAMES = ["Иван Петров", "Мария Георгиева", "Георги Димитров", "Елена Стоянова",
         "Димитър Николов", "Светла Иванова", "Николай Тодоров", "Йорданка Христова",
         "Петър Василев", "Радка Колева", "Стоян Маринов", "Цветелина Пенева",
         "Борис Ангелов", "Веселина Тодорова"]
ELEVEN_NIL = [3, 3, 3, 2]
REASON = {1: "won", 2: "schneider", 3: "capot"}


def make_knockout(count: int, third_place: bool = False, name: str = "Купа") -> Tournament:
    tournament = Tournament.objects.create(
        name=name, date=datetime.date(2026, 12, 5), format=Tournament.Format.KNOCKOUT,
        third_place_match=third_place,
    )
    for seed, player_name in enumerate(NAMES[:count], start=1):
        player, _ = Player.objects.get_or_create(name=player_name)
        Entry.objects.create(tournament=tournament, player=player, number=seed)
    return tournament


def started(count: int, third_place: bool = False) -> Tournament:
    tournament = make_knockout(count, third_place)
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def at(tournament, number: int, index: int, third_place: bool = False) -> Pairing:
    return Pairing.objects.select_related("entry_a", "entry_b", "match").get(
        round__tournament=tournament, round__number=number, bracket_index=index,
        is_third_place=third_place,
    )


def seeds(pairing: Pairing) -> tuple:
    return (
        pairing.entry_a.number if pairing.entry_a else None,
        pairing.entry_b.number if pairing.entry_b else None,
    )


def play(match: Match, seat: str, deals=ELEVEN_NIL, **kwargs) -> None:
    for points in deals:
        scoring_services.deal_record(
            match=match, score=rules.quick_result(seat, points, REASON[points]), by=None
        )
    match.refresh_from_db()


def win(tournament, number: int, index: int, seat: str, third_place: bool = False) -> None:
    play(at(tournament, number, index, third_place).match, seat)


def status(tournament) -> str:
    tournament.refresh_from_db()
    return tournament.status


# --- the draw ---------------------------------------------------------------------------------


def test_six_players_seeds_one_and_two_get_the_byes():
    tournament = started(6)
    assert tournament.status == Tournament.Status.RUNNING
    assert list(tournament.rounds.values_list("number", flat=True)) == [1, 2, 3]
    first = [at(tournament, 1, index) for index in range(4)]
    assert [seeds(p) for p in first] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [p.walkover for p in first] == ["A", "", "A", ""]
    assert [p.table for p in first] == [None, 1, None, 2]
    assert [p.match_id is not None for p in first] == [False, True, False, True]
    # The byes moved on at once: seat A of both semifinals; the final is empty.
    assert [seeds(at(tournament, 2, index)) for index in range(2)] == [(1, None), (2, None)]
    assert seeds(at(tournament, 3, 0)) == (None, None)
    assert Match.objects.count() == 2
    match = first[1].match
    assert (match.player_a.name, match.player_b.name, match.first_dealer) == (
        NAMES[3], NAMES[4], "A"
    )


def test_thirteen_players_three_byes_and_five_first_round_matches():
    tournament = started(13)
    # bracket_slots(16) = 1,16,8,9,4,13,5,12,2,15,7,10,3,14,6,11; seeds 14-16 are byes.
    first = [seeds(at(tournament, 1, index)) for index in range(8)]
    assert first == [(1, None), (8, 9), (4, 13), (5, 12), (2, None), (7, 10), (3, None),
                     (6, 11)]
    tables = [at(tournament, 1, index).table for index in range(8)]
    assert tables == [None, 1, 2, 3, None, 4, None, 5]
    assert [seeds(at(tournament, 2, index)) for index in range(4)] == [
        (1, None), (None, None), (2, None), (3, None)
    ]
    assert Pairing.objects.filter(round__tournament=tournament).count() == 8 + 4 + 2 + 1
    assert Match.objects.count() == 5
    bracket = selectors.bracket(tournament)
    with translation.override("en"):
        bracket = selectors.bracket(tournament)
        assert [c.label for c in bracket.columns] == [
            "Round of 16", "Quarterfinal", "Semifinal", "Final"
        ]
    assert [m.state for m in bracket.columns[0].matches] == [
        "bye", "scheduled", "scheduled", "scheduled", "bye", "scheduled", "bye", "scheduled"
    ]


def test_two_byes_meeting_in_round_two_play_at_once():
    # Five players: (1, bye), (4, 5), (2, bye), (3, bye): seeds 2 and 3 meet in the semifinal.
    tournament = started(5)
    assert seeds(at(tournament, 2, 1)) == (2, 3)
    assert at(tournament, 2, 1).match is not None
    assert seeds(at(tournament, 2, 0)) == (1, None)
    assert Match.objects.count() == 2


def test_two_players_play_the_final_only():
    tournament = started(2)
    final = at(tournament, 1, 0)
    assert seeds(final) == (1, 2) and final.table == 1
    play(final.match, "B")
    assert status(tournament) == Tournament.Status.FINISHED
    assert selectors.bracket(tournament).champion.number == 2


def test_start_refuses_what_it_cannot_draw(players):
    one = make_knockout(1, name="Един")
    with pytest.raises(TournamentError) as error:
        knockout.knockout_start(tournament=one)
    assert error.value.code == "too_few_knockout_players"
    three = make_knockout(3, third_place=True, name="Трима")
    with pytest.raises(TournamentError) as error:
        knockout.knockout_start(tournament=three)
    assert error.value.code == "third_place_needs_four"
    assert not three.rounds.exists()
    round_robin = Tournament.objects.create(name="Кръгова", date="2026-12-01",
                                            format=Tournament.Format.ROUND_ROBIN)
    with pytest.raises(TournamentError) as error:
        knockout.knockout_start(tournament=round_robin)
    assert error.value.code == "not_knockout"
    tournament = started(4)
    with pytest.raises(TournamentError) as error:
        knockout.knockout_start(tournament=tournament)
    assert error.value.code == "already_started"
    with pytest.raises(TournamentError) as error:
        services.tournament_start(tournament=make_knockout(4, name="Друга"))
    assert error.value.code == "not_round_robin"


def test_a_knockout_takes_at_most_128_players():
    tournament = make_knockout(0)
    Entry.objects.bulk_create([
        Entry(tournament=tournament, number=seed,
              player=Player.objects.create(name=f"Играч {seed}"))
        for seed in range(1, 129)
    ])
    with pytest.raises(TournamentError) as error:
        services.entry_add(tournament=tournament, player=Player.objects.create(name="Още един"))
    assert error.value.code == "too_many_knockout_players"
    knockout.knockout_start(tournament=tournament)
    assert tournament.rounds.count() == 7
    assert Match.objects.count() == 64


def test_seeds_are_renumbered_without_gaps_and_lots_drawn():
    tournament = make_knockout(4)
    Entry.objects.filter(tournament=tournament, number=4).update(number=9)
    knockout.knockout_start(tournament=tournament, rng=random.Random(3))
    assert sorted(tournament.entries.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert sorted(tournament.entries.values_list("lot", flat=True)) == [1, 2, 3, 4]
    assert seeds(at(tournament, 1, 0)) == (1, 4) and seeds(at(tournament, 1, 1)) == (2, 3)


def test_seeds_by_lot_is_a_permutation():
    tournament = make_knockout(6)
    knockout.seeds_by_lot(tournament=tournament, rng=random.Random(5))
    assert sorted(tournament.entries.values_list("number", flat=True)) == [1, 2, 3, 4, 5, 6]


# --- advancement ------------------------------------------------------------------------------


def test_winners_advance_to_the_champion_with_a_third_place_match():
    tournament = started(6, third_place=True)
    third = at(tournament, 3, 0, third_place=True)
    assert (third.table, seeds(third)) == (2, (None, None))
    win(tournament, 1, 1, "A")  # 4 beats 5: seat B of semifinal 1, whose match is created
    semifinal = at(tournament, 2, 0)
    assert seeds(semifinal) == (1, 4) and semifinal.match is not None
    assert (semifinal.match.player_a.name, semifinal.match.player_b.name) == (NAMES[0], NAMES[3])
    win(tournament, 1, 3, "B")  # 6 beats 3
    assert seeds(at(tournament, 2, 1)) == (2, 6)
    win(tournament, 2, 0, "B")  # 4 beats 1: 4 to the final, seat A; 1 to third place, seat A
    assert seeds(at(tournament, 3, 0)) == (4, None)
    assert seeds(at(tournament, 3, 0, third_place=True)) == (1, None)
    win(tournament, 2, 1, "A")  # 2 beats 6
    assert seeds(at(tournament, 3, 0)) == (4, 2)
    assert seeds(at(tournament, 3, 0, third_place=True)) == (1, 6)
    assert Match.objects.count() == 6
    win(tournament, 3, 0, "B")  # 2 is champion, but the third-place match is still to play
    assert status(tournament) == Tournament.Status.RUNNING
    win(tournament, 3, 0, "B", third_place=True)  # 6 is third
    assert status(tournament) == Tournament.Status.FINISHED
    bracket = selectors.bracket(tournament)
    assert (bracket.champion.number, bracket.runner_up.number, bracket.third.number) == (2, 4, 6)


def test_without_a_third_place_match_the_final_ends_the_tournament():
    tournament = started(4)
    win(tournament, 1, 0, "A")
    win(tournament, 1, 1, "A")
    assert not Pairing.objects.filter(is_third_place=True).exists()
    win(tournament, 2, 0, "A")
    assert status(tournament) == Tournament.Status.FINISHED


def test_a_forfeit_advances_the_winner_too():
    tournament = started(6)
    scoring_services.match_forfeit(match=at(tournament, 1, 1).match, winner="B", by=None)
    assert seeds(at(tournament, 2, 0)) == (1, 5)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_semifinals_ending_at_once_both_reach_the_final(vendor):
    """The two matches feeding one pairing end in the same moment: each fills its seat and the
    final gets exactly one match (the pairing row is locked while it changes)."""
    require_vendor(vendor)
    tournament = started(4)  # semifinals 1 v 4 and 2 v 3
    semifinals = [at(tournament, 1, index).match for index in (0, 1)]
    for match in semifinals:
        play(match, "A", [3, 3, 3])  # 9:0, the next deal ends it
    def finish(match):
        scoring_services.deal_record(
            match=match, score=rules.quick_result("A", 2, "schneider"), by=None
        )
        return "finished"

    outcomes = run_at_once(*(partial(finish, match) for match in semifinals))

    assert outcomes == ["finished", "finished"]
    final = at(tournament, 2, 0)
    assert seeds(final) == (1, 2) and final.match is not None
    assert Match.objects.filter(player_a=final.entry_a.player).count() == 2  # semifinal, final


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_a_confirmed_correction_and_a_deal_downstream_at_once_do_not_deadlock(vendor):
    """The quarterfinal 4-5 is undone (confirmed) while the semifinal it fed, 1 v 4 at 9:0,
    gets its last deal. Whichever goes first, neither waits for the other forever, and the
    bracket ends up the same: the semifinal and 4's places are cleared."""
    require_vendor(vendor)
    tournament = started(6)
    quarterfinal = at(tournament, 1, 1).match
    play(quarterfinal, "A")
    semifinal = at(tournament, 2, 0).match
    play(semifinal, "A", [3, 3, 3])
    def undo():
        scoring_services.deal_undo_last(match=quarterfinal, by=None, confirmed=True)
        return "done"

    def deal():
        scoring_services.deal_record(
            match=semifinal, score=rules.quick_result("A", 2, "schneider"), by=None
        )
        return "done"

    undone, dealt = run_at_once(undo, deal)

    assert undone == "done"
    assert dealt in ("done", "match_removed")
    assert seeds(at(tournament, 2, 0)) == (1, None) and at(tournament, 2, 0).match is None
    assert seeds(at(tournament, 3, 0)) == (None, None)
    assert not Match.objects.filter(pk=semifinal.pk).exists()
    assert quarterfinal.deals.count() == 3


# --- corrections ------------------------------------------------------------------------------


def test_undo_before_the_next_match_started_repairs_the_bracket_silently():
    tournament = started(6)
    win(tournament, 1, 1, "A")  # 4 beats 5 11:0 (3, 3, 3, 2)
    old = at(tournament, 2, 0).match
    scoring_services.deal_undo_last(match=at(tournament, 1, 1).match, by=None)
    semifinal = at(tournament, 2, 0)
    assert seeds(semifinal) == (1, None) and semifinal.match is None
    assert not Match.objects.filter(pk=old.pk).exists()
    assert Match.history.filter(id=old.pk, history_type="-").get().history_change_reason == (
        knockout.CLEARED
    )
    # 5 comes back from 8:0 with 3 + 3 + 3 + 2 and meets 1 in a new match.
    play(at(tournament, 1, 1).match, "B")
    semifinal = at(tournament, 2, 0)
    assert seeds(semifinal) == (1, 5) and semifinal.match.pk != old.pk
    assert semifinal.match.player_b.name == NAMES[4]


def test_a_correction_that_changes_the_winner_swaps_the_player_downstream():
    tournament = started(6)
    quarterfinal = at(tournament, 1, 1).match
    # 4 (A) and 5 (B) reach 9:9, then deal 7 gives A 2: 11:9.
    play(quarterfinal, "A", [3, 3, 3])
    play(quarterfinal, "B", [3, 3, 3])
    play(quarterfinal, "A", [2])
    assert seeds(at(tournament, 2, 0)) == (1, 4)
    deal = quarterfinal.deals.get(number=7)
    scoring_services.deal_correct(
        deal=deal, score=rules.quick_result("B", 2, "schneider"), by=None, reason="грешка"
    )
    semifinal = at(tournament, 2, 0)
    assert seeds(semifinal) == (1, 5)
    assert semifinal.match.player_b.name == NAMES[4]
    assert Match.objects.filter(pairing__round__tournament=tournament).count() == 3


def test_undo_after_the_next_match_started_needs_confirmation_then_clears_it():
    tournament = started(6)
    win(tournament, 1, 1, "A")  # 4 beats 5
    semifinal = at(tournament, 2, 0).match
    play(semifinal, "A", [3])
    play(semifinal, "B", [2])  # 1 v 4: 3:2 after 2 deals
    quarterfinal = at(tournament, 1, 1).match
    with translation.override("en"), pytest.raises(ConfirmationRequired) as asked:
        scoring_services.deal_undo_last(match=quarterfinal, by=None, number=4)
    assert asked.value.code == "confirmation_required"
    assert asked.value.consequences == [
        f"Semifinal, table 1: {NAMES[0]} – {NAMES[3]}, 3:2 after 2 deals, will be cleared.",
        f"{NAMES[3]} is taken out of: Semifinal, table 1.",
    ]
    # Nothing changed: the quarterfinal still has its 4 deals, the semifinal its 2.
    assert quarterfinal.deals.count() == 4 and semifinal.deals.count() == 2
    assert at(tournament, 2, 0).match_id == semifinal.pk

    scoring_services.deal_undo_last(match=quarterfinal, by=None, number=4, confirmed=True)
    quarterfinal.refresh_from_db()
    assert (quarterfinal.status, quarterfinal.game_points_a) == (Match.Status.PLAYING, 9)
    assert seeds(at(tournament, 2, 0)) == (1, None) and at(tournament, 2, 0).match is None
    assert not Match.objects.filter(pk=semifinal.pk).exists()
    # The history keeps both: the undone quarterfinal deal and the cleared semifinal deals.
    cleared = Deal.history.filter(match_id=semifinal.pk, history_type="-")
    assert cleared.count() == 2
    assert set(cleared.values_list("history_change_reason", flat=True)) == {knockout.CLEARED}
    assert Deal.history.filter(match_id=quarterfinal.pk, history_type="-").get().number == 4


def test_a_correction_deep_in_the_bracket_clears_everything_decided_after_it():
    tournament = started(6, third_place=True)
    win(tournament, 1, 1, "A")  # 4 beats 5
    win(tournament, 1, 3, "A")  # 3 beats 6
    win(tournament, 2, 0, "B")  # 4 beats 1: final A = 4, third place A = 1
    win(tournament, 2, 1, "A")  # 2 beats 3: final B = 2, third place B = 3
    final = at(tournament, 3, 0).match
    play(final, "A", [1])  # the final is under way, 1:0
    third = at(tournament, 3, 0, third_place=True).match
    with translation.override("en"), pytest.raises(ConfirmationRequired) as asked:
        scoring_services.deal_undo_last(match=at(tournament, 1, 1).match, by=None)
    assert asked.value.consequences == [
        f"Final, table 1: {NAMES[3]} – {NAMES[1]}, 1:0 after 1 deal, will be cleared.",
        f"Semifinal, table 1: {NAMES[0]} – {NAMES[3]}, 0:11 after 4 deals, will be cleared.",
        f"{NAMES[3]} is taken out of: Final, table 1.",
        f"{NAMES[0]} is taken out of: Third-place match, table 2.",
        f"{NAMES[3]} is taken out of: Semifinal, table 1.",
    ]
    scoring_services.deal_undo_last(match=at(tournament, 1, 1).match, by=None, confirmed=True)
    assert seeds(at(tournament, 2, 0)) == (1, None)
    assert seeds(at(tournament, 3, 0)) == (None, 2)
    assert seeds(at(tournament, 3, 0, third_place=True)) == (None, 3)
    assert not Match.objects.filter(pk__in=[final.pk, third.pk]).exists()


def test_undoing_the_final_reopens_a_finished_tournament():
    tournament = started(2)
    win(tournament, 1, 0, "A")
    assert status(tournament) == Tournament.Status.FINISHED
    scoring_services.deal_undo_last(match=at(tournament, 1, 0).match, by=None)
    assert status(tournament) == Tournament.Status.RUNNING


# --- withdrawals ------------------------------------------------------------------------------


def test_withdrawal_before_the_match_is_a_walkover_not_a_match():
    tournament = started(6)
    five = tournament.entries.get(number=5)
    scheduled = at(tournament, 1, 1).match
    knockout.knockout_withdraw(entry=five, by=None)
    quarterfinal = at(tournament, 1, 1)
    assert quarterfinal.match is None and quarterfinal.walkover == "A"
    assert Match.history.filter(id=scheduled.pk, history_type="-").exists()
    assert seeds(at(tournament, 2, 0)) == (1, 4)
    box = selectors.bracket(tournament).columns[0].matches[1]
    assert box.state == "walkover"
    assert [(s.won, s.walkover, s.withdrawn, s.game_points) for s in box.sides] == [
        (True, True, False, None), (False, False, True, None)
    ]


def test_withdrawal_while_waiting_for_the_opponent_lets_the_opponent_through_later():
    tournament = started(6)
    knockout.knockout_withdraw(entry=tournament.entries.get(number=2), by=None)
    semifinal = at(tournament, 2, 1)
    assert seeds(semifinal) == (2, None) and semifinal.walkover == "B"
    win(tournament, 1, 3, "A")  # 3 beats 6, arrives in seat B and walks over into the final
    assert at(tournament, 2, 1).match is None
    assert seeds(at(tournament, 3, 0)) == (None, 3)


def test_withdrawal_during_a_match_forfeits_it():
    tournament = started(6)
    quarterfinal = at(tournament, 1, 1).match
    play(quarterfinal, "A", [2])
    knockout.knockout_withdraw(entry=tournament.entries.get(number=4), by=None)
    quarterfinal.refresh_from_db()
    assert (quarterfinal.status, quarterfinal.winner) == (Match.Status.FORFEITED, "B")
    assert (quarterfinal.game_points_a, quarterfinal.game_points_b) == (2, 11)
    assert seeds(at(tournament, 2, 0)) == (1, 5)


def test_withdrawal_in_the_final_makes_the_opponent_champion():
    tournament = started(2)
    knockout.knockout_withdraw(entry=tournament.entries.get(number=1), by=None)
    assert status(tournament) == Tournament.Status.FINISHED
    assert selectors.bracket(tournament).champion.number == 2


def test_a_semifinalist_who_withdraws_also_gives_up_third_place():
    # Four players: semifinals 1 v 4 and 2 v 3; seed 4 withdraws before playing.
    tournament = started(4, third_place=True)
    knockout.knockout_withdraw(entry=tournament.entries.get(number=4), by=None)
    assert seeds(at(tournament, 2, 0)) == (1, None)
    third = at(tournament, 2, 0, third_place=True)
    assert (seeds(third), third.walkover, third.match) == ((4, None), "B", None)
    win(tournament, 1, 1, "B")  # 3 beats 2: 3 to the final, 2 to third place, which 2 wins
    assert seeds(at(tournament, 2, 0, third_place=True)) == (4, 2)
    assert status(tournament) == Tournament.Status.RUNNING  # the final is still to play
    win(tournament, 2, 0, "A")
    assert status(tournament) == Tournament.Status.FINISHED
    bracket = selectors.bracket(tournament)
    assert (bracket.champion.number, bracket.runner_up.number, bracket.third.number) == (1, 3, 2)


def test_withdrawal_of_a_player_who_is_out_only_marks_them():
    tournament = started(6)
    win(tournament, 1, 1, "A")
    five = tournament.entries.get(number=5)
    knockout.knockout_withdraw(entry=five, by=None)
    five.refresh_from_db()
    assert five.withdrawn
    assert seeds(at(tournament, 2, 0)) == (1, 4) and at(tournament, 2, 0).match is not None
    with pytest.raises(TournamentError) as error:
        knockout.knockout_withdraw(entry=five, by=None)
    assert error.value.code == "already_withdrawn"


def test_withdrawal_before_the_start_is_refused():
    tournament = make_knockout(4)
    with pytest.raises(TournamentError) as error:
        knockout.knockout_withdraw(entry=tournament.entries.first(), by=None)
    assert error.value.code == "not_started"
    assert not tournament.entries.filter(withdrawn=True).exists()


def test_a_correction_upstream_of_a_withdrawal_undoes_the_walkover():
    tournament = started(6)
    win(tournament, 1, 1, "A")  # 4 beats 5 and waits for 1 in the semifinal
    knockout.knockout_withdraw(entry=tournament.entries.get(number=4), by=None)
    assert at(tournament, 2, 0).walkover == "A"  # 1 goes through to the final
    assert seeds(at(tournament, 3, 0)) == (1, None)
    # The quarterfinal is corrected: 4 did not win after all; 1 must wait for 5 and play.
    scoring_services.deal_undo_last(match=at(tournament, 1, 1).match, by=None)
    semifinal = at(tournament, 2, 0)
    assert (seeds(semifinal), semifinal.walkover) == ((1, None), "")
    assert seeds(at(tournament, 3, 0)) == (None, None)
    play(at(tournament, 1, 1).match, "B")
    assert at(tournament, 2, 0).match is not None


# --- seeding from a round robin's standings --------------------------------------------------


@pytest.fixture
def finished_round_robin(players) -> Tournament:
    """Four players; the lower draw number wins every match 11:0, so the standings are
    1, 2, 3, 4 (3, 2, 1 and 0 wins)."""
    source = Tournament.objects.create(name="Кръгова", date="2026-11-01",
                                       format=Tournament.Format.ROUND_ROBIN)
    for player in players[:4]:
        services.entry_add(tournament=source, player=player)
    services.tournament_start(tournament=source, rng=random.Random(1))
    for pairing in Pairing.objects.filter(round__tournament=source, match__isnull=False):
        seat = "A" if pairing.entry_a.number < pairing.entry_b.number else "B"
        play(pairing.match, seat)
    source.refresh_from_db()
    assert source.status == Tournament.Status.FINISHED
    return source


def test_seeds_from_the_standings_of_a_finished_round_robin(finished_round_robin, players):
    tournament = make_knockout(0)
    Entry.objects.create(tournament=tournament, player=players[6], number=1)
    knockout.seeds_from_standings(tournament=tournament, source=finished_round_robin, count=3)
    names = list(tournament.entries.order_by("number").values_list("number", "player__name"))
    assert names == [(1, NAMES[0]), (2, NAMES[1]), (3, NAMES[2])]
    tournament.refresh_from_db()
    assert tournament.seeded_from == finished_round_robin
    knockout.knockout_start(tournament=tournament)
    assert seeds(at(tournament, 1, 0)) == (1, None) and seeds(at(tournament, 1, 1)) == (2, 3)


def test_seeds_from_standings_leave_out_withdrawn_players(finished_round_robin):
    Entry.objects.filter(tournament=finished_round_robin, number=2).update(withdrawn=True)
    tournament = make_knockout(0)
    knockout.seeds_from_standings(tournament=tournament, source=finished_round_robin)
    names = list(tournament.entries.order_by("number").values_list("player__name", flat=True))
    assert names == [NAMES[0], NAMES[2], NAMES[3]]


def test_seeds_from_standings_refuse_bad_sources_and_counts(finished_round_robin, tournament):
    knockout_draft = make_knockout(2)
    for source, count, code in [
        (tournament, None, "source_not_finished"),
        (knockout_draft, None, "source_not_round_robin"),
        (finished_round_robin, 5, "bad_seed_count"),
        (finished_round_robin, 1, "bad_seed_count"),
    ]:
        with pytest.raises(TournamentError) as error:
            knockout.seeds_from_standings(tournament=knockout_draft, source=source, count=count)
        assert error.value.code == code
    assert knockout_draft.entries.count() == 2
