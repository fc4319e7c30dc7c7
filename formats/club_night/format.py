"""Club nights: the organiser pairs players as they arrive, any table, all evening
(`formats.club_night.services`). No draw and no start: the night opens running and is over when
the organiser closes it, however many of its matches are over."""

from __future__ import annotations

import random

from events import services
from events.models import Entry, Tournament
from events.registry import register
from formats.base import EventFormat
from ratings import services as rating_services
from scoring.models import Match


@register(Tournament.Format.CLUB_NIGHT)
class ClubNight(EventFormat):
    overview_page = "nights:detail"
    main_page = "nights:detail"
    pairs_on_the_spot = True
    offered_on_the_form = False
    stage = "club_night"

    def start(self, *, rng: random.Random | None = None) -> Tournament:
        """A night runs from its opening: refused (`already_started`), as is a draw."""
        services.refuse_after_start(self.tournament)
        return self.tournament

    def withdraw(self, *, entry: Entry, by) -> Entry:
        """Nobody needs to withdraw from a night (a player is simply not paired again); the
        pages offer none. Done as in a round robin (`services.entry_withdraw`)."""
        return services.entry_withdraw(entry=entry, by=by)

    def on_match_finished(self, match: Match) -> None:
        """The organiser closes the night (`club_nights.club_night_close`); a match that ends
        after that changes a closed night's results: the ratings are recomputed."""
        if self.tournament.status == Tournament.Status.FINISHED:
            rating_services.ratings_recompute_on_commit()

    def on_match_reopened(self, match: Match, *, confirmed: bool = False) -> None:
        """As `on_match_finished`."""
        self.on_match_finished(match)

    def is_over(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED
