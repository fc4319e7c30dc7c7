"""The organiser's control room: every match of an event that needs watching, with its state,
its score and the time since its last entry, the ones that need the organiser first.

Which matches (`control_pairings`): those of the round being played
(`selectors.current_round`; at a club night, whose one round lasts all evening, only its
matches not over -- the format object's `pairs_on_the_spot`), every match in play in any
round (players of a round robin may play ahead), and every result that waits for the
organiser (`table_entry.unsettled_match_ids`: signatures awaited, or disputed), whatever its
round, and every result both players signed from one device or one address that no organiser
has approved since (`MatchTable.signed_alike`).

A match not over when its round's time is up (the event's `round_minutes` from the round's
`started_at`: `events.round_clock`) is marked past the round's time (`ControlRow.overtime`);
the organiser's screen sets the mark by itself when the time comes (`static/js/round_clock.js`).

The order (`control_rows`): disputed results first, with those signed from one device or one
address; then the idle matches -- playing, or
waiting for the signatures, with no entry for `idle_after` minutes or more; then the rest.
Within each group by table (then round), so that a row keeps its place while the minutes
pass. The states come from `table_entry.match_state` (the one place that decides them);
the last entry is the newest deal or table event of the match (a renewed link is no entry).
Reads only.
"""

import datetime
from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from events import registry, selectors
from events.models import Pairing, Tournament
from events.round_clock import clock_of
from scoring.models import Deal, Match
from tableside import table_entry
from tableside.models import MatchEvent, MatchTable

IDLE_MINUTES, IDLE_FEWEST, IDLE_MOST = 10, 1, 240
"""A match with no entry for `IDLE_MINUTES` minutes is idle (`?idle=` changes it, from
`IDLE_FEWEST` to `IDLE_MOST`)."""
IDLE_STATES = (table_entry.PLAYING, table_entry.AWAITING)
"""The states in which a match can be idle: someone should be entering, or signing."""
STATE_LABELS = {
    table_entry.NOT_STARTED: _("not started"),
    table_entry.PLAYING: _("playing"),
    table_entry.AWAITING: _("waiting for signatures"),
    table_entry.DISPUTED: _("disputed"),
    table_entry.FINAL: _("final"),
}
"""What the page calls each state of `table_entry.match_state`."""
ALIKE_NOTES = {
    MatchTable.Alike.DEVICE: _(
        "Both signatures came from one phone: check the result with both players, then "
        "approve it."
    ),
    MatchTable.Alike.ADDRESS: _(
        "Both signatures came from one address: check the result with both players, then "
        "approve it."
    ),
}
"""The mark of a result both players signed from one device or one address
(`MatchTable.signed_alike`), until an organiser approves it
(`table_entry.signed_alike_unchecked`)."""


def idle_minutes(value: str | None) -> int:
    """The `?idle=` of the page: whole minutes from `IDLE_FEWEST` to `IDLE_MOST`; anything
    else (absent, not a number, out of range) is `IDLE_MINUTES`."""
    try:
        minutes = int(value or "")
    except ValueError:
        return IDLE_MINUTES
    return minutes if IDLE_FEWEST <= minutes <= IDLE_MOST else IDLE_MINUTES


@dataclass(frozen=True)
class ControlRow:
    """One match of the control room: its pairing (players, table, round, match and, when
    it has one, its `MatchTable`), its `state` (`table_entry.match_state`), the time of its
    last entry (None: none yet) and the whole `minutes` since then, whether it is `idle`,
    and what the organiser may do with it from the page (`may_approve`:
    `table_entry.APPROVABLE`, or signed from one device or address; `may_renew`: the players
    have a link, not final yet; then also free the seats phones hold). `overtime_at`: when its
    round's time is up (None: the event has no round clock, or the round has not started);
    `overtime`: the match is not over and that time has come."""

    pairing: Pairing
    state: str
    last_entry: datetime.datetime | None
    minutes: int | None
    idle: bool
    may_approve: bool
    may_renew: bool
    overtime_at: datetime.datetime | None = None
    overtime: bool = False

    @property
    def match(self) -> Match:
        return self.pairing.match

    @property
    def table(self) -> MatchTable | None:
        return getattr(self.match, "table", None)

    @property
    def may_idle(self) -> bool:
        """Whether the match can become idle as the minutes pass (`IDLE_STATES`): the
        organiser's screen marks it then by itself (`static/js/live.js`)."""
        return self.state in IDLE_STATES

    @property
    def state_label(self) -> str:
        return str(STATE_LABELS[self.state])

    @property
    def disputed_name(self) -> str:
        """The name of the player who disputes the result ("" when nobody does)."""
        seat = self.table.disputed_by if self.state == table_entry.DISPUTED else ""
        return self.match.player(seat).name if seat else ""

    @property
    def alike_note(self) -> str:
        """The mark of a result both players signed from one device or one address, not yet
        approved ("" for any other)."""
        if not table_entry.signed_alike_unchecked(self.table):
            return ""
        return str(ALIKE_NOTES[self.table.signed_alike])

    @property
    def held_seats(self) -> list[tuple[str, str]]:
        """(seat, player's name) of each seat a phone holds, while the organiser may free it
        (`may_renew`)."""
        if not self.may_renew or self.table is None:
            return []
        return [(seat, self.match.player(seat).name) for seat in "AB"
                if self.table.holder(seat)]

    @property
    def group(self) -> int:
        """0: disputed, or signed from one device or address (`alike_note`); 1: idle; 2: the
        rest (the page's order)."""
        if self.state == table_entry.DISPUTED or self.alike_note:
            return 0
        return 1 if self.idle else 2


