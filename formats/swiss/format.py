"""The Swiss system: a fixed number of rounds, each paired by score groups once the one before
is over (`formats.swiss.pairing`, written by `formats.swiss.services`)."""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events import services
from events.models import Entry, Round, Tournament
from events.registry import register
from formats.base import EventFormat
from formats.swiss import services as swiss
from formats.swiss.errors import RoundPairedFromResult
from scoring.models import Match
from standings import selectors
from standings.swiss_tie_breaks import SWISS_TIE_BREAKS


@register(Tournament.Format.SWISS)
class Swiss(EventFormat):
    """Round by round: the organiser pairs each next round (`pair_next_round`) and may pair
    the last one again until its first deal; players may join or withdraw between rounds.
    Over when the last round is over."""

    min_players = swiss.MIN_PLAYERS
    max_players = swiss.MAX_PLAYERS
    too_many_players_code = "too_many_swiss_players"
    pairs_round_by_round = True
    standings_by_score = True
    takes_late_entries = True
    stage = "swiss"

    order_saved = _("Pairing numbers saved.")
    order_drawn = _("Pairing numbers drawn by lot.")
    started = _("The Swiss has started. Round 1 is paired.")

    def start(self, *, rng: random.Random | None = None) -> Tournament:
        return swiss.swiss_start(tournament=self.tournament, rng=rng)

    def page_after_start(self) -> str:
        return reverse("events:round", args=[self.tournament.pk, 1])

    def pair_next_round(self, *, by, rng: random.Random | None = None) -> Round:
        """The next round (`swiss.swiss_pair_next_round`); the pairing is deterministic, so
        `rng` is not used."""
        return swiss.swiss_pair_next_round(tournament=self.tournament, by=by)

    def pair_again(self, *, number: int, by) -> Round:
        """Round `number` (the last) paired anew before its first deal
        (`swiss.swiss_pair_again`)."""
        return swiss.swiss_pair_again(tournament=self.tournament, number=number, by=by)

    def refuse_late_entry(self, tournament: Tournament) -> None:
        swiss.swiss_refuse_late_entry(tournament)

    def withdraw(self, *, entry: Entry, by) -> Entry:
        """Between rounds only (`swiss.swiss_withdraw`)."""
        return swiss.swiss_withdraw(entry=entry, by=by)

    def on_match_finished(self, match: Match) -> None:
        services.tournament_refresh_status(match=match)

    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        """Refused once the next round has been paired from this result
        (`next_round_paired`, which rolls the undo or correction back)."""
        later = swiss.later_round_paired(tournament=self.tournament, match=match)
        if later is not None:
            raise RoundPairedFromResult(round=later)
        services.tournament_refresh_status(match=match)

    def result_is_final(self, match: Match) -> bool:
        return swiss.later_round_paired(tournament=self.tournament, match=match) is not None

    def tie_break_order(self) -> list[str]:
        return list(SWISS_TIE_BREAKS)

    def ranking(self) -> list[tuple[int, Entry]]:
        """By score, then the Swiss tie-breaks in their published order: the standings page's
        own (`selectors.swiss_standings`, through `selectors.standings`)."""
        return [(row.rank, entry) for entry, row in selectors.swiss_standings(self.tournament)]

    def is_over(self) -> bool:
        return swiss.swiss_is_over(self.tournament)

    def can_pair_next(self) -> bool:
        """Whether the organiser may pair a next round now (the pages' button)."""
        latest = swiss.last_round(self.tournament)
        return (
            self.tournament.status == Tournament.Status.RUNNING
            and latest is not None and latest.number < (self.tournament.swiss_rounds or 0)
            and swiss.round_is_over(latest)
        )

    def can_pair_again(self, round_: Round) -> bool:
        """Whether `round_` may still be paired again (the last one, no deal yet)."""
        latest = swiss.last_round(self.tournament)
        return (
            self.tournament.status == Tournament.Status.RUNNING
            and latest is not None and latest.pk == round_.pk
            and not Match.objects.filter(pairing__round=round_).exclude(
                status=Match.Status.SCHEDULED).exists()
            and not Match.objects.filter(pairing__round=round_, deals__isnull=False).exists()
        )
