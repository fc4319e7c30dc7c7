"""Groups, then a knockout, against the database. Every figure below is worked out by hand.

Twelve players, seeds 1..12, three groups, two go on from each. Snake order: seeds 1, 2, 3
go to A, B, C; 4, 5, 6 back to C, B, A; 7, 8, 9 to A, B, C; 10, 11, 12 to C, B, A. So
A = 1, 6, 7, 12; B = 2, 5, 8, 11; C = 3, 4, 9, 10 (group numbers 1, 2, 3 within each group
in that order). Each group of four plays the Berger table for 4: round 1 is 1-4 and 2-3,
round 2 is 4-3 and 1-2, round 3 is 2-4 and 3-1; tables run across the groups, A first.

When the better seed wins every group match, the groups finish A: 1, 6, 7, 12; B: 2, 5, 8,
11; C: 3, 4, 9, 10. The knockout's six players (bracket of 8, rounds 4, 5, 6 of the event)
are seeded A1, B1, C1 (seeds 1-3), then the runners-up ordered so that none meets its own
group early: seed 4 = C2 (meets A1 only in the semifinal... it is in the top half, the half
of A1, while C1 is in the bottom half), seed 5 = B2 (top half; B1 is bottom), seed 6 = A2
(bottom; A1 is top). Round 1 of a bracket of 8 for 6 players: (1, bye), (4, 5), (2, bye),
(3, 6): A1 bye; C2 v B2; B1 bye; C1 v A2.
"""

import datetime
import random
from functools import partial

import pytest
from django.utils import translation

from club.models import Player
from events import registry
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from formats.groups import services as groups
from formats.groups.errors import GroupStageOver
from formats.knockout import selectors as knockout_selectors
from scoring import services as scoring_services
from scoring.models import Match
from standings import selectors as standings_selectors
from tests.concurrency import run_at_once
from tests.playing import play
from tests.services import require_vendor

pytestmark = pytest.mark.django_db

NAMES = [f"Играч {n:02d}" for n in range(1, 19)]
WIN_A, WIN_B = "A3 A3 A3 A2", "B3 B3 B3 B2"


def make_event(count: int, groups_: int | None = 3, advance: int | None = 2,
               third_place: bool = False) -> Tournament:
    tournament = Tournament.objects.create(
        name="Купа по групи", date=datetime.date(2026, 12, 5),
        format=Tournament.Format.GROUPS_KNOCKOUT, group_count=groups_, group_advance=advance,
        third_place_match=third_place,
    )
    for seed, name in enumerate(NAMES[:count], start=1):
        player, _ = Player.objects.get_or_create(name=name)
        Entry.objects.create(tournament=tournament, player=player, number=seed)
    return tournament


def started(count: int = 12, **kwargs) -> Tournament:
    tournament = make_event(count, **kwargs)
    registry.for_tournament(tournament).start(rng=random.Random(3))
    tournament.refresh_from_db()
    return tournament


def seed_of(entry: Entry | None) -> int | None:
    return entry.number if entry else None


def play_groups_by_seed(tournament: Tournament) -> None:
    """The better seed (lower number) wins every group match not over yet."""
    for pairing in Pairing.objects.filter(
        round__tournament=tournament, round__stage=Round.Stage.GROUPS, match__isnull=False
    ).exclude(match__status__in=Match.OVER).select_related(
        "entry_a", "entry_b", "match"
    ).order_by("round__number", "table"):
        play(pairing.match, WIN_A if pairing.entry_a.number < pairing.entry_b.number else WIN_B)


