"""Every write to tournaments, entries, rounds and pairings goes through these services.

Errors an organiser can fix raise `TournamentError` with a stable `.code` and the values the
sentence names (`.params`); views show the sentence in the user's language
(`core.messages.user_message`).
"""

import random

from django.db import transaction
from django.db.models import Max, Q

from club.models import Player
from events import registry
from events import selectors as events_selectors
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from events.signals import results_changed
from formats.round_robin.berger import berger_rounds
from scoring import services as scoring_services
from scoring.models import Match


def tournament_lock(tournament: Tournament) -> Tournament:
    """The tournament's row, read again and locked until the transaction ends (call it inside
    one). Every decision about the tournament as a whole is taken under this lock: its
    players and draw before the start, and whether it is over (`tournament_status_update`),
    so two matches ending at once cannot both decide "running".

    Lock order, so that no two writers wait for each other in a circle: a running event's
    match rows first (`scoring.services` holds the match being scored), then its pairing rows
    (a knockout), then this row last.
    """
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def refuse_after_start(tournament: Tournament) -> None:
    """Raise `TournamentError` `already_started` once `tournament` has started (its players
    and their order are fixed from then on)."""
    if tournament.has_started:
        raise TournamentError("already_started")


def refuse_after_finish(tournament: Tournament) -> None:
    """Raise `TournamentError` `already_finished` once `tournament` (read under its lock, or
    fresh) is finished: its results are final, nobody can withdraw any more."""
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("already_finished")


@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player) -> Entry:
    """Add `player` with the next free draw number (seed, in a knockout); after the start
    only where the format object takes late entries (its `refuse_late_entry`: e.g.
    between rounds). Raises `TournamentError` (`already_started`, `already_entered`, the
    format's late-entry refusals, and past the format's
    `max_players` its `too_many_players_code`: `too_many_players`,
    `too_many_knockout_players`)."""
    tournament = tournament_lock(tournament)
    event_format = registry.for_tournament(tournament)
    if tournament.has_started:
        event_format.refuse_late_entry(tournament)
    if tournament.entries.filter(player=player).exists():
        raise TournamentError("already_entered", name=player.name)
    limit = event_format.max_players
    count = tournament.entries.count()
    if limit is not None and count >= limit:
        raise TournamentError(
            event_format.too_many_players_code, max_players=limit, players=count
        )
    highest = tournament.entries.aggregate(highest=Max("number"))["highest"] or 0
    return Entry.objects.create(tournament=tournament, player=player, number=highest + 1)


@transaction.atomic
def entry_remove(*, entry: Entry) -> None:
    """Take a player out before the start; the draw numbers after theirs move up by one."""
    tournament = tournament_lock(entry.tournament)
    refuse_after_start(tournament)
    removed_number = entry.number
    entry.delete()
    for later in tournament.entries.filter(number__gt=removed_number).order_by("number"):
        later.number -= 1
        later.save(update_fields=["number"])


@transaction.atomic
def draw_numbers_set(*, tournament: Tournament, order: list[int]) -> None:
    """Give the entries with ids `order` the draw numbers 1, 2, ... in that order.

    Raises `TournamentError` `draw_not_a_permutation` unless `order` lists every entry once.
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    entries = {entry.pk: entry for entry in tournament.entries.all()}
    if sorted(order) != sorted(entries):
        raise TournamentError("draw_not_a_permutation")
    # Two passes keep (tournament, number) unique at every step.
    offset = len(order) + 1000
    for number, pk in enumerate(order, start=1):
        entries[pk].number = number + offset
        entries[pk].save(update_fields=["number"])
    for number, pk in enumerate(order, start=1):
        entries[pk].number = number
        entries[pk].save(update_fields=["number"])


def draw_numbers_by_lot(*, tournament: Tournament, rng: random.Random | None = None) -> None:
    """Shuffle the draw numbers (FIDE: numbers drawn by lot)."""
    order = list(tournament.entries.values_list("pk", flat=True))
    (rng or random.SystemRandom()).shuffle(order)
    draw_numbers_set(tournament=tournament, order=order)


@transaction.atomic
def tournament_start(*, tournament: Tournament, rng: random.Random | None = None) -> Tournament:
    """Fix the players, draw lots for the last tie-break and create every round of the
    FIDE Berger schedule (single or double) with its pairings and matches.

    Seat A of each Berger pair is seat A of the match and deals first. The house rules are
    copied into each match. The tournament's format says how many cycles (`berger_cycles`)
    and the fewest players (`min_players`). Raises `TournamentError` (`already_started`,
    `too_few_players`, `not_round_robin`: a format not scheduled from Berger tables).
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    event_format = registry.for_tournament(tournament)
    cycles, least = event_format.berger_cycles, event_format.min_players or 2
    if not cycles:
        raise TournamentError("not_round_robin")
    entries = list(tournament.entries.select_related("player").order_by("number"))
    if len(entries) < least:
        raise TournamentError("too_few_players", min_players=least, players=len(entries))
    rng = rng or random.SystemRandom()
    lots = rng.sample(range(1, len(entries) + 1), len(entries))
    by_number = {}
    for number, (entry, lot) in enumerate(zip(entries, lots, strict=True), start=1):
        entry.number, entry.lot = number, lot
        entry.save(update_fields=["number", "lot"])
        by_number[number] = entry
    house_rules = tournament.house_rules().to_dict()
    for round_number, pairs in enumerate(berger_rounds(len(entries), cycles == 2), start=1):
        round_ = Round.objects.create(tournament=tournament, number=round_number)
        table = 0
        for seat_a, seat_b in pairs:
            entry_a, entry_b = by_number.get(seat_a), by_number.get(seat_b)
            if entry_a is None or entry_b is None:  # the dummy: its opponent rests
                Pairing.objects.create(round=round_, entry_a=entry_a or entry_b, table=None)
                continue
            table += 1
            match = Match.objects.create(
                player_a=entry_a.player, player_b=entry_b.player, house_rules_snapshot=house_rules,
            )
            Pairing.objects.create(
                round=round_, table=table, entry_a=entry_a, entry_b=entry_b, match=match
            )
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def house_rules_update(*, tournament: Tournament) -> None:
    """Copy the tournament's (just edited) house rules into its matches, while no deal exists.

    Raises `TournamentError` `rules_frozen` once any deal has been entered.
    """
    tournament = tournament_lock(tournament)
    matches = Match.objects.filter(pairing__round__tournament=tournament)
    if matches.filter(deals__isnull=False).exists():
        raise TournamentError("rules_frozen")
    matches.update(house_rules_snapshot=tournament.house_rules().to_dict())


