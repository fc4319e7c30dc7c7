"""Groups, then a knockout, in one event: each group a round robin on the Berger tables, the
first `group_advance` of each going on to a knockout seeded from the group places
(`formats.groups.services`, `formats.groups.placement`)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events import services
from events.errors import ResultFinal
from events.models import Entry, Round, Tournament
from events.registry import register
from formats.base import EventFormat
from formats.groups import services as groups
from formats.groups.errors import GroupStageOver
from formats.knockout import selectors as knockout_selectors
from formats.knockout import services as knockout
from formats.knockout.labels import round_labels
from scoring.models import Match
from standings import selectors as standings_selectors


@dataclass(frozen=True)
class Group:
    """One group as `EventFormat.groups` gives it: `name` ("A"), `entries` (by seed) and
    `ranked` (the group's standings, best first; players whose results are cancelled last,
    by seed)."""

    name: str
    entries: list[Entry]
    ranked: list[Entry]


@register(Tournament.Format.GROUPS_KNOCKOUT)
class GroupsKnockout(EventFormat):
    """Seeds (by hand, by lot or by rating) spread the players over the groups; the main page
    shows the group tables and, once drawn, the bracket. Over when the knockout's final (and
    third-place match, if any) is decided."""

    min_players = 3
    max_players = knockout.MAX_PLAYERS
    too_many_players_code = "too_many_players"
    main_page = "groups:detail"
    seeded = True
    has_bracket = True
    has_groups = True
    seeded_by_rating = True
    has_third_place_match = True

    order_saved = _("Seeds saved.")
    order_drawn = _("Seeds drawn by lot.")
    started = _("The groups are drawn. Round 1 is ready.")

    def draw_by_lot(self, *, rng: random.Random | None = None) -> None:
        knockout.seeds_by_lot(tournament=self.tournament, rng=rng)

    def start(self, *, rng: random.Random | None = None) -> Tournament:
        return groups.groups_start(tournament=self.tournament, rng=rng)

    def page_after_start(self) -> str:
        return reverse("groups:detail", args=[self.tournament.pk])

    def withdraw(self, *, entry: Entry, by) -> Entry:
        """Under the withdrawal policy in the group stage; as in a knockout after it."""
        return groups.groups_withdraw(entry=entry, by=by)

    def on_match_finished(self, match: Match) -> None:
        """A group match: the knockout is drawn when it was the last one; a knockout match:
        its winner moves on."""
        if groups.is_group_match(match):
            groups.knockout_when_groups_over(match=match)
        else:
            knockout.knockout_advance(match=match)

    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        """A group match's result is final once the knockout is drawn or a player of it
        withdrew (`result_is_final`); a knockout match takes back what it sent on."""
        if not groups.is_group_match(match):
            knockout.knockout_retract(match=match, confirmed=confirmed)
            return
        if groups.knockout_drawn(self.tournament):
            raise GroupStageOver()
        if services.has_withdrawn_player(tournament=self.tournament, match=match):
            raise ResultFinal()
        services.tournament_refresh_status(match=match)

    def result_is_final(self, match: Match) -> bool:
        return groups.is_group_match(match) and (
            groups.knockout_drawn(self.tournament)
            or services.has_withdrawn_player(tournament=self.tournament, match=match)
        )

    def is_over(self) -> bool:
        return groups.groups_over(self.tournament)

    def can_start_knockout(self) -> bool:
        """The organiser may start the knockout now: the groups are playing and the
        knockout is not drawn yet."""
        return (self.tournament.status == Tournament.Status.RUNNING
                and not groups.knockout_drawn(self.tournament))

    def start_knockout(self, *, by, confirmed: bool = False) -> Tournament:
        return groups.knockout_start_now(tournament=self.tournament, by=by, confirmed=confirmed)

    def stage_of(self, round_: Round, entry: Entry | None = None) -> tuple[str, str | None]:
        """("group", the letter of `entry`'s group) for a round of the group stage,
        ("knockout", None) for the knockout's."""
        if round_.stage == Round.Stage.GROUPS:
            return "group", (entry.group_letter or None) if entry is not None else None
        return "knockout", None

    def groups(self) -> list[Group]:
        """Each group, A first, ranked as its table on the groups page
        (`standings_selectors.group_tables`)."""
        result = []
        for table in standings_selectors.group_tables(self.tournament):
            ranked = [entry for entry, _row in table.ranked] + list(table.standings.withdrawn)
            result.append(Group(table.letter, sorted(ranked, key=lambda e: e.number or 0),
                                ranked))
        return result

    def ranking(self) -> list[tuple[int, Entry]]:
        """The players who reached the knockout first, by how far they went
        (`knockout_selectors.knockout_ranking`: the champion 1, the runner-up 2, ...); then those
        who
        stayed in the groups, by group place: the first place of each group that did not go
        on (place `group_advance` + 1) shares the next rank, then the place after it, and so
        on (groups of different strength are not compared, as a knockout round's losers are
        not), equal places by seed; last, sharing one rank, the players whose group results
        were cancelled (withdrawn under the FIDE policy). Before the knockout is drawn every
        player ranks by group place this way, the group winners first."""
        ranked = list(knockout_selectors.knockout_ranking(self.tournament))
        placed = {entry.pk for _rank, entry in ranked}
        by_place: dict[int, list[Entry]] = {}
        cancelled: list[Entry] = []
        for table in standings_selectors.group_tables(self.tournament):
            for place, (entry, _row) in enumerate(table.ranked, start=1):
                if entry.pk not in placed:
                    by_place.setdefault(place, []).append(entry)
            cancelled += table.standings.withdrawn
        for place in sorted(by_place) + [None]:
            tier = by_place[place] if place is not None else cancelled
            rank = len(ranked) + 1
            ranked += [(rank, entry) for entry in sorted(tier, key=lambda e: e.number or 0)]
        return ranked

    def round_labels(self, count: int) -> dict[int, str]:
        """Group rounds: "Groups"; the knockout's: final, semifinal, ..."""
        stages = dict(self.tournament.rounds.values_list("number", "stage"))
        knockout_numbers = sorted(n for n, stage in stages.items()
                                  if stage == Round.Stage.KNOCKOUT)
        labels = {n: str(_("Groups")) for n, stage in stages.items()
                  if stage == Round.Stage.GROUPS}
        if knockout_numbers:
            first = knockout_numbers[0]
            for number, label in round_labels(len(knockout_numbers)).items():
                labels[first + number - 1] = label
        return labels
