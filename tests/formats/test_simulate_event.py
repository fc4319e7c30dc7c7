"""`manage.py simulate_event`: an event of generated players played to the end through the
recording services, reported as one JSON object on the last line. The facts checked are
worked out by hand from the formats (docs/formats.md): a round robin of 5 has 5 rounds
(Berger with a dummy: each player rests once), 2 matches a round, every pair meeting once; a
knockout of 6 has a bracket of 8, 3 rounds, byes to seeds 1 and 2, the winners moving on; a
Swiss of 9 has 4 tables and one bye a round, nobody twice; 12 players in 3 groups of 4 play 3
rounds of 2 matches a group, and 2 of each going on make a knockout of 6 (a bracket of 8 whose
byes go to knockout seeds 1 and 2, the winners of groups A and B)."""

import io
import itertools
import json

import pytest
from django.core.management import CommandError, call_command

from club.models import Player
from events.models import Tournament
from events.registry import REGISTRY
from formats import simulation
from scoring.models import Deal, Match

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> dict:
    out = io.StringIO()
    call_command("simulate_event", *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue().strip().splitlines()[-1])


def names(count: int) -> list[str]:
    return [f"Player {number:03d}" for number in range(1, count + 1)]


def assert_a_final_score(pairing: dict) -> None:
    """Game points as a finished match to 11 leaves them: the winner 11-13, the other 0-10."""
    winner, loser = (0, 1) if pairing["winner"] == "a" else (1, 0)
    assert 11 <= pairing["score"][winner] <= 13
    assert 0 <= pairing["score"][loser] <= 10


def test_a_round_robin_of_five():
    report = simulate("--format", "round_robin", "--players", "5", "--seed", "7")
    assert report["format"] == "round_robin"
    assert report["players"] == names(5)
    assert report["groups"] == []
    assert [r["number"] for r in report["rounds"]] == [1, 2, 3, 4, 5]
    assert {(r["stage"], r["group"]) for r in report["rounds"]} == {("round_robin", None)}
    assert [len(r["pairings"]) for r in report["rounds"]] == [2] * 5
    assert [len(r["byes"]) for r in report["rounds"]] == [1] * 5
    assert sorted(bye for r in report["rounds"] for bye in r["byes"]) == names(5)
    met = [frozenset((p["a"], p["b"])) for r in report["rounds"] for p in r["pairings"]]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(names(5), 2)), key=sorted
    )
    for round_ in report["rounds"]:
        assert [p["table"] for p in round_["pairings"]] == [1, 2]
        for pairing in round_["pairings"]:
            assert_a_final_score(pairing)
    wins = {name: 0 for name in names(5)}
    for pairing in (p for r in report["rounds"] for p in r["pairings"]):
        wins[pairing[pairing["winner"]]] += 1
    standings = report["standings"]
    assert sorted(row["player"] for row in standings) == names(5)
    assert [row["rank"] for row in standings] == sorted(row["rank"] for row in standings)
    assert wins[standings[0]["player"]] == max(wins.values())
    assert Tournament.objects.get().status == Tournament.Status.FINISHED
    assert not Match.objects.exclude(status=Match.Status.FINISHED).exists()
    # Recorded as deals, through the scorecard service (history "scorecard").
    assert Deal.history.filter(history_change_reason="scorecard").count() == Deal.objects.count()


def test_a_knockout_of_six():
    report = simulate("--format", "knockout", "--players", "6", "--seed", "11")
    rounds = report["rounds"]
    assert [(r["number"], r["stage"], r["group"]) for r in rounds] == [
        (1, "knockout", None), (2, "knockout", None), (3, "knockout", None),
    ]
    first, semis, final = rounds
    # Bracket of 8, slots 1,8,4,5,2,7,3,6: seeds 1 and 2 have byes (7 and 8 are missing).
    assert sorted(first["byes"]) == ["Player 001", "Player 002"]
    assert sorted(frozenset((p["a"], p["b"])) for p in first["pairings"]) == sorted([
        frozenset(("Player 004", "Player 005")), frozenset(("Player 003", "Player 006")),
    ])
    assert semis["byes"] == final["byes"] == []
    assert len(semis["pairings"]) == 2 and len(final["pairings"]) == 1

    def winners(round_):
        return {p[p["winner"]] for p in round_["pairings"]}

    def losers(round_):
        return {p["b" if p["winner"] == "a" else "a"] for p in round_["pairings"]}

    assert {p[s] for p in semis["pairings"] for s in "ab"} == winners(first) | set(
        first["byes"])
    assert {p[s] for p in final["pairings"] for s in "ab"} == winners(semis)
    for pairing in (p for r in rounds for p in r["pairings"]):
        assert_a_final_score(pairing)
    places = {row["player"]: row["rank"] for row in report["standings"]}
    assert sorted(places) == names(6)
    assert [row["rank"] for row in report["standings"]] == [1, 2, 3, 3, 5, 5]
    assert places[final["pairings"][0][final["pairings"][0]["winner"]]] == 1
    assert {places[name] for name in losers(final)} == {2}
    assert {places[name] for name in losers(semis)} == {3}
    assert {places[name] for name in losers(first)} == {5}


