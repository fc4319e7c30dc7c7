"""The writes of a Swiss (docs/swiss.md): the start, each next round, a round paired again
before its first deal, late entries and withdrawals between rounds.

The pairing itself is pure (`formats.swiss.pairing.pair_round`); this module reads each
player's state from the rows, and writes the round: a `Pairing` per table with its `Match`
(the first dealer in seat A, `Match.first_dealer` A), and the bye as a `Pairing` with no
`entry_b` and no match. Every write runs in one transaction under `services.tournament_lock`,
after the lock of the matches it decides from (the lock order of `tournament_lock`), and
raises `TournamentError` with nothing written.
"""

from __future__ import annotations

import random
from collections import defaultdict

from django.db import transaction

from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from events.services import refuse_after_finish, tournament_lock
from formats.swiss.errors import SwissError
from formats.swiss.pairing import SwissPlayer, pair_round
from scoring.models import Match, Seat

MIN_PLAYERS = 3
MAX_PLAYERS = 200


def last_round(tournament: Tournament) -> Round | None:
    """The latest round paired, or None before round 1."""
    return tournament.rounds.order_by("-number").first()


def round_is_over(round_: Round) -> bool:
    """Every match of `round_` is over (`Match.OVER`); a round of byes only is over."""
    return not Match.objects.filter(pairing__round=round_).exclude(
        status__in=Match.OVER
    ).exists()


def _lock_round_matches(round_: Round | None) -> list[Match]:
    """Lock the matches of `round_` (before the tournament's row: the lock order)."""
    if round_ is None:
        return []
    return list(Match.objects.select_for_update().filter(pairing__round=round_).order_by("pk"))


def _refuse_mid_round(round_: Round | None, code: str) -> None:
    """Raise `TournamentError` `code` (round) unless the last round is over."""
    if round_ is not None and not round_is_over(round_):
        raise TournamentError(code, round=round_.number)


def player_states(tournament: Tournament) -> list[SwissPlayer]:
    """The active (not withdrawn) players' states before the next round, from the rows:
    score (wins, and byes when `bye_scores_win`), opponents, byes, first deals."""
    entries = list(tournament.entries.filter(withdrawn=False))
    state = {
        entry.pk: dict(score=0, opponents=set(), byes=0, first=0, second=0, last=None)
        for entry in tournament.entries.all()
    }
    pairings = Pairing.objects.filter(round__tournament=tournament).select_related(
        "match", "round"
    ).order_by("round__number", "table")
    bye_points = 1 if tournament.bye_scores_win else 0
    for pairing in pairings:
        a = state[pairing.entry_a_id]
        if pairing.entry_b_id is None:
            a["byes"] += 1
            a["score"] += bye_points
            continue
        b = state[pairing.entry_b_id]
        a["opponents"].add(pairing.entry_b_id)
        b["opponents"].add(pairing.entry_a_id)
        match = pairing.match
        a_first = match.first_dealer == Seat.A
        first, second = (a, b) if a_first else (b, a)
        first["first"] += 1
        second["second"] += 1
        first["last"], second["last"] = True, False
        if match.is_decided:
            (a if match.winner == Seat.A else b)["score"] += 1
    return [
        SwissPlayer(
            id=entry.pk, number=entry.number, score=state[entry.pk]["score"],
            opponents=frozenset(state[entry.pk]["opponents"]), byes=state[entry.pk]["byes"],
            dealt_first=state[entry.pk]["first"], dealt_second=state[entry.pk]["second"],
            last_dealt_first=state[entry.pk]["last"],
        )
        for entry in entries
    ]


def _write_round(tournament: Tournament, number: int, by) -> Round:
    """Pair round `number` of the (locked) `tournament` and write it."""
    players = player_states(tournament)
    if len(players) < 2:
        raise SwissError("too_few_swiss_players", min_players=2, players=len(players))
    pairing = pair_round(players)
    entries = {entry.pk: entry for entry in tournament.entries.select_related("player")}
    round_ = Round.objects.create(tournament=tournament, number=number)
    house_rules = tournament.house_rules().to_dict()
    for table, (first, second) in enumerate(pairing.pairs, start=1):
        entry_a, entry_b = entries[first], entries[second]
        match = Match(
            player_a=entry_a.player, player_b=entry_b.player, first_dealer=Seat.A,
            house_rules_snapshot=house_rules,
        )
        match._history_user = by
        match.save()
        Pairing.objects.create(
            round=round_, table=table, entry_a=entry_a, entry_b=entry_b, match=match
        )
    if pairing.bye is not None:
        Pairing.objects.create(round=round_, table=None, entry_a=entries[pairing.bye])
    return round_


