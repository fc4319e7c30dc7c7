"""Every write to a knockout's bracket (docs/formats.md "Knockout").

The bracket is drawn once, at the start: every round's pairings exist from then on, the later
ones empty, each with its `bracket_index`. The pure rules (slot order, byes, which slot a winner
moves to) come from `formats.knockout.bracket`; this module turns them into rows:

* `knockout_start` draws the bracket. A first-round bye is a pairing with `walkover="A"` and no
  `entry_b`; its seed moves on at once.
* `knockout_advance` (the `match_finished` receiver calls it) puts the winner into the next
  round's pairing, and a semifinal loser into the third-place pairing; a pairing whose two
  entries are known gets its match. A withdrawn entry loses its next pairing by walkover.
* `knockout_retract` (the `match_reopened` receiver calls it) takes back what a reopened match
  sent downstream. Matches downstream that have no deals are simply removed and come back when
  the bracket fills again; if any has deals (or was forfeited), nothing is done unless the
  organiser confirmed: `scoring.services.ConfirmationRequired` lists what would be cleared and
  rolls the whole correction back. Cleared deals and matches stay in their history.
* `knockout_withdraw`: the player's next opponent goes through by walkover (a match already
  being played is forfeited instead).

Locks, always taken in this order so that two writers never wait for each other in a circle
(a deadlock): match rows first
(`scoring.services` holds the match being scored; a correction also locks the matches it may
clear, a withdrawal the match it may forfeit or remove), then pairing rows, read again once
locked (`_pairings`), then the tournament row, whose lock decides whether the bracket is over
(`services.tournament_status_update`, which asks `bracket_decided`). Two matches finishing at
once thus fill the two seats of their next pairing without losing either. If the bracket
changed between the first look and the locks (another organiser, the same second), nothing is
written and the organiser is asked to try again (`bracket_changed`). Errors an organiser can
fix raise `events.services.TournamentError`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from django.db import transaction
from django.db.models import Count, Min, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from events import registry
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from events.services import (
    draw_numbers_set,
    refuse_after_finish,
    refuse_after_start,
    tournament_lock,
    tournament_status_update,
)
from formats.knockout.bracket import bracket_size, first_round, next_slot, rounds_count
from formats.knockout.errors import BracketChanged, KnockoutError
from formats.knockout.labels import pairing_label
from ratings.models import PlayerRating
from ratings.periods import SeedCandidate, seed_order
from scoring import services as scoring_services
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.models import Match, Seat
from standings import selectors

MIN_PLAYERS, MAX_PLAYERS = 2, 128
"""A knockout's limits (`formats.knockout.Knockout`)."""

MIN_THIRD_PLACE_PLAYERS = 4
CLEARED = "bracket correction"
"""The history's change reason on deals and matches a correction upstream cleared."""
WITHDRAWN = "withdrawal"


# --------------------------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------------------------


def _refuse_unless_knockout(tournament: Tournament) -> None:
    if not registry.for_tournament(tournament).has_bracket:
        raise KnockoutError("not_knockout")


def seeds_set(*, tournament: Tournament, order: list[int]) -> None:
    """Seed the entries with ids `order` 1, 2, ... (1 is the best). See `draw_numbers_set`."""
    draw_numbers_set(tournament=tournament, order=order)


def seeds_by_lot(*, tournament: Tournament, rng: random.Random | None = None) -> None:
    """Seed the players by drawing lots."""
    order = list(tournament.entries.order_by("pk").values_list("pk", flat=True))
    (rng or random.SystemRandom()).shuffle(order)
    draw_numbers_set(tournament=tournament, order=order)


