"""The one interface every event format implements: one interface, many formats.

Views, receivers and services never ask "which format is this?": they ask the tournament's
format object (`events.registry.for_tournament`) to do the thing, or one of the small
questions below. A format is a class over one `Tournament`; the services it calls do the
writing (locked, atomic) and raise `events.services.TournamentError`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events import services
from events.errors import TournamentError
from formats.groups.errors import GroupsError
from standings import selectors

if TYPE_CHECKING:
    from django.utils.functional import Promise

    from events.models import Entry, Tournament
    from scoring.models import Match


class EventFormat(ABC):
    """One event format (round robin, knockout, club night, ...) over one tournament.

    Class attributes answer what the pages ask; methods are the format's moves. Subclasses
    override what differs; the defaults suit a format whose players and their order are
    fixed before a start.
    """

    # ---- small questions ---------------------------------------------------------------
    min_players: ClassVar[int | None] = None
    """Players needed to start (None: no minimum)."""
    max_players: ClassVar[int | None] = None
    """Players the format takes at most (None: no limit); `services.entry_add` refuses more."""
    too_many_players_code: ClassVar[str] = "too_many_players"
    """The `TournamentError` code `services.entry_add` raises past `max_players`."""
    berger_cycles: ClassVar[int] = 0
    """Cycles of the FIDE Berger tables `services.tournament_start` schedules (1 single, 2
    double round robin); 0: this format is not scheduled from Berger tables."""
    main_page: ClassVar[str] = "standings:standings"
    """URL name (argument: the tournament's pk) of the event's main page: where a withdrawal
    returns, and where the match page's "back" link points."""
    overview_page: ClassVar[str] = "events:detail"
    """URL name of the event's overview; the generic overview redirects there if different."""
    seeded: ClassVar[bool] = False
    """The players' order is seeds (1 the best), not draw numbers: the pages say so."""
    has_bracket: ClassVar[bool] = False
    """The event has a bracket page (and a bracket to print)."""
    pairs_on_the_spot: ClassVar[bool] = False
    """The organiser pairs players as they arrive (club night pages); no start, no draw."""
    seeded_from_standings: ClassVar[bool] = False
    """The players page offers to take the players and seeds from a round robin's standings."""
    seeded_by_rating: ClassVar[bool] = False
    """The players page offers to seed the players by their ratings
    (`knockout.seeds_by_rating`). Not for draw numbers: FIDE draws those by lot."""
    seeds_a_knockout: ClassVar[bool] = False
    """A finished event of this format may give a knockout its players and seeds."""
    offered_on_the_form: ClassVar[bool] = True
    """The tournament form offers this format (a club night is opened from its own form)."""
    has_third_place_match: ClassVar[bool] = False
    """The "third-place match" setting means something for this format."""
    has_groups: ClassVar[bool] = False
    """The event starts with a group stage (groups of round robins, `formats.groups.services`):
    its main page shows a table per group, its rounds the group of each pairing, and the
    organiser may start the knockout (`start_knockout`) before the last group match ends."""
    pairs_round_by_round: ClassVar[bool] = False
    """The organiser pairs each next round once the last one is over (`pair_next_round`),
    as in a Swiss; the other formats schedule every round at the start or as matches end."""

    standings_by_score: ClassVar[bool] = False
    """The standings rank by score (wins, and byes when they score) with the Swiss
    tie-breaks of `standings.swiss_tie_breaks` (Buchholz, ...) in their published order, and state
    FIDE's rule for unplayed rounds; else by match wins and the tournament's own order."""
    takes_late_entries: ClassVar[bool] = False
    """Players may join after the start (between rounds: `refuse_late_entry`); the players
    page keeps its form to add them."""
    stage: ClassVar[str] = ""
    """What its rounds are called in a simulation's report (`simulate_event`): "round_robin",
    "knockout", "swiss", ... A format with stages (groups, then a knockout) answers per round
    in `stage_of`."""

    order_saved: ClassVar[Promise] = _("Draw numbers saved.")
    """The notices after the order (draw numbers, or seeds) was saved, drawn by lot; after
    the start."""
    order_drawn: ClassVar[Promise] = _("Draw numbers drawn by lot.")
    started: ClassVar[Promise] = _("The tournament has started. Round 1 is ready.")

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.tournament.pk}>"

    # ---- before the start ----------------------------------------------------------------
    def set_order(self, *, order: list[int]) -> None:
        """Give the entries with ids `order` the numbers 1, 2, ... (draw numbers, or seeds:
        1 is the best). Raises `TournamentError` (`already_started`,
        `draw_not_a_permutation`)."""
        services.draw_numbers_set(tournament=self.tournament, order=order)

    def draw_by_lot(self, *, rng: random.Random | None = None) -> None:
        """Number the entries by lot (`rng`: the caller's source of randomness, by default
        the system's). Raises `TournamentError` `already_started`."""
        services.draw_numbers_by_lot(tournament=self.tournament, rng=rng)

    @abstractmethod
    def start(self, *, rng: random.Random | None = None) -> Tournament:
        """Fix the players and create what is played first; return the (running)
        tournament. Raises `TournamentError` with the reason when it cannot start."""

    def page_after_start(self) -> str:
        """The URL the organiser goes to once the event has started."""
        return reverse("events:round", args=[self.tournament.pk, 1])

    # ---- while it runs -------------------------------------------------------------------
    @abstractmethod
    def withdraw(self, *, entry: Entry, by) -> Entry:
        """Withdraw `entry` from the running event (`by`: the user, for the history) and
        return it, marked withdrawn. Raises `TournamentError` (`not_started`,
        `already_withdrawn`, ...)."""

    @abstractmethod
    def on_match_finished(self, match: Match) -> None:
        """`match` (locked) of this event has just ended (`scoring.signals.match_finished`),
        inside the recording transaction."""

    @abstractmethod
    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        """`match` (locked) is playing again or has another winner
        (`scoring.signals.match_reopened`). May raise
        `scoring.services.ConfirmationRequired` unless `confirmed`, which rolls the change
        back."""

    def result_is_final(self, match: Match) -> bool:
        """Whether the finished `match` may no longer reopen or change winner (its undo and
        winner-changing corrections are refused by `on_match_reopened`; the match page offers
        no undo). By default any result may be reopened."""
        return False

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the (locked, started) event is over; `services.tournament_status_update`
        sets the status from it."""

    def pair_next_round(self, *, by, rng: random.Random | None = None):
        """Pair the next round of an event that `pairs_round_by_round` and return the new
        `Round` (`by`: the user, for the history). Raises `TournamentError` when it cannot be
        paired now (the last round is not over, no round is left). Formats that schedule
        their rounds otherwise do not offer it."""
        raise NotImplementedError(f"{type(self).__name__} does not pair round by round")

    def pair_again(self, *, number: int, by):
        """Pair round `number` (the last one) anew while it has no deal, for formats that
        `pairs_round_by_round`; returns the new `Round`. Raises `TournamentError`."""
        raise NotImplementedError(f"{type(self).__name__} does not pair round by round")

    def can_pair_next(self) -> bool:
        """Whether the organiser may pair the next round now (`pair_next_round`)."""
        return False

    def can_pair_again(self, round_) -> bool:
        """Whether `round_` may still be paired again (`pair_again`)."""
        return False

    def refuse_late_entry(self, tournament: Tournament) -> None:
        """Raise `TournamentError` unless a player may join the started, locked `tournament`
        now. By default nobody joins after the start (`already_started`)."""
        raise TournamentError("already_started")

    def tie_break_order(self) -> list[str]:
        """The tie-break keys the standings apply, in order (their columns, their legend)."""
        return list(self.tournament.tie_breaks)

    def can_start_knockout(self) -> bool:
        """Whether the organiser may start the knockout now (a group stage that is being
        played, its knockout not drawn yet); no for formats without groups."""
        return False

    def start_knockout(self, *, by, confirmed: bool = False) -> Tournament:
        """Draw the knockout from the group standings now (`groups.knockout_start_now`:
        group matches not over refuse it unless `confirmed`; they are then closed unplayed).
        Raises `TournamentError`; formats without groups raise `not_groups`."""
        raise GroupsError("not_groups")

    def stage_of(self, round_, entry=None) -> tuple[str, str | None]:
        """(stage, group name or None) of `round_` (a `Round` of this event), as played by
        `entry` (an `Entry` paired in it; None: the round as a whole): by default the
        format's `stage` and no group. A format of groups then a knockout answers ("group",
        "A") for a group round played by a player of group A (a group round holds every
        group's round: ("group", None) without an entry) and ("knockout", None) after."""
        return self.stage, None

    def groups(self) -> list:
        """The event's groups, for a format that has them: a list of objects with `name`
        ("A"), `entries` (its `Entry` rows) and `ranked` (the same, best first). By default
        none."""
        return []

    def ranking(self) -> list[tuple[int, Entry]]:
        """The event's players as ranked now, best first: (rank, entry); equal places share a
        rank. By default the standings (`selectors.standings`: match wins, then the
        tie-breaks); a knockout ranks by the round each player went out in."""
        return [(row.rank, entry) for entry, row in selectors.standings(self.tournament)]

    def round_labels(self, count: int) -> dict[int, str]:
        """{round number: name} for an event of `count` rounds; {} where rounds have only
        numbers."""
        return {}
