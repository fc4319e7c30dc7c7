"""Round robins, single and double: every player meets every other once (twice), on the FIDE
Berger schedule drawn at the start (`formats.round_robin.berger`, written by
`events.services.tournament_start`)."""

from __future__ import annotations

import random

from django.utils.translation import gettext_lazy as _

from events import services
from events.errors import ResultFinal
from events.models import Entry, Tournament
from events.registry import register
from formats.base import EventFormat
from scoring.models import Match


@register(Tournament.Format.ROUND_ROBIN)
class RoundRobin(EventFormat):
    """A single round robin: the Berger tables once. Over when every match is over
    (`Match.OVER`: finished, forfeited, or closed unplayed by a withdrawal)."""

    min_players = 3
    max_players = 100
    too_many_players_code = "too_many_players"
    berger_cycles = 1
    seeds_a_knockout = True
    stage = "round_robin"

    order_saved = _("Draw numbers saved.")
    order_drawn = _("Draw numbers drawn by lot.")
    started = _("The tournament has started. Round 1 is ready.")

    def start(self, *, rng: random.Random | None = None) -> Tournament:
        return services.tournament_start(tournament=self.tournament, rng=rng)

    def withdraw(self, *, entry: Entry, by) -> Entry:
        """Under the tournament's withdrawal policy (`services.entry_withdraw`)."""
        return services.entry_withdraw(entry=entry, by=by)

    def on_match_finished(self, match: Match) -> None:
        services.tournament_refresh_status(match=match, tournament=self.tournament)

    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        """Refused when the result is final (`result_is_final`: `ResultFinal`, which
        rolls the undo or correction back); else the event may be running again."""
        if self.result_is_final(match):
            raise ResultFinal()
        services.tournament_refresh_status(match=match)

    def result_is_final(self, match: Match) -> bool:
        """A player of the match has withdrawn (`services.has_withdrawn_player`): the
        withdrawal settled their matches, so none of them reopens or changes winner."""
        return services.has_withdrawn_player(tournament=self.tournament, match=match)

    def is_over(self) -> bool:
        return not Match.objects.filter(pairing__round__tournament=self.tournament).exclude(
            status__in=Match.OVER
        ).exists()


@register(Tournament.Format.DOUBLE_ROUND_ROBIN)
class DoubleRoundRobin(RoundRobin):
    """Twice round: the Berger tables, then again with seats reversed."""

    berger_cycles = 2
