"""The last two matches of an event ending at the same moment leave it finished (PostgreSQL).

Each of two threads enters the deal that ends one of the two matches. The "is it over?" check
(`services.tournament_refresh_status` for a round robin, `knockout.knockout_advance` for a
knockout, which the `match_finished` receiver calls) is wrapped so that the order is forced, not
left to timing:

1. both threads have finished their match (uncommitted) before either checks;
2. once a thread has checked, it waits, before committing, until the other has checked too, or
   until the other is seen waiting for a lock in PostgreSQL (`pg_locks`: a check that takes the
   tournament's lock must wait for the first thread to commit).

Without a lock both checks run while the other match is still uncommitted, both see a match not
over, and the event stays "running" with every match over. Deciding under the tournament's lock,
the second check waits for the first commit and sees both matches over.
"""

import datetime
import random
import threading
import time
from functools import partial

import pytest
from django.db import connection

from club.models import Player
from events import services
from events.models import Entry, Pairing, Tournament
from formats.knockout import services as knockout
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tests.concurrency import run_at_once
from tests.services import require_postgresql

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

NINE_NIL = [3, 3, 3]
DEADLINE_SECONDS = 30
"""Only a guard against a hang if the code under test deadlocks; never reached when it works."""


def play(match: Match, deals: list[int]) -> None:
    for points in deals:
        reason = {1: "won", 2: "schneider", 3: "capot"}[points]
        scoring_services.deal_record(
            match=match, score=rules.quick_result("A", points, reason), by=None
        )


def entries(tournament: Tournament, count: int) -> None:
    for number in range(1, count + 1):
        player = Player.objects.create(name=f"Играч {tournament.pk}-{number}")
        Entry.objects.create(tournament=tournament, player=player, number=number)


def waiting_for_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)",
                       [pid])
        return cursor.fetchone()[0]


def finish_both_at_once(monkeypatch, module, name: str, matches: list[Match]) -> list[str]:
    """Enter the last deal (A, 2 game points: 9:0 becomes 11:0) of both `matches` in two
    threads, ordered as the module docstring says, with `module.name` the check to wrap.
    Returns what each thread reported."""
    original = getattr(module, name)
    both_finished = threading.Barrier(2, timeout=DEADLINE_SECONDS)
    checked: set[int] = set()
    pids: dict[int, int] = {}

    def check_then_wait(**kwargs):
        both_finished.wait()
        original(**kwargs)
        me = threading.get_ident()
        checked.add(me)
        other = next(ident for ident in pids if ident != me)
        deadline = time.monotonic() + DEADLINE_SECONDS
        while other not in checked and not waiting_for_a_lock(pids[other]):
            assert time.monotonic() < deadline, "the other thread neither checked nor waits"
            time.sleep(0.005)

    monkeypatch.setattr(module, name, check_then_wait)
    ready = threading.Barrier(2, timeout=DEADLINE_SECONDS)

    def finish(match):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pids[threading.get_ident()] = cursor.fetchone()[0]
        ready.wait()
        scoring_services.deal_record(
            match=match, score=rules.quick_result("A", 2, "schneider"), by=None
        )
        return "finished"

    return run_at_once(*(partial(finish, match) for match in matches), barrier=False,
                       timeout=2 * DEADLINE_SECONDS)


def test_a_round_robins_last_two_matches_ending_at_once_finish_it(monkeypatch):
    """Four players: six matches, two per round. Four are played to 11:0; the last two stand at
    9:0 and end at the same moment."""
    require_postgresql()
    tournament = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), format=Tournament.Format.ROUND_ROBIN,
    )
    entries(tournament, 4)
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    matches = [
        p.match for p in Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        .select_related("match").order_by("round__number", "table")
    ]
    assert len(matches) == 6
    for match in matches[:4]:
        play(match, [*NINE_NIL, 2])
    for match in matches[4:]:
        play(match, NINE_NIL)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING

    outcomes = finish_both_at_once(
        monkeypatch, services, "tournament_refresh_status", matches[4:]
    )

    assert outcomes == ["finished", "finished"]
    assert set(Match.objects.values_list("status", flat=True)) == {"finished"}
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


def test_a_knockouts_final_and_third_place_match_ending_at_once_finish_it(monkeypatch):
    """Four players with a third-place match: semifinals 1 v 4 and 2 v 3 won by seat A (1 and 2);
    the final 1 v 2 and the third-place match 4 v 3 stand at 9:0 and end at the same moment."""
    require_postgresql()
    tournament = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), format=Tournament.Format.KNOCKOUT,
        third_place_match=True,
    )
    entries(tournament, 4)
    knockout.knockout_start(tournament=tournament, rng=random.Random(1))
    semifinals = Pairing.objects.filter(round__tournament=tournament, round__number=1)
    for pairing in semifinals.select_related("match"):
        play(pairing.match, [*NINE_NIL, 2])
    last = list(
        Pairing.objects.filter(round__tournament=tournament, round__number=2)
        .select_related("match").order_by("is_third_place")
    )
    assert [p.is_third_place for p in last] == [False, True]
    for pairing in last:
        play(pairing.match, NINE_NIL)

    outcomes = finish_both_at_once(
        monkeypatch, knockout, "knockout_advance", [p.match for p in last]
    )

    assert outcomes == ["finished", "finished"]
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