def test_twelve_players_in_three_groups_of_four_by_snake_order():
    tournament = started()
    by_group = {}
    for entry in tournament.entries.order_by("number"):
        by_group.setdefault(entry.group_letter, []).append(entry.number)
    assert by_group == {"A": [1, 6, 7, 12], "B": [2, 5, 8, 11], "C": [3, 4, 9, 10]}
    assert list(tournament.rounds.values_list("number", "stage")) == [
        (1, "groups"), (2, "groups"), (3, "groups")]
    first = [(p.table, p.entry_a.number, p.entry_b.number)
             for p in Pairing.objects.filter(round__tournament=tournament, round__number=1)
             .select_related("entry_a", "entry_b").order_by("table")]
    assert first == [(1, 1, 12), (2, 6, 7), (3, 2, 11), (4, 5, 8), (5, 3, 10), (6, 4, 9)]
    assert tournament.status == Tournament.Status.RUNNING
    assert registry.for_tournament(tournament).can_start_knockout()


def test_the_last_group_match_draws_the_knockout_from_the_group_places():
    tournament = started()
    play_groups_by_seed(tournament)
    tables = standings_selectors.group_tables(tournament)
    assert [(t.letter, t.size, [e.number for e, _row in t.ranked]) for t in tables] == [
        ("A", 4, [1, 6, 7, 12]), ("B", 4, [2, 5, 8, 11]), ("C", 4, [3, 4, 9, 10])]
    assert [sorted(e.number for e in t.qualifiers()) for t in tables] == [[1, 6], [2, 5], [3, 4]]
    assert list(tournament.rounds.filter(stage="knockout").values_list("number", flat=True)) == [
        4, 5, 6]
    first = [(p.bracket_index, seed_of(p.entry_a), seed_of(p.entry_b), p.walkover)
             for p in Pairing.objects.filter(round__tournament=tournament, round__number=4)
             .select_related("entry_a", "entry_b").order_by("bracket_index")]
    assert first == [(0, 1, None, "A"), (1, 4, 5, ""), (2, 2, None, "A"), (3, 3, 6, "")]
    semis = [(seed_of(p.entry_a), seed_of(p.entry_b))
             for p in Pairing.objects.filter(round__tournament=tournament, round__number=5)
             .select_related("entry_a", "entry_b").order_by("bracket_index")]
    assert semis == [(1, None), (2, None)]
    with translation.override("en"):
        labels = registry.for_tournament(tournament).round_labels(6)
    assert labels[4] == "Quarterfinal" and labels[6] == "Final" and labels[1] == "Groups"


def test_the_knockout_is_played_to_the_final_and_the_event_finishes():
    tournament = started()
    play_groups_by_seed(tournament)
    for number in (4, 5, 6):
        for pairing in Pairing.objects.filter(
            round__tournament=tournament, round__number=number, match__isnull=False
        ).select_related("match"):
            play(pairing.match, WIN_B)  # the lower seat (the worse seed) wins each time
    tournament.refresh_from_db()
    bracket = knockout_selectors.bracket(tournament)
    # Quarterfinals: 5 beats 4, 6 beats 3; semifinals: 5 beats 1, 6 beats 2; final 6 beats 5.
    assert seed_of(bracket.champion) == 6 and seed_of(bracket.runner_up) == 5
    assert tournament.status == Tournament.Status.FINISHED


def test_uneven_groups_ten_players_sizes_three_three_four():
    tournament = started(10)
    tables = standings_selectors.group_tables(tournament)
    assert [t.size for t in tables] == [3, 3, 4]
    by_group = {}
    for entry in tournament.entries.order_by("number"):
        by_group.setdefault(entry.group_letter, []).append(entry.number)
    assert by_group == {"A": [1, 6, 7], "B": [2, 5, 8], "C": [3, 4, 9, 10]}
    # Groups of three rest one player a round (three rounds each); C plays two matches.
    rests = Pairing.objects.filter(round__tournament=tournament, round__number=1,
                                   entry_b__isnull=True).count()
    assert rests == 2
    assert tournament.rounds.count() == 3