def winner_of(pairing: dict) -> str:
    return pairing[pairing["winner"]]


def test_a_swiss_without_rounds_plays_the_suggested_number():
    # 9 players: ⌈log₂ 9⌉ + 1 = ⌈3.17⌉ + 1 = 5 rounds, each of 4 matches and a bye.
    report = simulate("--format", "swiss", "--players", "9", "--seed", "2")
    assert [len(r["pairings"]) for r in report["rounds"]] == [4] * 5
    assert [len(r["byes"]) for r in report["rounds"]] == [1] * 5


def test_a_swiss_of_nine_in_four_rounds():
    report = simulate("--format", "swiss", "--players", "9", "--rounds", "4", "--seed", "5")
    rounds = report["rounds"]
    assert report["players"] == names(9)
    assert report["groups"] == []
    assert [(r["number"], r["stage"], r["group"]) for r in rounds] == [
        (number, "swiss", None) for number in (1, 2, 3, 4)
    ]
    # 9 players: 4 tables and one bye each round.
    assert [len(r["pairings"]) for r in rounds] == [4] * 4
    assert [len(r["byes"]) for r in rounds] == [1] * 4
    byes = [bye for r in rounds for bye in r["byes"]]
    assert len(set(byes)) == 4  # nobody has two byes
    for round_ in rounds:
        seated = [p[s] for p in round_["pairings"] for s in "ab"] + round_["byes"]
        assert sorted(seated) == names(9)  # everybody plays or rests, once
        for pairing in round_["pairings"]:
            assert_a_final_score(pairing)
    met = [frozenset((p["a"], p["b"])) for r in rounds for p in r["pairings"]]
    assert len(met) == len(set(met)) == 16  # no rematch
    # A win scores 1, a bye (bye_scores_win by default) 1 too.
    score = {name: 0 for name in names(9)}
    for pairing in (p for r in rounds for p in r["pairings"]):
        score[winner_of(pairing)] += 1
    for bye in byes:
        score[bye] += 1
    standings = report["standings"]
    assert sorted(row["player"] for row in standings) == names(9)
    assert standings[0]["rank"] == 1
    assert score[standings[0]["player"]] == max(score.values())
    assert [score[row["player"]] for row in standings] == sorted(score.values(), reverse=True)
    assert Tournament.objects.get().status == Tournament.Status.FINISHED


def test_groups_of_four_then_a_knockout_of_six():
    report = simulate("--format", "groups", "--players", "12", "--groups", "3",
                      "--advance", "2", "--seed", "9")
    assert report["advance"] == 2
    # Snake order: A 1 6 7 12, B 2 5 8 11, C 3 4 9 10.
    groups = {g["name"]: g for g in report["groups"]}
    assert list(groups) == ["A", "B", "C"]
    seeds = {"A": (1, 6, 7, 12), "B": (2, 5, 8, 11), "C": (3, 4, 9, 10)}
    for name, group in groups.items():
        assert group["players"] == [f"Player {seed:03d}" for seed in seeds[name]]
        assert sorted(group["standings"]) == group["players"]
    group_rounds = [r for r in report["rounds"] if r["stage"] == "group"]
    knockout = [r for r in report["rounds"] if r["stage"] == "knockout"]
    assert [(r["number"], r["group"]) for r in group_rounds] == [
        (number, name) for number in (1, 2, 3) for name in "ABC"
    ]
    assert [r["number"] for r in report["rounds"]] == [1] * 3 + [2] * 3 + [3] * 3 + [4, 5, 6]
    for round_ in group_rounds:
        assert len(round_["pairings"]) == 2 and round_["byes"] == []
    for name, group in groups.items():
        met = [frozenset((p["a"], p["b"])) for r in group_rounds if r["group"] == name
               for p in r["pairings"]]
        assert sorted(met, key=sorted) == sorted(
            (frozenset(pair) for pair in itertools.combinations(group["players"], 2)),
            key=sorted)
    # The group standings follow the wins within the group.
    for name, group in groups.items():
        wins = {player: 0 for player in group["players"]}
        for pairing in (p for r in group_rounds if r["group"] == name for p in r["pairings"]):
            wins[winner_of(pairing)] += 1
        assert [wins[p] for p in group["standings"]] == sorted(wins.values(), reverse=True)
    first, semis, final = knockout
    going_on = {p for g in groups.values() for p in g["standings"][:2]}
    assert {p[s] for p in first["pairings"] for s in "ab"} | set(first["byes"]) == going_on
    # Knockout seeds 1 and 2 (winners of A and B) have the byes of the bracket of 8.
    assert sorted(first["byes"]) == sorted([groups["A"]["standings"][0],
                                           groups["B"]["standings"][0]])
    assert len(first["pairings"]) == 2 and len(semis["pairings"]) == 2
    assert len(final["pairings"]) == 1
    group_of = {p: name for name, g in groups.items() for p in g["players"]}
    for pairing in first["pairings"]:
        assert group_of[pairing["a"]] != group_of[pairing["b"]]
    places = {row["player"]: row["rank"] for row in report["standings"]}
    assert sorted(places) == names(12)
    assert places[winner_of(final["pairings"][0])] == 1
    # The knockout's six first (1, 2, 3, 3, 5, 5), then each group's third (7) and fourth (10).
    assert [row["rank"] for row in report["standings"]] == [1, 2, 3, 3, 5, 5, 7, 7, 7, 10, 10, 10]
    assert {places[g["standings"][2]] for g in groups.values()} == {7}
    assert {places[g["standings"][3]] for g in groups.values()} == {10}