@transaction.atomic
def seeds_by_rating(*, tournament: Tournament) -> tuple[int, int]:
    """Seed the players of the draft knockout `tournament` by their rating over every event
    (`PlayerRating`, as last recomputed): `ratings.periods.seed_order` puts the
    highest rating first, equal ratings by lower deviation then by name, and the players
    never rated after the rated ones, by name. Provisional ratings count as ratings.

    Returns (rated, unrated): how many players of each kind were seeded. Raises
    `TournamentError`: `already_started`, `not_knockout`.
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    _refuse_unless_knockout(tournament)
    entries = list(tournament.entries.select_related("player"))
    ratings = {
        rating.player_id: rating
        for rating in PlayerRating.objects.filter(player__entries__tournament=tournament)
    }
    candidates = []
    for entry in entries:
        rating = ratings.get(entry.player_id)
        candidates.append(SeedCandidate(
            entry.pk, entry.player.name, rating and rating.rating, rating and rating.deviation
        ))
    draw_numbers_set(tournament=tournament, order=seed_order(candidates))
    rated = sum(1 for entry in entries if entry.player_id in ratings)
    return rated, len(entries) - rated


@transaction.atomic
def seeds_from_standings(
    *, tournament: Tournament, source: Tournament, count: int | None = None
) -> list[Entry]:
    """Make the players of the draft knockout `tournament` the top `count` (default: all) of
    the finished round robin `source`'s standings, seeded in standings order. Players who
    withdrew from `source` are left out. The knockout's current players are replaced.

    Raises `TournamentError`: `already_started`, `not_knockout`, `source_not_round_robin`,
    `source_not_finished`, `bad_seed_count`.
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    _refuse_unless_knockout(tournament)
    if not registry.for_tournament(source).seeds_a_knockout or source.pk == tournament.pk:
        raise KnockoutError("source_not_round_robin")
    if source.status != Tournament.Status.FINISHED:
        raise KnockoutError("source_not_finished")
    players = [entry.player for entry, _row in selectors.standings(source) if not entry.withdrawn]
    available = min(len(players), MAX_PLAYERS)
    count = available if count is None else count
    if not MIN_PLAYERS <= count <= available:
        raise TournamentError("bad_seed_count", low=MIN_PLAYERS, high=available)
    tournament.entries.all().delete()
    entries = Entry.objects.bulk_create([
        Entry(tournament=tournament, player=player, number=seed)
        for seed, player in enumerate(players[:count], start=1)
    ])
    tournament.seeded_from = source
    tournament.save(update_fields=["seeded_from"])
    return entries


# --------------------------------------------------------------------------------------------
# The bracket in the database
# --------------------------------------------------------------------------------------------


@dataclass
class _Bracket:
    """One knockout being changed: its rows are read (and locked, unless `lock` is false: a
    first look before the match locks) as they are needed."""

    tournament: Tournament
    rounds: int
    house_rules: dict = field(default_factory=dict)
    lock: bool = True
    first: int = 1
    """The number of the bracket's first round (after a group stage's rounds, if any)."""

    @classmethod
    def of(cls, tournament: Tournament, lock: bool = True) -> _Bracket:
        first, rounds = knockout_rounds(tournament)
        return cls(
            tournament=tournament, rounds=rounds,
            house_rules=tournament.house_rules().to_dict(), lock=lock, first=first,
        )

    @property
    def last(self) -> int:
        """The number of the final's round."""
        return self.first + self.rounds - 1

    def pairing(self, number: int, index: int, third_place: bool = False) -> Pairing:
        """The pairing at this place, with its entries and match as committed."""
        return _pairings(
            self.lock, round__tournament=self.tournament, round__number=number,
            bracket_index=index, is_third_place=third_place,
        )[0]

    def targets(self, pairing: Pairing) -> list[tuple[Pairing, str]]:
        """Where the result of `pairing` goes: (pairing, seat) of its winner, and of its loser
        when it is a semifinal and there is a third-place match."""
        number = pairing.round.number
        if pairing.is_third_place or number == self.last:
            return []
        index, seat = next_slot(number - self.first, pairing.bracket_index)
        targets = [(self.pairing(number + 1, index), seat)]
        if self.tournament.third_place_match and number == self.last - 1:
            targets.append((self.pairing(self.last, 0, third_place=True), seat))
        return targets


