"""Every write of an event played as groups, then a knockout.

* `groups_start` spreads the players over the groups in snake order by seed
  (`formats.groups.placement.snake_groups`; the seeds are set by hand, by lot or by rating on
  the players page) and schedules each group as a single round robin on the FIDE Berger
  tables (`formats.round_robin.berger`), the best seed of the group its number 1. Round r of
  the event holds round r of every group (stage `groups`), tables numbered across the
  groups, group A first; a group of odd size has a player resting each round.
* The knockout is drawn (`knockout.bracket_draw`, in the rounds after the group stage, stage
  `knockout`) as soon as the last group match is over (`knockout_when_groups_over`, from the
  format's `on_match_finished`), or when the organiser says so (`knockout_start_now`). The
  first `group_advance` of each group's standings (`selectors.group_tables`) go on, seeded
  by `formats.groups.placement.knockout_order`: the group winners first, and two players of
  one group as far apart as the bracket allows.
* Starting the knockout early: while any group match is not over the organiser is asked to
  confirm (`group_matches_unfinished`, nothing written); once confirmed those matches are
  closed unplayed (they count for nothing, like a withdrawal's) and the groups are ranked as
  they stand. From then on the group results are final (`group_stage_over`).
* `groups_event_create` makes and starts a whole event in one go (for commands and
  simulations).

Locks follow `services.tournament_lock`: match rows first, then the tournament row. Errors
an organiser can fix raise `TournamentError`; nothing is written then.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction

from club.services import player_for_name
from events import registry
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from events.services import (
    draw_numbers_set,
    entry_withdraw,
    refuse_after_finish,
    refuse_after_start,
    tournament_lock,
    tournament_status_update,
)
from formats.groups.errors import GroupsError
from formats.groups.placement import groups_problem, knockout_order, snake_groups
from formats.knockout import services as knockout
from formats.knockout.errors import KnockoutError
from formats.round_robin.berger import berger_rounds
from scoring import services as scoring_services
from scoring.models import Match
from standings import selectors


def refuse_bad_groups(tournament: Tournament, players: int) -> None:
    """Raise `TournamentError` unless `players` can play the tournament's groups:
    `groups_not_set` (no number of groups, or of players going on), `groups_too_small`,
    `groups_too_large`, `bad_group_advance` (`placement.groups_problem`), and
    `third_place_needs_four` when a third-place match is asked of fewer than 4 qualifiers."""
    groups, advance = tournament.group_count, tournament.group_advance
    if not groups or not advance:
        raise GroupsError("groups_not_set")
    problem = groups_problem(players, groups, advance)
    if problem is not None:
        code, params = problem
        raise TournamentError(code, **params)
    if tournament.third_place_match and groups * advance < knockout.MIN_THIRD_PLACE_PLAYERS:
        raise KnockoutError(
            "third_place_needs_four", min_players=knockout.MIN_THIRD_PLACE_PLAYERS,
            players=groups * advance,
        )


@transaction.atomic
def groups_start(*, tournament: Tournament, rng: random.Random | None = None) -> Tournament:
    """Draw the groups and schedule the group stage of the draft `tournament`; return it,
    running.

    Seeds are the entries' numbers (1 the best). Lots for the last tie-break are drawn as in
    a round robin. Each match gets the house rules; seat A of each Berger pair deals first.
    Raises `TournamentError`: `already_started`, `not_groups`, and those of
    `refuse_bad_groups`.
    """
    tournament = tournament_lock(tournament)
    refuse_after_start(tournament)
    if not registry.for_tournament(tournament).has_groups:
        raise GroupsError("not_groups")
    entries = list(tournament.entries.select_related("player").order_by("number", "pk"))
    refuse_bad_groups(tournament, len(entries))
    if [entry.number for entry in entries] != list(range(1, len(entries) + 1)):
        draw_numbers_set(tournament=tournament, order=[entry.pk for entry in entries])
    rng = rng or random.SystemRandom()
    lots = rng.sample(range(1, len(entries) + 1), len(entries))
    by_seed = {}
    for seed, (entry, lot) in enumerate(zip(entries, lots, strict=True), start=1):
        entry.number, entry.lot = seed, lot
        by_seed[seed] = entry
    groups = snake_groups(len(entries), tournament.group_count)
    for group, seeds in enumerate(groups, start=1):
        for seed in seeds:
            by_seed[seed].group = group
    Entry.objects.bulk_update(entries, ["lot", "group"])

    schedules = [berger_rounds(len(seeds)) for seeds in groups]
    house_rules = tournament.house_rules().to_dict()
    for number in range(1, max(len(schedule) for schedule in schedules) + 1):
        round_ = Round.objects.create(
            tournament=tournament, number=number, stage=Round.Stage.GROUPS
        )
        table = 0
        for seeds, schedule in zip(groups, schedules, strict=True):
            if number > len(schedule):
                continue
            for seat_a, seat_b in schedule[number - 1]:
                entry_a = by_seed[seeds[seat_a - 1]] if seat_a <= len(seeds) else None
                entry_b = by_seed[seeds[seat_b - 1]] if seat_b <= len(seeds) else None
                if entry_a is None or entry_b is None:  # the dummy: its opponent rests
                    Pairing.objects.create(round=round_, entry_a=entry_a or entry_b)
                    continue
                table += 1
                match = Match.objects.create(
                    player_a=entry_a.player, player_b=entry_b.player,
                    house_rules_snapshot=house_rules,
                )
                Pairing.objects.create(
                    round=round_, table=table, entry_a=entry_a, entry_b=entry_b, match=match
                )
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return tournament


def group_matches(tournament: Tournament):
    """The matches of the tournament's group stage (a queryset)."""
    return Match.objects.filter(
        pairing__round__tournament=tournament, pairing__round__stage=Round.Stage.GROUPS
    )