@transaction.atomic
def swiss_start(*, tournament: Tournament, by=None, rng: random.Random | None = None) -> Tournament:
    """Fix the pairing numbers (the draw numbers), draw the lots (the last tie-break), and
    pair round 1. Raises `TournamentError`: `already_started`, `too_few_swiss_players`,
    `swiss_rounds_missing`, `too_many_swiss_rounds` (rounds, players: a round each needs a
    new opponent, so at most players - 1)."""
    tournament = tournament_lock(tournament)
    if tournament.has_started:
        raise TournamentError("already_started")
    entries = list(tournament.entries.order_by("number"))
    if len(entries) < MIN_PLAYERS:
        raise SwissError(
            "too_few_swiss_players", min_players=MIN_PLAYERS, players=len(entries)
        )
    if not tournament.swiss_rounds:
        raise SwissError("swiss_rounds_missing")
    if tournament.swiss_rounds > len(entries) - 1:
        raise SwissError(
            "too_many_swiss_rounds", rounds=tournament.swiss_rounds, players=len(entries),
            most=len(entries) - 1,
        )
    rng = rng or random.SystemRandom()
    lots = rng.sample(range(1, len(entries) + 1), len(entries))
    for number, (entry, lot) in enumerate(zip(entries, lots, strict=True), start=1):
        entry.number, entry.lot = number, lot
        entry.save(update_fields=["number", "lot"])
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    _write_round(tournament, 1, by)
    return tournament


@transaction.atomic
def swiss_pair_next_round(*, tournament: Tournament, by) -> Round:
    """Pair the round after the last one, once that one is over; return the new round.

    Raises `TournamentError`: `swiss_not_started`, `already_finished`, `round_not_over`
    (round: a match of the last round has no result yet), `no_rounds_left` (rounds: every
    round has been paired).
    """
    previous = last_round(tournament)
    _lock_round_matches(previous)
    tournament = tournament_lock(tournament)
    if not tournament.has_started:
        raise SwissError("swiss_not_started")
    refuse_after_finish(tournament)
    previous = last_round(tournament)
    _refuse_mid_round(previous, "round_not_over")
    number = previous.number + 1 if previous else 1
    if number > (tournament.swiss_rounds or 0):
        raise SwissError("no_rounds_left", rounds=tournament.swiss_rounds)
    return _write_round(tournament, number, by)


@transaction.atomic
def swiss_pair_again(*, tournament: Tournament, number: int, by) -> Round:
    """Pair round `number` (the last one) again, e.g. after a late entry or a mistake, while
    none of its matches has a deal: its pairings and matches go (their history keeps them)
    and the round is paired anew from the same standings. Returns the new round.

    Raises `TournamentError`: `swiss_not_started`, `already_finished`, `round_not_latest`
    (round: only the last round can be paired again), `round_has_deals` (round).
    """
    round_ = tournament.rounds.filter(number=number).first()
    matches = _lock_round_matches(round_)
    tournament = tournament_lock(tournament)
    if not tournament.has_started:
        raise SwissError("swiss_not_started")
    refuse_after_finish(tournament)
    latest = last_round(tournament)
    if round_ is None or latest is None or latest.pk != round_.pk:
        raise SwissError("round_not_latest", round=number)
    if any(match.status != Match.Status.SCHEDULED for match in matches) or (
        Match.objects.filter(pk__in=[m.pk for m in matches], deals__isnull=False).exists()
    ):
        raise SwissError("round_has_deals", round=number)
    round_.pairings.all().delete()
    for match in matches:
        match._history_user = by
        match._change_reason = "round paired again"
        match.delete()
    round_.delete()
    return _write_round(tournament, number, by)


def swiss_refuse_late_entry(tournament: Tournament) -> None:
    """Refuse a late entry to the running Swiss `tournament` (locked) unless it is between
    rounds: `TournamentError` `already_finished`, `swiss_entry_mid_round` (round)."""
    refuse_after_finish(tournament)
    _refuse_mid_round(last_round(tournament), "swiss_entry_mid_round")


@transaction.atomic
def swiss_withdraw(*, entry: Entry, by) -> Entry:
    """Withdraw `entry` between rounds: it is not paired in the rounds after; its results
    stand (its rounds from then on are unplayed: `standings.swiss_tie_breaks`).

    Raises `TournamentError`: `not_started`, `already_finished`, `already_withdrawn`,
    `swiss_withdraw_mid_round` (round: a match of the last round has no result yet).
    """
    previous = last_round(entry.tournament)
    _lock_round_matches(previous)
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    if not tournament.has_started:
        raise TournamentError("not_started")
    refuse_after_finish(tournament)
    if entry.withdrawn:
        raise TournamentError("already_withdrawn", name=entry.player.name)
    _refuse_mid_round(last_round(tournament), "swiss_withdraw_mid_round")
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    return entry


def swiss_is_over(tournament: Tournament) -> bool:
    """Every round has been paired and the last one is over."""
    latest = last_round(tournament)
    return (
        latest is not None and latest.number >= (tournament.swiss_rounds or 0)
        and round_is_over(latest)
    )


def later_round_paired(*, tournament: Tournament, match: Match) -> int | None:
    """The number of the round after `match`'s round, if it has been paired (the result of
    `match` decided who met whom there), else None."""
    round_number = Pairing.objects.filter(match=match).values_list(
        "round__number", flat=True
    ).first()
    if round_number is None:
        return None
    later = tournament.rounds.filter(number__gt=round_number).order_by("number").first()
    return later.number if later else None


def swiss_byes(tournament: Tournament) -> dict[int, list[int]]:
    """{round number: [entry ids with the bye]} (one a round at most)."""
    byes: dict[int, list[int]] = defaultdict(list)
    for number, entry_id in Pairing.objects.filter(
        round__tournament=tournament, entry_b__isnull=True, match__isnull=True,
        bracket_index__isnull=True,
    ).values_list("round__number", "entry_a_id"):
        byes[number].append(entry_id)
    return dict(byes)
