"""What a player's pass page shows (`pass_events`): for each running event of the player's club
they are entered in, where they stand now; and the club nights they may say "I'm here" at.

States of an event's line (`EventLine.state`):

* `PLAYING` -- a match of theirs is paired and not over: its round, table, opponent, seat and
  who deals first (`Match.first_dealer`, as the match page and the scorecard say); after a
  finished match, its result and the place too, as below;
* `WAITING` -- none is: the next round (`next_round`, in a format paired round by round or a
  bracket; None in a round robin, whose rounds are all paired at the start: all played) is not
  paired yet; after a finished match its result (`last`) and the player's place in the
  standings (`place`, not in a bracket);
* `OUT` -- they lost a knockout match (or withdrew): nothing more to play;
* `NIGHT` -- a club night: "I'm here" (`arrived`: when they said so), and their match once the
  organiser pairs them; after a finished match its result and their place in the night's
  standings, as above.
"""

from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Q

from club.models import Player
from events import registry
from events.models import Entry, Pairing, Round, Tournament
from passes.models import Arrival
from scoring.models import Match
from standings import selectors as standings_selectors

PLAYING, WAITING, OUT, NIGHT = "playing", "waiting", "out", "night"
PLACES_SECONDS = 300


@dataclass
class EventLine:
    """One event on the pass page (see the module docstring)."""

    tournament: Tournament
    state: str
    pairing: Pairing | None = None
    seat: str = ""
    opponent: Player | None = None
    first_dealer: Player | None = None
    next_round: int | None = None
    last: Pairing | None = None
    last_seat: str = ""
    place: int | None = None
    arrived: Arrival | None = None
    undo_asked: tuple[str, int] | None = None
    """(the opponent's name, the deal of `last` they ask to undo), waiting for this player's
    consent; set by the pass page (`passes.views`) from the table's request."""


def followed_events(player: Player) -> list[int]:
    """The ids of the events the pass page of `player` shows (and its stream follows): the
    club's events they are entered in that are not finished, and the club's club nights under
    way. One query."""
    if player.club_id is None:
        return []
    nights = registry.keys_where(lambda event_format: event_format.pairs_on_the_spot)
    rows = Tournament.objects.filter(
        Q(entries__player=player) | Q(format__in=nights, status=Tournament.Status.RUNNING),
        club_id=player.club_id,
    ).exclude(status=Tournament.Status.FINISHED).values_list("pk", flat=True).distinct()
    return sorted(rows)


def pass_events(player: Player) -> list[EventLine]:
    """The lines of `player`'s pass page, one per event of `followed_events` that is running
    (an event still in registration shows nothing yet), newest first."""
    ids = followed_events(player)
    events = Tournament.objects.filter(pk__in=ids, status=Tournament.Status.RUNNING) \
        .order_by("-date", "-pk")
    return [_line(tournament, player) for tournament in events]


def _line(tournament: Tournament, player: Player) -> EventLine:
    event_format = registry.for_tournament(tournament)
    entry = Entry.objects.filter(tournament=tournament, player=player).first()
    pairings = list(
        Pairing.objects.select_related("round", "match__player_a", "match__player_b")
        .filter(round__tournament=tournament, match__isnull=False)
        .filter(Q(match__player_a=player) | Q(match__player_b=player))
        .order_by("round__number", "pk")
    ) if entry is not None or event_format.pairs_on_the_spot else []
    current = next((p for p in pairings if not p.match.is_over), None)
    if current is not None:
        seat = "A" if current.match.player_a_id == player.pk else "B"
        match = current.match
        line = EventLine(tournament, PLAYING, pairing=current, seat=seat,
                         opponent=match.player("B" if seat == "A" else "A"),
                         first_dealer=match.player(match.first_dealer))
    elif event_format.pairs_on_the_spot:
        line = EventLine(tournament, NIGHT)
    elif entry is not None and entry.withdrawn:
        line = EventLine(tournament, OUT)
    else:
        line = EventLine(tournament, WAITING)
    decided = [p for p in pairings if p.match.status in Match.DECIDED]
    if decided:
        line.last = decided[-1]
        line.last_seat = "A" if line.last.match.player_a_id == player.pk else "B"
        if (line.state == WAITING and event_format.has_bracket
                and line.last.round.stage != Round.Stage.GROUPS
                and line.last.match.winner != line.last_seat):
            line.state = OUT
    if event_format.pairs_on_the_spot:
        line.arrived = Arrival.objects.filter(tournament=tournament, player=player).first()
    elif line.state == WAITING and (event_format.pairs_round_by_round
                                    or event_format.has_bracket):
        line.next_round = _next_round(tournament, pairings)
    if line.last is not None and not event_format.has_bracket and entry is not None:
        line.place = _place(tournament, entry)
    return line


def _next_round(tournament: Tournament, pairings: list[Pairing]) -> int:
    """The round the player waits for: the first round after their last paired one."""
    played = max((p.round.number for p in pairings), default=0)
    return played + 1


def _place(tournament: Tournament, entry: Entry) -> int | None:
    """`entry`'s place in `tournament`'s standings (1 = first), None when not ranked. The
    places are worked out once per version of the event (Django's cache, `PLACES_SECONDS`):
    every pass page of an event fetches its part after each deal, and the standings are the
    same for all of them."""
    key = f"pass-places:{tournament.pk}:{tournament.version}"
    places = cache.get(key)
    if places is None:
        places = {ranked.pk: place for place, (ranked, _standing) in enumerate(
            standings_selectors.standings(tournament), start=1)}
        cache.set(key, places, PLACES_SECONDS)
    return places.get(entry.pk)


def match_of_pass(player: Player, match_pk: int) -> tuple[Pairing, str] | None:
    """The pairing of match `match_pk` and `player`'s seat in it ("A"/"B"), or None when the
    player does not play it (the pass opens the player's own matches only). One query."""
    pairing = (Pairing.objects.select_related("round__tournament", "match__player_a",
                                              "match__player_b")
               .filter(match_id=match_pk).first())
    if pairing is None:
        return None
    match = pairing.match
    if match.player_a_id == player.pk:
        return pairing, "A"
    if match.player_b_id == player.pk:
        return pairing, "B"
    return None


def arrived_waiting(night: Tournament, busy: set[int]) -> list[Arrival]:
    """The players who said "I'm here" at club night `night` (from their pass), in the order
    they came, without those at a table now (`busy`: player ids). One query."""
    return [arrival for arrival in Arrival.objects.filter(tournament=night)
            .select_related("player") if arrival.player_id not in busy]
