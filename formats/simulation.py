"""Simulated events (`manage.py simulate_event`): an event of generated players, every match
played with random legal deals (`scoring.simulation`) through the services a user's
entry goes through, and a report of what happened.

Generic over the format seam: `FORMATS` holds, per `--format` value, only how the event is
created (its `Tournament.format` value and the fields the options set); it is started with
`registry.for_tournament(t).start()`, each match is recorded with
`scoring.services.match_scorecard_record` (the whole scorecard at once, as the scorecard grid
on the match page records it: locked, checked by the rules, with history, the match
announced finished so that a knockout advances and the event's status follows), and a format
that `pairs_round_by_round` (a Swiss) is asked for its next round with
`pair_next_round(by=..., rng=...)` whenever no match is left to play, until it refuses
(`TournamentError`) or the event is finished.

Adding a format is one line in `FORMATS`, once its class is in `registry.REGISTRY`. What the
report reads of it: `start(rng=)`, `pair_next_round(by=, rng=)` (round by round only),
`stage_of(round)` (stage name and group of each round), `groups()` (objects with `name`,
`entries`, `ranked`) and `ranking()` ([(rank, entry)]), all on `formats.base.EventFormat`.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import translation

from club.models import Player
from club.services import players_named
from core.messages import user_message
from events import registry
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from formats.swiss.pairing import suggested_rounds
from scoring import services as scoring_services
from scoring.models import Match
from scoring.simulation import random_match


@dataclass(frozen=True)
class Options:
    """What the command was asked for: `players` (how many), `rounds` (a Swiss's rounds),
    `groups` (how many groups), `advance` (players each group sends on), `seed`."""

    format: str
    players: int
    rounds: int | None = None
    groups: int | None = None
    advance: int | None = None
    seed: int | None = None


@dataclass(frozen=True)
class Recipe:
    """How one `--format` is created: its `Tournament.format` value and the model fields the
    options set (`fields(options) -> dict`)."""

    format: str
    fields: Callable[[Options], dict]
    needs: tuple[str, ...] = ()
    """The options this format cannot do without ("rounds", "groups", "advance")."""


FORMATS: dict[str, Recipe] = {
    "round_robin": Recipe("round_robin", lambda o: {}),
    "knockout": Recipe("knockout", lambda o: {}),
    # Without --rounds a Swiss plays the suggested ⌈log₂ n⌉ + 1 rounds, as the form suggests.
    "swiss": Recipe("swiss", lambda o: {"swiss_rounds": o.rounds or suggested_rounds(o.players)}),
    "groups": Recipe("groups_knockout",
                     lambda o: {"group_count": o.groups, "group_advance": o.advance},
                     needs=("groups", "advance")),
}
"""`--format` value -> how its event is created. Only `start(rng=)`, the recording service and
(round by round) `pair_next_round(by=, rng=)` play it; the report asks the format object's
`stage_of(round)`, `groups()` and `ranking()`, whose defaults suit one-stage formats: a format
with groups answers the first two for its group stage, and a format ranked otherwise than by
`selectors.standings` (a Swiss's score and its tie-breaks) answers `ranking()`."""

CHOICES = ("swiss", "groups", "round_robin", "knockout")
"""The `--format` values the command accepts; those not in `FORMATS` (or whose format is not
registered) are refused with exit status 2 (`FormatMissing`)."""


class FormatMissing(Exception):
    """The format was asked for but this site does not have it yet."""


class BadOptions(Exception):
    """The options cannot make an event (too few or too many players, ...): `str` says why."""


def player_name(number: int) -> str:
    """The generated player number `number` (1-based): "Player 001"."""
    return f"Player {number:03d}"


def recipe_for(options: Options) -> Recipe:
    """The recipe of `options.format`; raises `FormatMissing` when the site has no such
    format yet, `BadOptions` when the players do not fit it."""
    recipe = FORMATS.get(options.format)
    if recipe is None or recipe.format not in registry.REGISTRY:
        raise FormatMissing(
            f"The format {options.format!r} is not available on this site yet; "
            f"simulate one of: {', '.join(sorted(FORMATS))}."
        )
    event_format = registry.format_class(recipe.format)
    least, most = event_format.min_players or 2, event_format.max_players
    if options.players < least:
        raise BadOptions(f"A {options.format} needs at least {least} players, not "
                         f"{options.players}.")
    if most is not None and options.players > most:
        raise BadOptions(f"A {options.format} takes at most {most} players, not "
                         f"{options.players}.")
    for name in recipe.needs:
        if getattr(options, name) is None:
            raise BadOptions(f"A {options.format} needs --{name}.")
    return recipe


def simulate(options: Options, *, by=None) -> dict:
    """Create, play and finish one event as `options` ask, in one transaction, and return
    its report (`report`). `by`: the user recorded as organiser and as who entered the
    deals (None: nobody). Raises `FormatMissing`, `BadOptions` before writing anything (the
    format's own start refusing the options, e.g. too many Swiss rounds or groups too small,
    is a `BadOptions` with its sentence, in English, and rolls back), and `RuntimeError`
    for an event that stops before it is finished (a bug)."""
    recipe = recipe_for(options)
    rng = random.Random(options.seed)
    with transaction.atomic():
        tournament = _create(recipe, options, by)
        event_format = registry.for_tournament(tournament)
        try:
            event_format.start(rng=rng)
        except TournamentError as error:
            with translation.override("en"):
                sentence = user_message(error)
            raise BadOptions(f"These options cannot make a {options.format}: {sentence}") \
                from None
        _play(tournament, event_format, rng, by)
        return report(tournament, options)


def _create(recipe: Recipe, options: Options, by) -> Tournament:
    names = [player_name(number) for number in range(1, options.players + 1)]
    known = players_named(names, club=None)
    Player.objects.bulk_create([Player(name=name) for name in names if name not in known])
    known = players_named(names, club=None)
    tournament = Tournament.objects.create(
        name=f"Simulation: {options.format}, {options.players} players, seed {options.seed}",
        date=datetime.date.today(), format=recipe.format, is_public=False,
        **recipe.fields(options),
    )
    if by is not None:
        tournament.organisers.add(by)
    # entry_add per player would lock and count per player; the numbers are 1..n in order.
    Entry.objects.bulk_create([
        Entry(tournament=tournament, player=known[name], number=number)
        for number, name in enumerate(names, start=1)
    ])
    return tournament


def _play(tournament: Tournament, event_format, rng: random.Random, by) -> None:
    while True:
        to_play = list(
            Match.objects.filter(pairing__round__tournament=tournament)
            .exclude(status__in=Match.OVER)
            .order_by("pairing__round__number", "pairing__table", "pk")
        )
        for match in to_play:
            deals = random_match(rng, match.house_rules(), match.first_dealer)
            scoring_services.match_scorecard_record(match=match, scores=deals, by=by)
        tournament.refresh_from_db(fields=["status"])
        if tournament.status == Tournament.Status.FINISHED:
            return
        if to_play:
            continue
        if not event_format.pairs_round_by_round:
            raise RuntimeError(f"{tournament} stopped before it was finished.")
        try:
            event_format.pair_next_round(by=by, rng=rng)
        except TournamentError:
            tournament.refresh_from_db(fields=["status"])
            if tournament.status != Tournament.Status.FINISHED:
                raise
            return


def report(tournament: Tournament, options: Options) -> dict:
    """What happened, as plain data (the command prints it as JSON): the event's id
    (`event`), the format, the players,
    `advance`, the groups (name, players, standings best first), every round (number, stage,
    group, its pairings with table, players, winner seat and final game points, its byes) and
    the final ranking."""
    event_format = registry.for_tournament(tournament)
    entries = list(tournament.entries.select_related("player").order_by("number"))
    rounds = []
    pairings = (
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "entry_a__player", "entry_b__player", "match")
        .order_by("round__number", "is_third_place", "table", "bracket_index", "pk")
    )
    by_round: dict[int, list[Pairing]] = {}
    for pairing in pairings:
        by_round.setdefault(pairing.round_id, []).append(pairing)
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        rounds += _round_reports(event_format, round_, by_round.get(round_.pk, []))
    return {
        "event": tournament.pk,
        "format": options.format,
        "players": [entry.player.name for entry in entries],
        "advance": options.advance,
        "groups": [
            {"name": group.name, "players": [e.player.name for e in group.entries],
             "standings": [e.player.name for e in group.ranked]}
            for group in event_format.groups()
        ],
        "rounds": rounds,
        "standings": [
            {"rank": rank, "player": entry.player.name}
            for rank, entry in event_format.ranking()
        ],
    }


def _round_reports(event_format, round_: Round, pairings: list[Pairing]) -> list[dict]:
    """One entry per round, or per group and round when the format says which group each
    pairing belongs to (`stage_of(round_, entry)`), group A first."""
    reports: dict[tuple[str, str | None], dict] = {}
    if not pairings:
        stage, group = event_format.stage_of(round_)
        reports[stage, group] = _round_report(round_, stage, group)
    for pairing in pairings:
        stage, group = event_format.stage_of(round_, pairing.entry_a or pairing.entry_b)
        entry = reports.get((stage, group))
        if entry is None:
            entry = reports[stage, group] = _round_report(round_, stage, group)
        if pairing.match is None:
            for seat in ("A", "B"):
                player = pairing.entry(seat)
                if player is not None and (not pairing.walkover or pairing.walkover == seat):
                    entry["byes"].append(player.player.name)
            continue
        match = pairing.match
        entry["pairings"].append({
            "table": pairing.table, "a": pairing.entry_a.player.name,
            "b": pairing.entry_b.player.name, "winner": match.winner.lower() or None,
            "score": [match.game_points_a, match.game_points_b],
        })
    return sorted(reports.values(), key=lambda report: report["group"] or "")


def _round_report(round_: Round, stage: str, group: str | None) -> dict:
    return {"number": round_.number, "stage": stage, "group": group, "pairings": [],
            "byes": []}