def knockout_rounds(tournament: Tournament) -> tuple[int, int]:
    """(number of the first round, rounds) of the tournament's bracket: the rounds that are
    not a group stage's (`Round.Stage.GROUPS`). (1, 0) before the bracket is drawn. One query."""
    found = tournament.rounds.exclude(stage=Round.Stage.GROUPS).aggregate(
        first=Min("number"), count=Count("pk")
    )
    return found["first"] or 1, found["count"]


def _pairings(lock: bool, *conditions, **filters) -> list[Pairing]:
    """The pairings matching the filters with their entries and match; with `lock`, their rows
    are locked first and then read. Two steps on purpose: on PostgreSQL a
    `SELECT ... FOR UPDATE` that had to wait for another transaction returns the pairing row as
    that transaction left it, but the rows it joins (`select_related`) as they were before, so
    a seat just filled would come back empty. Read once the lock is held, all is current."""
    pairings = Pairing.objects.filter(*conditions, **filters)
    if lock:
        ids = list(pairings.select_for_update(of=("self",)).order_by("pk").values_list(
            "pk", flat=True
        ))
        pairings = Pairing.objects.filter(pk__in=ids)
    return list(
        pairings.select_related("round", "entry_a__player", "entry_b__player", "match")
        .order_by("round__number", "is_third_place", "bracket_index")
    )


def _lock_matches(ids) -> None:
    """Lock these match rows (in one order: no two writers wait for each other)."""
    list(Match.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk")
         .values_list("pk", flat=True))


def _bracket_changed() -> RecordingError:
    return BracketChanged()


def _other(seat: str) -> str:
    return Seat.B if seat == Seat.A else Seat.A


def _winner_seat(pairing: Pairing) -> str:
    """The seat that went through, or "" while the pairing is undecided."""
    if pairing.match_id is not None:
        return pairing.match.winner if pairing.match.is_over else ""
    if pairing.walkover and pairing.entry_id(pairing.walkover) is not None:
        return pairing.walkover
    return ""


def _walkover_seat(bracket: _Bracket, pairing: Pairing) -> str:
    """The seat that goes through without playing: seat A of a first-round bye, or the
    opponent of a withdrawn player; "" when the pairing is to be played."""
    first_round_bye = pairing.round.number == bracket.first and not pairing.is_third_place
    if first_round_bye and pairing.entry_b_id is None:
        return Seat.A
    if pairing.entry_a is not None and pairing.entry_a.withdrawn:
        return Seat.B
    if pairing.entry_b is not None and pairing.entry_b.withdrawn:
        return Seat.A
    return ""


def _settle(bracket: _Bracket, pairing: Pairing) -> None:
    """After an entry arrived in (or left) `pairing`: mark a walkover and send its winner on,
    or create the match once both entries are known, or wait."""
    if pairing.match_id is not None:
        return
    walkover = _walkover_seat(bracket, pairing)
    if walkover != pairing.walkover:
        pairing.walkover = walkover
        pairing.save(update_fields=["walkover"])
    if walkover:
        if pairing.entry_id(walkover) is not None:
            _advance(bracket, pairing, walkover)
        return
    if pairing.entry_a_id is not None and pairing.entry_b_id is not None:
        pairing.match = Match.objects.create(
            player_a=pairing.entry_a.player, player_b=pairing.entry_b.player,
            first_dealer=Seat.A, house_rules_snapshot=bracket.house_rules,
        )
        pairing.save(update_fields=["match"])


def _place(bracket: _Bracket, pairing: Pairing, seat: str, entry: Entry) -> None:
    """Put `entry` into `seat` of `pairing` (nothing happens if it is there already)."""
    current = pairing.entry_id(seat)
    if current == entry.pk:
        return
    if current is not None:
        raise RuntimeError(f"{pairing} seat {seat} is taken by entry {current}")
    name = "entry_a" if seat == Seat.A else "entry_b"
    setattr(pairing, name, entry)
    pairing.save(update_fields=[name])
    _settle(bracket, pairing)


def _advance(bracket: _Bracket, pairing: Pairing, winner_seat: str) -> None:
    """Send the winner of the decided `pairing` on (and a semifinal's loser to third place)."""
    winner, loser = pairing.entry(winner_seat), pairing.entry(_other(winner_seat))
    for position, (target, seat) in enumerate(bracket.targets(pairing)):
        entry = winner if position == 0 else loser
        if entry is not None:
            _place(bracket, target, seat, entry)


