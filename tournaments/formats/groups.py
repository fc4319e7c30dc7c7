"""Groups, then a knockout, in one event: each group a round robin on the Berger tables, the
first `group_advance` of each going on to a knockout seeded from the group places
(`tournaments.groups`, `tournaments.pure.groups`)."""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.models import Match
from tournaments import groups, knockout, services
from tournaments.formats.base import EventFormat
from tournaments.labels import round_labels
from tournaments.models import Entry, Round, Tournament


class GroupsKnockout(EventFormat):
    """Seeds (by hand, by lot or by rating) spread the players over the groups; the main page
    shows the group tables and, once drawn, the bracket. Over when the knockout's final (and
    third-place match, if any) is decided."""

    min_players = 3
    max_players = knockout.MAX_PLAYERS
    too_many_players_code = "too_many_players"
    main_page = "tournaments:groups"
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
        return reverse("tournaments:groups", args=[self.tournament.pk])

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
            raise groups.GroupStageOver()
        if services.has_withdrawn_player(tournament=self.tournament, match=match):
            raise services.ResultFinal()
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
