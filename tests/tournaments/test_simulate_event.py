"""`manage.py simulate_event`: an event of generated players played to the end through the
recording services, reported as one JSON object on the last line. The facts checked are
worked out by hand from the formats (DESIGN.md "Formats"): a round robin of 5 has 5 rounds
(Berger with a dummy: each player rests once), 2 matches a round, every pair meeting once; a
knockout of 6 has a bracket of 8, 3 rounds, byes to seeds 1 and 2, the winners moving on."""

import io
import itertools
import json

import pytest
from django.core.management import CommandError, call_command

from club.models import Player
from scoring.models import Deal, Match
from tournaments import simulation
from tournaments.formats import REGISTRY
from tournaments.models import Tournament

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


def test_the_same_seed_gives_the_same_event():
    args = ("--format", "knockout", "--players", "5", "--seed", "3")
    assert simulate(*args) == simulate(*args)
    other = simulate("--format", "knockout", "--players", "5", "--seed", "4")
    assert other["players"] == names(5)


@pytest.mark.parametrize(("args", "message"), [
    (("--format", "round_robin", "--players", "1"), "at least 3 players, not 1"),
    (("--format", "knockout", "--players", "1"), "at least 2 players, not 1"),
    (("--format", "knockout", "--players", "129"), "at most 128 players, not 129"),
    (("--format", "ladder", "--players", "8"), "invalid choice: 'ladder'"),
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