def _refresh_status(bracket: _Bracket) -> None:
    """Finished once the final (and the third-place match, if any) is decided
    (`bracket_decided`). Decided under the tournament's lock (`services.tournament_lock`,
    taken last, after the match and pairing rows), so a final and a third-place match ending
    at the same moment leave it finished: the second to decide waits for the first to
    commit, then reads both results."""
    tournament_status_update(tournament_lock(bracket.tournament))


def bracket_decided(tournament: Tournament) -> bool:
    """Whether the knockout's final, and its third-place match when it has one, are decided
    (by a result or a walkover): the knockout is then over. Two queries."""
    first, rounds = knockout_rounds(tournament)
    if not rounds:
        return False
    last = _pairings(False, round__tournament=tournament, round__number=first + rounds - 1)
    return all(
        _winner_seat(pairing) for pairing in last
        if not pairing.is_third_place or tournament.third_place_match
    )


def _bracket_of_match(match: Match) -> tuple[_Bracket, Pairing] | None:
    pairing = (
        Pairing.objects.select_related(
            "round__tournament", "entry_a__player", "entry_b__player", "match"
        )
        .filter(match=match, bracket_index__isnull=False)
        .first()
    )
    if pairing is None:
        return None
    return _Bracket.of(pairing.round.tournament), pairing


# --------------------------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------------------------


