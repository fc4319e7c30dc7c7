"""Tournament services against the database: entries, draw, start, withdrawal."""

import random

import pytest
from django.db.models import Q

from club.models import Player
from events import services
from events.errors import TournamentError
from events.models import Entry, Pairing, Tournament
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from standings import selectors

pytestmark = pytest.mark.django_db


def play(match: Match, winner: str, deals: list[int]) -> None:
    for points in deals:
        reason = {1: "won", 2: "schneider", 3: "capot"}[points]
        scoring_services.deal_record(
            match=match, score=rules.quick_result(winner, points, reason), by=None
        )


def test_start_creates_the_berger_schedule_with_byes_for_five_players(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    rounds = list(tournament.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    # FIDE table for 5 (dummy 6), round 1: 1-6, 2-5, 3-4 -> 1 rests; tables 1: 2-5, 2: 3-4.
    first = list(rounds[0].pairings.order_by("table").select_related("entry_a", "entry_b"))
    byes = [p for p in first if p.is_bye]
    played = [p for p in first if not p.is_bye]
    assert [p.entry_a.number for p in byes] == [1]
    assert [(p.table, p.entry_a.number, p.entry_b.number) for p in played] == [(1, 2, 5), (2, 3, 4)]
    assert Match.objects.count() == 10  # 5 * 4 / 2
    assert Pairing.objects.filter(entry_b__isnull=True).count() == 5  # each rests once
    lots = sorted(tournament.entries.values_list("lot", flat=True))
    assert lots == [1, 2, 3, 4, 5]


def test_start_copies_the_house_rules_into_every_match(tournament):
    tournament.set_house_rules(rules.HouseRules.preset("pagat"))
    tournament.save()
    services.tournament_start(tournament=tournament)
    assert {m.house_rules() for m in Match.objects.all()} == {rules.HouseRules.preset("pagat")}


def test_double_round_robin_has_twice_the_matches_with_seats_reversed(tournament):
    tournament.format = Tournament.Format.DOUBLE_ROUND_ROBIN
    tournament.save()
    services.tournament_start(tournament=tournament)
    assert tournament.rounds.count() == 10
    pairs = list(Match.objects.values_list("player_a", "player_b"))
    assert len(pairs) == 20
    assert {(b, a) for a, b in pairs} == set(pairs)


def test_cannot_start_twice_or_with_two_players(tournament, players):
    services.tournament_start(tournament=tournament)
    with pytest.raises(TournamentError) as error:
        services.tournament_start(tournament=tournament)
    assert error.value.code == "already_started"
    small = Tournament.objects.create(name="Малък", date="2026-12-01", format="round_robin")
    for player in players[:2]:
        services.entry_add(tournament=small, player=player)
    with pytest.raises(TournamentError) as error:
        services.tournament_start(tournament=small)
    assert error.value.code == "too_few_players"
    assert small.rounds.count() == 0


def test_remove_renumbers_and_draw_numbers_by_hand(tournament):
    entries = list(tournament.entries.order_by("number"))
    services.entry_remove(entry=entries[1])
    assert list(tournament.entries.order_by("number").values_list("number", flat=True)) == [
        1, 2, 3, 4
    ]
    remaining = [entries[0], entries[2], entries[3], entries[4]]
    services.draw_numbers_set(tournament=tournament, order=[e.pk for e in reversed(remaining)])
    assert [e.player.name for e in tournament.entries.order_by("number")] == [
        e.player.name for e in reversed(remaining)
    ]
    with pytest.raises(TournamentError):
        services.draw_numbers_set(tournament=tournament, order=[remaining[0].pk])


def test_entry_add_refuses_duplicates(tournament):
    player = tournament.entries.first().player
    with pytest.raises(TournamentError) as error:
        services.entry_add(tournament=tournament, player=player)
    assert error.value.code == "already_entered"
    newcomer = Player.objects.create(name="Петко Славов")
    assert services.entry_add(tournament=tournament, player=newcomer).number == 6


def test_withdrawal_forfeits_the_remaining_matches(tournament, organiser):
    services.tournament_start(tournament=tournament)
    leaver = tournament.entries.get(number=2)
    first_match = Pairing.objects.filter(entry_a=leaver, match__isnull=False).first().match
    play(first_match, "A", [3, 3, 3, 2])  # 11:0 to the withdrawing player in seat A
    services.entry_withdraw(entry=leaver, by=organiser)
    own = Match.objects.filter(Q(pairing__entry_a=leaver) | Q(pairing__entry_b=leaver))
    statuses = sorted(own.values_list("status", flat=True))
    assert statuses == ["finished", "forfeited", "forfeited", "forfeited"]
    forfeited = own.filter(status="forfeited").first()
    leaver_seat = "A" if forfeited.player_a_id == leaver.player_id else "B"
    assert forfeited.winner == ("B" if leaver_seat == "A" else "A")
    assert {forfeited.game_points_a, forfeited.game_points_b} == {11, 0}


def test_fide_withdrawal_under_half_cancels_all_results(tournament, organiser):
    tournament.withdrawal_policy = Tournament.WithdrawalPolicy.FIDE
    tournament.save()
    services.tournament_start(tournament=tournament)
    leaver = tournament.entries.get(number=2)
    first_match = Pairing.objects.filter(entry_a=leaver, match__isnull=False).first().match
    play(first_match, "A", [3, 3, 3, 2])  # 1 of 4 played: under half
    services.entry_withdraw(entry=leaver, by=organiser)
    table = selectors.standings_with_withdrawn(tournament)
    rows = {entry.number: row for entry, row in table.ranked}
    assert sorted(rows) == [1, 3, 4, 5] and [e.number for e in table.withdrawn] == [2]
    assert sum(row.played for row in rows.values()) == 0
    assert not Match.objects.filter(status="forfeited").exists()


def test_standings_count_finished_matches_only(tournament):
    services.tournament_start(tournament=tournament)
    matches = [p.match for p in Pairing.objects.filter(match__isnull=False).order_by("pk")]
    play(matches[0], "A", [3, 3, 3, 2])       # finished 11:0
    play(matches[1], "B", [3, 3])             # still playing 0:6
    standings = selectors.standings(tournament)
    played = {entry.pk: row.played for entry, row in standings}
    assert sum(played.values()) == 2
    top_entry, top_row = standings[0]
    assert top_entry.player_id == matches[0].player_a_id
    assert (top_row.won, top_row.game_points_for, top_row.game_points_against) == (1, 11, 0)


def test_entry_numbers_stay_unique(tournament):
    numbers = list(Entry.objects.filter(tournament=tournament).values_list("number", flat=True))
    assert len(numbers) == len(set(numbers))


def test_tournament_finishes_with_its_last_match_and_reopens_on_undo(tournament):
    services.tournament_start(tournament=tournament)
    matches = [p.match for p in Pairing.objects.filter(match__isnull=False).order_by("pk")]
    for match in matches:
        play(match, "A", [3, 3, 3, 2])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    scoring_services.deal_undo_last(match=matches[-1], by=None)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