def knockout_drawn(tournament: Tournament) -> bool:
    """Whether the knockout after the group stage has been drawn. One query."""
    return tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).exists()


def is_group_match(match: Match) -> bool:
    """Whether `match` is played in a group stage. One query."""
    return Pairing.objects.filter(match=match, round__stage=Round.Stage.GROUPS).exists()


def _draw_knockout(tournament: Tournament) -> bool:
    """Draw the knockout of the (locked) `tournament` from the group standings; False (and
    nothing written) when fewer than two players go on (withdrawals)."""
    going_on = {
        (table.number, place): entry
        for table in selectors.group_tables(tournament)
        for place, entry in enumerate(table.qualifiers(), start=1)
    }
    order = knockout_order(tournament.group_count, tournament.group_advance)
    seeded = [going_on[place] for place in order if place in going_on]
    if len(seeded) < knockout.MIN_PLAYERS:
        return False
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    knockout.bracket_draw(
        tournament=tournament, seeded=seeded, first=last + 1, stage=Round.Stage.KNOCKOUT
    )
    return True


def knockout_when_groups_over(*, match: Match) -> None:
    """After a group match ended (the format's `on_match_finished`, inside the recording
    transaction): once every group match is over (`Match.OVER`), draw the knockout. Under the
    tournament's lock, so the last two group matches ending at once draw it once."""
    tournament = Tournament.objects.filter(rounds__pairings__match=match).first()
    if tournament is None or tournament.status == Tournament.Status.DRAFT:
        return
    tournament = tournament_lock(tournament)
    if not knockout_drawn(tournament) and not group_matches(tournament).exclude(
        status__in=Match.OVER
    ).exists():
        _draw_knockout(tournament)
    tournament_status_update(tournament)


@transaction.atomic
def knockout_start_now(*, tournament: Tournament, by, confirmed: bool = False) -> Tournament:
    """The organiser starts the knockout (`by`: the user, for the history). Group matches not
    over yet refuse it unless `confirmed`; confirmed, they are closed unplayed
    (`scoring.services.match_close_unplayed`) and the groups ranked as they stand.

    Raises `TournamentError`: `not_started`, `already_finished`, `knockout_already_drawn`,
    `group_matches_unfinished` (with `count`, nothing written), `too_few_knockout_players`.
    """
    open_ids = list(group_matches(tournament).exclude(status__in=Match.OVER)
                    .values_list("pk", flat=True))
    matches = list(Match.objects.select_for_update().filter(pk__in=open_ids).order_by("pk"))
    tournament = tournament_lock(tournament)
    if not tournament.has_started:
        raise TournamentError("not_started")
    refuse_after_finish(tournament)
    if knockout_drawn(tournament):
        raise GroupsError("knockout_already_drawn")
    matches = [match for match in matches if not match.is_over]
    if matches and not confirmed:
        raise GroupsError("group_matches_unfinished", count=len(matches))
    for match in matches:
        scoring_services.match_close_unplayed(match=match, by=by)
    if not _draw_knockout(tournament):
        raise KnockoutError(
            "too_few_knockout_players", min_players=knockout.MIN_PLAYERS, players=0
        )
    tournament_status_update(tournament)
    return tournament


@transaction.atomic
def groups_withdraw(*, entry: Entry, by) -> Entry:
    """Withdraw a player: during the group stage under the tournament's withdrawal policy
    (`services.entry_withdraw`); once the knockout is drawn, as in a knockout (their next
    opponent walks over, `knockout.knockout_withdraw`)."""
    if knockout_drawn(entry.tournament):
        return knockout.knockout_withdraw(entry=entry, by=by)
    return entry_withdraw(entry=entry, by=by)


def groups_over(tournament: Tournament) -> bool:
    """Whether the event is over: its knockout drawn and decided (`knockout.bracket_decided`)."""
    return knockout_drawn(tournament) and knockout.bracket_decided(tournament)


@transaction.atomic
def groups_event_create(
    *, name: str, players: list[str], groups: int, advance: int,
    date: datetime.date | None = None, rng: random.Random | None = None, by=None, **fields,
) -> Tournament:
    """Create and start an event of groups, then a knockout, in one transaction: `players`
    are names (found or created in the register of the event's club,
    `club.services.player_for_name`), seeds in
    that order (1 the best); `groups` groups with the first `advance` of each going on.
    `fields`: other `Tournament` fields (venue, club, house rules, `third_place_match`...).
    `by`, when given, organises it.

    Raises `TournamentError` (nothing written): `already_entered` (a name twice), and those
    of `groups_start`.
    """
    tournament = Tournament.objects.create(
        name=name, date=date or datetime.date.today(), format=Tournament.Format.GROUPS_KNOCKOUT,
        group_count=groups, group_advance=advance, **fields,
    )
    if by is not None:
        tournament.organisers.add(by)
    seen = set()
    for seed, name_ in enumerate(players, start=1):
        player = player_for_name(name=name_, club=tournament.club)
        if player.pk in seen:
            raise TournamentError("already_entered", name=player.name)
        seen.add(player.pk)
        Entry.objects.create(tournament=tournament, player=player, number=seed)
    return groups_start(tournament=tournament, rng=rng)