@transaction.atomic
def knockout_start(*, tournament: Tournament, rng: random.Random | None = None) -> Tournament:
    """Fix the players and seeds and draw the whole bracket.

    Round 1 follows `bracket.first_round` in bracket order; the byes go to the best
    seeds, who move on to round 2 at once. Tables: round 1 numbers its matches 1, 2, ... top to
    bottom; later rounds use the position in the bracket (1-based), the third-place match
    (in the last round, when asked for) is table 2. Each match gets the house rules and seat A
    deals first. Lots are drawn as in a round robin (they are kept with the entries).

    Raises `TournamentError`: `already_started`, `not_knockout`, `too_few_knockout_players`,
    `too_many_knockout_players`, `third_place_needs_four`.
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    _refuse_unless_knockout(tournament)
    entries = list(tournament.entries.select_related("player").order_by("number", "pk"))
    n = len(entries)
    if n < MIN_PLAYERS:
        raise KnockoutError("too_few_knockout_players", min_players=MIN_PLAYERS, players=n)
    if n > MAX_PLAYERS:
        raise KnockoutError("too_many_knockout_players", max_players=MAX_PLAYERS, players=n)
    if tournament.third_place_match and n < MIN_THIRD_PLACE_PLAYERS:
        raise KnockoutError(
            "third_place_needs_four", min_players=MIN_THIRD_PLACE_PLAYERS, players=n
        )
    if [entry.number for entry in entries] != list(range(1, n + 1)):
        draw_numbers_set(tournament=tournament, order=[entry.pk for entry in entries])
        for seed, entry in enumerate(entries, start=1):
            entry.number = seed
    rng = rng or random.SystemRandom()
    for entry, lot in zip(entries, rng.sample(range(1, n + 1), n), strict=True):
        entry.lot = lot
    Entry.objects.bulk_update(entries, ["lot"])
    bracket_draw(tournament=tournament, seeded=entries)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


def bracket_draw(
    *, tournament: Tournament, seeded: list[Entry], first: int = 1,
    stage: str = Round.Stage.ONLY,
) -> None:
    """Draw the bracket of the (locked) `tournament` for the entries `seeded`, best seed
    first (2 to `MAX_PLAYERS` of them; the caller checked): its rounds numbered from
    `first` (1, or the round after a group stage) with `stage`, every pairing, the first
    round's matches and its byes sent on. Call it inside the caller's transaction; see
    `knockout_start` for the tables and the byes."""
    n = len(seeded)
    by_seed = dict(enumerate(seeded, start=1))
    size = bracket_size(n)
    count = rounds_count(size)
    rounds = Round.objects.bulk_create([
        Round(tournament=tournament, number=first + offset, stage=stage)
        for offset in range(count)
    ])
    pairings, table = [], 0
    for index, (better, other) in enumerate(first_round(n)):
        if other is not None:
            table += 1
        pairings.append(Pairing(
            round=rounds[0], bracket_index=index, table=table if other is not None else None,
            entry_a=by_seed[better], entry_b=by_seed.get(other),
            walkover=Seat.A if other is None else "",
        ))
    for number in range(2, count + 1):
        pairings += [
            Pairing(round=rounds[number - 1], bracket_index=index, table=index + 1)
            for index in range(size >> number)
        ]
    if tournament.third_place_match:
        pairings.append(
            Pairing(round=rounds[-1], bracket_index=0, table=2, is_third_place=True)
        )
    Pairing.objects.bulk_create(pairings)
    bracket = _Bracket(
        tournament=tournament, rounds=count, house_rules=tournament.house_rules().to_dict(),
        first=first,
    )
    for pairing in Pairing.objects.filter(round=rounds[0]).select_related(
        "round", "entry_a__player", "entry_b__player"
    ).order_by("bracket_index"):
        _settle(bracket, pairing)


@transaction.atomic
def knockout_advance(*, match: Match) -> None:
    """After `match` ended (`match_finished`): its winner fills the next pairing, a semifinal's
    loser the third-place pairing; a pairing with both entries gets its match; the tournament
    finishes with the final (and the third-place match). Other matches are ignored."""
    found = _bracket_of_match(match)
    if found is None:
        return
    bracket, pairing = found
    if match.winner:
        _advance(bracket, pairing, match.winner)
    _refresh_status(bracket)


def _voided(bracket: _Bracket, pairing: Pairing) -> list[tuple[Pairing, str]]:
    """The (pairing, seat) places downstream of `pairing` that its result filled, and
    everything decided from them, deepest first."""
    places = []
    for target, seat in bracket.targets(pairing):
        if target.entry_id(seat) is None:
            continue
        if _winner_seat(target):
            places += _voided(bracket, target)
        places.append((target, seat))
    return places


def _consequence(bracket: _Bracket, pairing: Pairing, seat: str) -> str | None:
    """One sentence for the confirmation: a started match that will be cleared."""
    match = pairing.match
    if match is None or match.status == Match.Status.SCHEDULED:
        return None
    deals = match.deals.count()
    params = {
        "round": pairing_label(pairing, bracket.rounds, bracket.first), "table": pairing.table,
        "a": match.player_a.name, "b": match.player_b.name,
        "points_a": match.game_points_a, "points_b": match.game_points_b, "deals": deals,
    }
    if match.status == Match.Status.FORFEITED:
        return _(
            "%(round)s, table %(table)s: %(a)s – %(b)s, %(points_a)s:%(points_b)s by forfeit, "
            "will be cleared."
        ) % params
    return ngettext(
        "%(round)s, table %(table)s: %(a)s – %(b)s, %(points_a)s:%(points_b)s after "
        "%(deals)s deal, will be cleared.",
        "%(round)s, table %(table)s: %(a)s – %(b)s, %(points_a)s:%(points_b)s after "
        "%(deals)s deals, will be cleared.",
        deals,
    ) % params


def _taken_out(bracket: _Bracket, pairing: Pairing, seat: str) -> str:
    return _("%(name)s is taken out of: %(round)s, table %(table)s.") % {
        "name": pairing.entry(seat).player.name,
        "round": pairing_label(pairing, bracket.rounds, bracket.first), "table": pairing.table,
    }


def _delete_match(match: Match, reason: str) -> None:
    """Delete a match and its deals; simple_history keeps both, with `reason`."""
    for deal in match.deals.all():
        deal._change_reason = reason
        deal.delete()
    match._change_reason = reason
    match.delete()


@transaction.atomic
def knockout_retract(*, match: Match, confirmed: bool = False) -> None:
    """After `match` reopened or changed winner (`match_reopened`): take back what its result
    sent downstream, and whatever was decided from it, so the bracket can fill again.

    A downstream match without deals is removed (it comes back when both entries are known
    again). If one has deals or was forfeited and `confirmed` is false, nothing changes:
    raises `scoring.services.ConfirmationRequired` listing every place taken back, which rolls
    back the correction that reopened `match`. Confirmed, those matches are cleared too.
    """
    found = _bracket_of_match(match)
    if found is None:
        return
    bracket, pairing = found
    # Lock the matches this may clear before any pairing (the lock order), then look again.
    first_look = _voided(replace(bracket, lock=False), pairing)
    to_lock = {target.match_id for target, _seat in first_look if target.match_id}
    _lock_matches(to_lock)
    places = _voided(bracket, pairing)
    if {target.match_id for target, _seat in places if target.match_id} - to_lock:
        raise _bracket_changed()
    cleared = [text for text in (_consequence(bracket, *place) for place in places) if text]
    if cleared and not confirmed:
        taken_out = [_taken_out(bracket, *place) for place in places]
        raise ConfirmationRequired(cleared + taken_out)
    for target, seat in places:
        old_match = target.match
        target.match = None
        setattr(target, "entry_a" if seat == Seat.A else "entry_b", None)
        target.walkover = _walkover_seat(bracket, target)
        target.save(update_fields=["match", "entry_a", "entry_b", "walkover"])
        if old_match is not None:
            _delete_match(old_match, CLEARED)
    _refresh_status(bracket)


def _pending_pairing(entry: Entry, lock: bool = True) -> Pairing | None:
    """The pairing `entry` is in whose result is not known yet (none once they are out, or
    champion)."""
    pairings = _pairings(
        lock, Q(entry_a=entry) | Q(entry_b=entry), round__tournament_id=entry.tournament_id,
        bracket_index__isnull=False,
    )
    for pairing in reversed(pairings):
        if not _winner_seat(pairing):
            return pairing
    return None


@transaction.atomic
def knockout_withdraw(*, entry: Entry, by) -> Entry:
    """Withdraw a player from a running knockout.

    Their next opponent goes through by walkover (recorded as a walkover, not as a match): at
    once if known, else as soon as they are. A match already being played (with deals) is
    forfeited to the opponent instead (`scoring.services.match_forfeit`). A player who is out
    (or has won) is only marked withdrawn.

    Raises `TournamentError` `not_started`, `already_finished`, `already_withdrawn` and
    `bracket_changed`.
    """
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament").get(
        pk=entry.pk
    )
    tournament = entry.tournament
    _refuse_unless_knockout(tournament)
    if not tournament.has_started:
        raise TournamentError("not_started")
    refuse_after_finish(tournament)
    if entry.withdrawn:
        raise TournamentError("already_withdrawn", name=entry.player.name)
    # The match this may forfeit or remove is locked before the pairings (the lock order).
    first_look = _pending_pairing(entry, lock=False)
    _lock_matches([first_look.match_id] if first_look and first_look.match_id else [])
    pairing = _pending_pairing(entry)
    if (pairing and (pairing.pk, pairing.match_id)) != (
        first_look and (first_look.pk, first_look.match_id)
    ):
        raise KnockoutError("bracket_changed")
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    if pairing is None:
        return entry
    for side in (pairing.entry_a, pairing.entry_b):  # the rows read before it was saved
        if side is not None and side.pk == entry.pk:
            side.withdrawn = True
    bracket = _Bracket.of(tournament)
    seat = Seat.A if pairing.entry_a_id == entry.pk else Seat.B
    match = pairing.match
    if match is not None and match.status == Match.Status.PLAYING:
        scoring_services.match_forfeit(match=match, winner=_other(seat), by=by)
        return entry
    if match is not None:  # not started: no match is played, the opponent walks over
        pairing.match = None
        pairing.save(update_fields=["match"])
        match._history_user = by
        _delete_match(match, WITHDRAWN)
    _settle(bracket, pairing)
    _refresh_status(bracket)
    return entry