def control_pairings(tournament: Tournament) -> list[Pairing]:
    """The pairings (with a match) the control room lists -- see the module's docstring --
    with their players, round, match and `MatchTable`, each annotated with `last_event` and
    `last_deal` (the times of its newest table event other than a renewal, and of its newest
    deal). Four queries; [] before the start."""
    round_ = selectors.current_round(tournament)
    if round_ is None:
        return []
    current = Q(round=round_)
    if registry.for_tournament(tournament).pairs_on_the_spot:
        current &= ~Q(match__status__in=Match.OVER)
    wanted = (
        current | Q(match__status=Match.Status.PLAYING) | Q(match__table__pending__isnull=False)
        | Q(match__in=table_entry.unsettled_match_ids(tournament))
        | Q(match__table__signed_alike__in=MatchTable.Alike.values,
            match__table__approved_at__isnull=True)
    )
    events = (
        MatchEvent.objects.filter(match=OuterRef("match_id"))
        .exclude(kind=MatchEvent.Kind.RENEWED).order_by("-at").values("at")[:1]
    )
    deals = Deal.objects.filter(match=OuterRef("match_id")).order_by("-entered_at")
    return list(
        Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
        .filter(wanted)
        .select_related("round", "entry_a__player", "entry_b__player", "match__player_a",
                        "match__player_b", "match__table")
        .annotate(last_event=Subquery(events),
                  last_deal=Subquery(deals.values("entered_at")[:1]))
    )


def control_rows(tournament: Tournament, *, now: datetime.datetime,
                 idle_after: int) -> list[ControlRow]:
    """The control room's rows in the page's order (see the module's docstring): a match is
    idle when its state is one of `IDLE_STATES` and its last entry was `idle_after` minutes
    or more before `now` (a match with no entry yet is never idle); past the round's time when
    it is not over and its round's clock ended at or before `now` (an aware datetime)."""
    mode = tournament.entry_mode
    clocked = tournament.round_minutes and not registry.for_tournament(
        tournament).pairs_on_the_spot
    renewable = table_entry.players_may_enter(mode)
    rows = []
    for pairing in control_pairings(tournament):
        match = pairing.match
        state = table_entry.match_state(match, mode, getattr(match, "table", None))
        times = [at for at in (pairing.last_event, pairing.last_deal) if at is not None]
        last = max(times) if times else None
        minutes = None if last is None else max(0, int((now - last).total_seconds() // 60))
        idle = state in IDLE_STATES and minutes is not None and minutes >= idle_after
        clock = clock_of(pairing.round, tournament.round_minutes) if clocked else None
        rows.append(ControlRow(
            pairing=pairing, state=state, last_entry=last, minutes=minutes, idle=idle,
            may_approve=state in table_entry.APPROVABLE
            or table_entry.signed_alike_unchecked(getattr(match, "table", None)),
            may_renew=renewable and state != table_entry.FINAL,
            overtime_at=clock.ends_at if clock else None,
            overtime=bool(clock) and not match.is_over and clock.is_up(now),
        ))
    rows.sort(key=lambda row: (row.group, row.pairing.table is None, row.pairing.table or 0,
                               row.pairing.round.number, row.pairing.pk))
    return rows