@transaction.atomic
def entry_withdraw(*, entry: Entry, by) -> Entry:
    """Withdraw a player from a running round robin under its withdrawal policy, and return
    the entry (marked withdrawn).

    What happens to their matches not over yet (`Match.OVER`):

    - `forfeit_rest`, and `fide` when they played half their matches or more: each is
      forfeited to the opponent (`scoring.services.match_forfeit`), who scores the game target.
    - `fide` when they played under half (`events_selectors.played_under_half`, the one definition
      of "played": decided over the board; a forfeit is not played): each is closed unplayed
      (`scoring.services.match_close_unplayed`), and all their results, played ones included,
      are cancelled: the standings list them apart, not ranked
      (`standings_selectors.standings_with_withdrawn`).
    - `leave_unplayed`: each is closed unplayed; their results so far stand.

    A match closed either way takes no more deals (409 with the message on the match page),
    and the tournament finishes once every other match is over (`tournament_status_update`).

    Locks the entry, then the player's match rows, then the tournament (the lock order of
    `tournament_lock`), and decides from the locked rows.
    Raises `TournamentError` `already_withdrawn`, `not_started` and `already_finished`.
    """
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament").get(
        pk=entry.pk
    )
    if entry.withdrawn:
        raise TournamentError("already_withdrawn", name=entry.player.name)
    seat_a_of = dict(  # match id -> the entry in seat A
        Pairing.objects.filter(
            Q(entry_a=entry) | Q(entry_b=entry), round__tournament_id=entry.tournament_id,
            match__isnull=False,
        ).values_list("match_id", "entry_a_id")
    )
    matches = list(
        Match.objects.select_for_update().filter(pk__in=list(seat_a_of)).order_by("pk")
    )
    tournament = tournament_lock(entry.tournament)
    if not tournament.has_started:
        raise TournamentError("not_started")
    refuse_after_finish(tournament)
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    cancel = tournament.withdrawal_policy == Tournament.WithdrawalPolicy.LEAVE_UNPLAYED or (
        tournament.withdrawal_policy == Tournament.WithdrawalPolicy.FIDE
        and events_selectors.played_under_half(match.status for match in matches)
    )
    for match in matches:
        if match.is_over:
            continue
        if cancel:
            scoring_services.match_close_unplayed(match=match, by=by)
        else:
            winner = "B" if seat_a_of[match.pk] == entry.pk else "A"
            scoring_services.match_forfeit(match=match, winner=winner, by=by)
    tournament_status_update(tournament)
    return entry


def has_withdrawn_player(*, tournament: Tournament, match: Match) -> bool:
    """Whether a player of `match` (a match of `tournament`) has withdrawn from `tournament`.
    One query.

    In a round robin such a match's result is final (`formats.round_robin`): the withdrawal
    settled the player's matches once (forfeited, closed unplayed, or cancelled with all their
    results under the FIDE policy); a finished match that reopened would take deals from a
    player who has left, and put a finished event back to running. (A knockout instead takes
    back the walkover a correction upstream of a withdrawal undoes:
    `knockout.knockout_retract`.)"""
    return Entry.objects.filter(
        tournament=tournament, withdrawn=True, player_id__in=[match.player_a_id, match.player_b_id]
    ).exists()


def tournament_refresh_status(*, match: Match, tournament: Tournament | None = None) -> None:
    """After a match ends or reopens: set its (started) tournament's status from its format
    (`tournament_status_update`), under the tournament's lock (`tournament_lock`), so the
    last two matches ending at the same moment leave it finished. Matches outside a
    tournament are ignored. The round-robin format calls it (`formats.round_robin`) with its
    `tournament` (the match's, already read: one query fewer per match; its status is read
    again under the lock)."""
    if tournament is None:
        tournament = Tournament.objects.filter(rounds__pairings__match=match).first()
    if tournament is None or tournament.status == Tournament.Status.DRAFT:
        return
    tournament_status_update(tournament_lock(tournament))


def tournament_status_update(tournament: Tournament) -> None:
    """Set the (locked, started) tournament's status from its format: finished when
    `is_over()` (a round robin: every match over, `Match.OVER`; a knockout: the final
    decided; a club night: closed by the organiser), else running.

    When the event finishes, or a result of a finished event changes (a correction, which may
    reopen it), `events.signals.results_changed` is sent (the ratings follow it)."""
    over = registry.for_tournament(tournament).is_over()
    status = Tournament.Status.FINISHED if over else Tournament.Status.RUNNING
    if Tournament.Status.FINISHED in (status, tournament.status):
        results_changed.send(sender=Tournament, tournament=tournament)
    if status != tournament.status:
        tournament.status = status
        tournament.save(update_fields=["status"])