@pytest.mark.parametrize(("count", "groups_", "advance", "code", "params"), [
    (5, 2, 1, "groups_too_small", {"players": 5, "groups": 2, "min_size": 3}),
    (3, 2, 1, "groups_too_small", {"players": 3, "groups": 2, "min_size": 3}),
    (17, 2, 1, "groups_too_large", {"players": 17, "groups": 2, "max_size": 8}),
    (12, 3, 4, "bad_group_advance", {"low": 1, "high": 3}),
    (12, 3, 0, "groups_not_set", {}),
    (6, 1, 1, "bad_group_advance", {"low": 2, "high": 5}),
    (12, None, 2, "groups_not_set", {}),
])
def test_bad_groups_are_refused_and_nothing_is_written(count, groups_, advance, code, params):
    tournament = make_event(count, groups_, advance)
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(tournament).start(rng=random.Random(1))
    assert (error.value.code, error.value.params) == (code, params)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT
    assert not tournament.rounds.exists() and not Match.objects.exists()
    assert not tournament.entries.filter(group__isnull=False).exists()


def test_third_place_needs_four_players_going_on():
    tournament = make_event(6, groups_=2, advance=1, third_place=True)
    with pytest.raises(TournamentError) as error:
        groups.groups_start(tournament=tournament)
    assert error.value.code == "third_place_needs_four"
    assert not tournament.rounds.exists()


def test_create_and_start_in_one_go_writes_nothing_on_bad_input():
    with pytest.raises(TournamentError) as error:
        groups.groups_event_create(name="Лоша", players=NAMES[:5], groups=2, advance=1)
    assert error.value.code == "groups_too_small"
    assert not Tournament.objects.exists() and not Player.objects.exists()
    tournament = groups.groups_event_create(
        name="Добра", players=NAMES[:12], groups=3, advance=2, rng=random.Random(2))
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.entries.get(number=4).group_letter == "C"
    assert Match.objects.count() == 6 * 3


def test_starting_the_knockout_early_asks_first_then_closes_the_open_group_matches():
    tournament = started()
    play_groups_by_seed(tournament)  # draws the knockout: start another one instead
    tournament = started()
    pairings = list(Pairing.objects.filter(
        round__tournament=tournament, round__stage="groups", match__isnull=False
    ).select_related("entry_a", "entry_b", "match").order_by("round__number", "table"))
    for pairing in pairings[:-2]:
        play(pairing.match, WIN_A if pairing.entry_a.number < pairing.entry_b.number else WIN_B)
    play(pairings[-1].match, "A1")  # one match being played, one not started
    event_format = registry.for_tournament(tournament)
    with pytest.raises(TournamentError) as error:
        event_format.start_knockout(by=None)
    assert (error.value.code, error.value.params) == ("group_matches_unfinished", {"count": 2})
    assert not tournament.rounds.filter(stage="knockout").exists()
    event_format.start_knockout(by=None, confirmed=True)
    statuses = {p.match.pk: Match.objects.get(pk=p.match.pk).status for p in pairings[-2:]}
    assert set(statuses.values()) == {Match.Status.UNPLAYED}
    assert tournament.rounds.filter(stage="knockout").count() == 3
    assert not event_format.can_start_knockout()
    with pytest.raises(TournamentError) as again:
        event_format.start_knockout(by=None, confirmed=True)
    assert again.value.code == "knockout_already_drawn"