def test_groups_of_three_rest_a_player_of_their_own_each_round():
    report = simulate("--format", "groups", "--players", "9", "--groups", "3",
                      "--advance", "1", "--seed", "2")
    groups = {g["name"]: g for g in report["groups"]}
    group_rounds = [r for r in report["rounds"] if r["stage"] == "group"]
    # A group of 3 plays 3 rounds (Berger with a dummy): one match and one player resting.
    assert [(r["number"], r["group"]) for r in group_rounds] == [
        (number, name) for number in (1, 2, 3) for name in "ABC"
    ]
    for round_ in group_rounds:
        assert len(round_["pairings"]) == 1
        assert len(round_["byes"]) == 1 and round_["byes"][0] in groups[round_["group"]]["players"]
    for name, group in groups.items():
        rested = [b for r in group_rounds if r["group"] == name for b in r["byes"]]
        assert sorted(rested) == group["players"]
    # The three winners: a bracket of 4, its bye to knockout seed 1, the winner of group A.
    first, final = [r for r in report["rounds"] if r["stage"] == "knockout"]
    assert first["byes"] == [groups["A"]["standings"][0]]
    assert len(first["pairings"]) == len(final["pairings"]) == 1
    assert [row["rank"] for row in report["standings"]] == [1, 2, 3, 4, 4, 4, 7, 7, 7]


@pytest.mark.parametrize("args", [
    ("--format", "knockout", "--players", "5", "--seed", "3"),
    ("--format", "swiss", "--players", "7", "--rounds", "3", "--seed", "3"),
    ("--format", "groups", "--players", "9", "--groups", "3", "--advance", "1", "--seed", "3"),
])
def test_the_same_seed_gives_the_same_event(args):
    first, second = simulate(*args), simulate(*args)
    # Two events made: each report names its own, the rest is the same.
    assert first.pop("event") != second.pop("event")
    assert first == second


def test_the_report_names_the_event_it_made():
    report = simulate("--format", "swiss", "--players", "5", "--rounds", "2", "--seed", "1")
    event = Tournament.objects.get(pk=report["event"])
    assert (event.format, event.entries.count()) == ("swiss", 5)


def test_another_seed_gives_the_same_players():
    other = simulate("--format", "knockout", "--players", "5", "--seed", "4")
    assert other["players"] == names(5)


@pytest.mark.parametrize(("args", "message"), [
    (("--format", "round_robin", "--players", "1"), "at least 3 players, not 1"),
    (("--format", "knockout", "--players", "1"), "at least 2 players, not 1"),
    (("--format", "knockout", "--players", "129"), "at most 128 players, not 129"),
    (("--format", "ladder", "--players", "8"), "invalid choice: 'ladder'"),
    (("--format", "swiss", "--players", "9", "--rounds", "9"), "at most 8 rounds"),
    (("--format", "swiss", "--players", "201", "--rounds", "9"), "at most 200 players"),
    (("--format", "groups", "--players", "12", "--advance", "2"), "A groups needs --groups"),
    (("--format", "groups", "--players", "12", "--groups", "3"), "A groups needs --advance"),
    (("--format", "groups", "--players", "12", "--groups", "5", "--advance", "1"),
     "cannot make 5 groups of at least 3 players"),
    (("--format", "groups", "--players", "17", "--groups", "2", "--advance", "1"),
     "a group of more than 8 players"),
    (("--format", "groups", "--players", "12", "--groups", "3", "--advance", "4"),
     "From 1 to 3 players of each group"),
])
def test_bad_arguments_are_refused_before_anything_is_written(args, message):
    with pytest.raises(CommandError, match=message):
        simulate(*args)
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize("missing", [
    value for value in simulation.CHOICES
    if value not in simulation.FORMATS or simulation.FORMATS[value].format not in REGISTRY
] or [pytest.param("", marks=pytest.mark.skip("every format is on this site"))])
def test_a_format_the_site_does_not_have_yet_exits_with_status_2(missing):
    with pytest.raises(CommandError, match="not available on this site yet") as raised:
        simulate("--format", missing, "--players", "8")
    assert raised.value.returncode == 2
    assert not Tournament.objects.exists()
