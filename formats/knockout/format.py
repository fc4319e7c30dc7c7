"""Knockouts: a single-elimination bracket drawn at the start (`formats.knockout.bracket`),
written and advanced by the services of `formats.knockout.services`."""

from __future__ import annotations

import random

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from events.models import Entry, Tournament
from events.registry import register
from formats.base import EventFormat
from formats.knockout import selectors
from formats.knockout import services as knockout
from formats.knockout.labels import round_labels
from scoring.models import Match


@register(Tournament.Format.KNOCKOUT)
class Knockout(EventFormat):
    """Seeds instead of draw numbers; the main page is the bracket; over once the final (and
    the third-place match, if any) is decided."""

    min_players = knockout.MIN_PLAYERS
    max_players = knockout.MAX_PLAYERS
    too_many_players_code = "too_many_knockout_players"
    main_page = "knockout:bracket"
    seeded = True
    has_bracket = True
    seeded_from_standings = True
    seeded_by_rating = True
    has_third_place_match = True
    stage = "knockout"

    order_saved = _("Seeds saved.")
    order_drawn = _("Seeds drawn by lot.")
    started = _("The knockout has started: the bracket is drawn.")

    def draw_by_lot(self, *, rng: random.Random | None = None) -> None:
        knockout.seeds_by_lot(tournament=self.tournament, rng=rng)

    def start(self, *, rng: random.Random | None = None) -> Tournament:
        return knockout.knockout_start(tournament=self.tournament, rng=rng)

    def page_after_start(self) -> str:
        return reverse("knockout:bracket", args=[self.tournament.pk])

    def withdraw(self, *, entry: Entry, by) -> Entry:
        """The next opponent goes through by walkover (`knockout.knockout_withdraw`)."""
        return knockout.knockout_withdraw(entry=entry, by=by)

    def on_match_finished(self, match: Match) -> None:
        knockout.knockout_advance(match=match)

    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        knockout.knockout_retract(match=match, confirmed=confirmed)

    def is_over(self) -> bool:
        return knockout.bracket_decided(self.tournament)

    def ranking(self) -> list[tuple[int, Entry]]:
        """The champion 1, the runner-up 2, then by the round each player went out in
        (`selectors.knockout_ranking`)."""
        return selectors.knockout_ranking(self.tournament)

    def round_labels(self, count: int) -> dict[int, str]:
        """Final, semifinal, quarterfinal, round of 16, ..."""
        return round_labels(count) if count else {}