def test_a_group_result_is_final_once_the_knockout_is_drawn():
    tournament = started()
    play_groups_by_seed(tournament)
    match = Pairing.objects.filter(round__tournament=tournament, round__number=1,
                                   table=1).get().match
    assert registry.for_tournament(tournament).result_is_final(match)
    with pytest.raises(GroupStageOver):
        scoring_services.deal_undo_last(match=match, by=None)
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_group_result_may_be_undone_before_the_knockout():
    tournament = started()
    match = Pairing.objects.filter(round__tournament=tournament, round__number=1,
                                   table=1).get().match
    play(match, WIN_A)
    assert not registry.for_tournament(tournament).result_is_final(match)
    scoring_services.deal_undo_last(match=match, by=None)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_a_withdrawal_in_the_group_stage_forfeits_the_rest_and_keeps_them_out():
    """Seed 6 (A) withdraws before playing: under `forfeit_rest` each of their three group
    matches is forfeited to the opponent, so group A's second place goes to seed 7 (who beat
    12 and won the forfeit against 6), not 6."""
    tournament = started()
    entry = tournament.entries.get(number=6)
    registry.for_tournament(tournament).withdraw(entry=entry, by=None)
    assert Match.objects.filter(status=Match.Status.FORFEITED).count() == 3
    play_groups_by_seed(tournament)
    table_a = standings_selectors.group_tables(tournament)[0]
    assert [e.number for e in table_a.qualifiers()] == [1, 7]
    first = Pairing.objects.get(round__tournament=tournament, round__number=4, bracket_index=3)
    assert (first.entry_a.number, first.entry_b.number) == (3, 7)  # C1 v A2


def test_a_withdrawal_after_the_draw_gives_the_opponent_a_walkover():
    tournament = started()
    play_groups_by_seed(tournament)
    entry = tournament.entries.get(number=5)  # B2, drawn against C2 (seed 4)
    registry.for_tournament(tournament).withdraw(entry=entry, by=None)
    pairing = Pairing.objects.get(round__tournament=tournament, round__number=4, bracket_index=1)
    assert pairing.walkover == "A" and pairing.match_id is None
    semifinal = Pairing.objects.get(round__tournament=tournament, round__number=5, bracket_index=0)
    assert (semifinal.entry_a.number, semifinal.entry_b.number) == (1, 4)
    assert semifinal.match_id is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_the_last_two_group_matches_ending_at_once_draw_the_knockout_once(vendor):
    """Round 3, tables 5 and 6 (group C) are the last two group matches, each at 9:0; their
    last deals come in the same moment. Whichever commits second sees both over (it waits
    for the tournament's lock) and draws the knockout; the first does not: three knockout
    rounds, one quarterfinal match each for 4-5 and 3-6."""
    require_vendor(vendor)
    tournament = started()
    last = []
    for pairing in Pairing.objects.filter(
        round__tournament=tournament, round__stage=Round.Stage.GROUPS, match__isnull=False
    ).select_related("entry_a", "entry_b", "match").order_by("round__number", "table"):
        if (pairing.round.number, pairing.table) in {(3, 5), (3, 6)}:
            last.append(pairing)
            play(pairing.match, "A3 A3 A3" if pairing.entry_a.number < pairing.entry_b.number
                 else "B3 B3 B3")
        else:
            play(pairing.match, WIN_A if pairing.entry_a.number < pairing.entry_b.number
                 else WIN_B)

    def finish(pairing):
        play(pairing.match, "A2" if pairing.entry_a.number < pairing.entry_b.number else "B2")
        return "finished"

    outcomes = run_at_once(*(partial(finish, pairing) for pairing in last))

    assert outcomes == ["finished", "finished"]
    assert tournament.rounds.filter(stage="knockout").count() == 3
    assert Pairing.objects.filter(round__tournament=tournament, round__number=4,
                                  match__isnull=False).count() == 2


def test_seeds_with_gaps_are_closed_up_before_the_groups_are_drawn():
    """Numbers 10, 12, ..., 32 keep their order: they become seeds 1..12, as in the worked
    example (seed 4, once number 16, goes to group C)."""
    tournament = make_event(0)
    for index, name in enumerate(NAMES[:12]):
        player, _ = Player.objects.get_or_create(name=name)
        Entry.objects.create(tournament=tournament, player=player, number=10 + 2 * index)
    groups.groups_start(tournament=tournament, rng=random.Random(1))
    assert sorted(tournament.entries.values_list("number", flat=True)) == list(range(1, 13))
    assert tournament.entries.get(player__name=NAMES[3]).group_letter == "C"
