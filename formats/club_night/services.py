"""Club nights: an evening whose pairings the organiser makes on the spot.

A club night is a `Tournament` with format `club_night`, created running, with one `Round`
(number 1, "the night"). Each pairing names two present players and a table; tables are reused
all evening, so the only rules are: two different players, neither of them in a match that is
still unfinished tonight, and no other unfinished match at that table. A player may play as
many matches in a night as they like. The night's standings are the ordinary standings with
the tie-breaks game-point difference, then game points scored.

Errors the organiser can fix raise `ClubNightError` (its sentences in
`formats/club_night/errors.py`).
"""

import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q

from club.models import Club, Player
from club.services import player_for_name
from core.access import sees_everything
from events import registry
from events.models import Entry, EntryMode, Pairing, Round, Tournament
from events.services import tournament_lock
from formats.club_night import selectors as club_night_selectors
from formats.club_night.errors import ClubNightError
from ratings import services as rating_services
from scoring import rules
from scoring.models import Match, Seat
from standings.tie_breaks import GAME_POINT_DIFFERENCE, GAME_POINTS_SCORED

CLUB_NIGHT_TIE_BREAKS = [GAME_POINT_DIFFERENCE, GAME_POINTS_SCORED]


def can_create_for_club(user, club: Club | None) -> bool:
    """Anyone logged in may hold a club night with no club; for a club, its organisers."""
    if not user.is_authenticated:
        return False
    return (
        club is None or sees_everything(user) or club.organisers.filter(pk=user.pk).exists()
    )


@transaction.atomic
def club_night_create(
    *, club: Club | None, date: datetime.date, name: str, organiser, house_rules: rules.HouseRules,
    entry_mode: str = EntryMode.PLAYERS_SIGN, language: str | None = None,
) -> Tournament:
    """Open a club night: running from the start, `organiser` organises it, one round;
    `entry_mode` (`EntryMode`) says who enters the results; `language` (a code of
    `settings.LANGUAGES`, default the site's) is the one its players' links and printed
    scorecards use.

    Raises `TournamentError` `not_club_organiser` when `organiser` may not hold events for
    `club`.
    """
    if not can_create_for_club(organiser, club):
        raise ClubNightError("not_club_organiser")
    night = Tournament(
        name=name, date=date, club=club, format=Tournament.Format.CLUB_NIGHT,
        status=Tournament.Status.RUNNING, tie_breaks=list(CLUB_NIGHT_TIE_BREAKS),
        entry_mode=entry_mode, language=language or settings.LANGUAGE_CODE,
    )
    night.set_house_rules(house_rules)
    night._history_user = organiser
    night.save()
    night.organisers.add(organiser)
    Round.objects.create(tournament=night, number=1)
    return night


def _locked_night(night: Tournament) -> Tournament:
    night = tournament_lock(night)
    if not registry.for_tournament(night).pairs_on_the_spot:
        raise ClubNightError("not_club_night")
    return night


def _entry(night: Tournament, player: Player) -> Entry:
    """The player's entry in the night, created on their first appearance (next number)."""
    entry = night.entries.filter(player=player).first()
    if entry is None:
        highest = night.entries.aggregate(highest=Max("number"))["highest"] or 0
        entry = Entry.objects.create(tournament=night, player=player, number=highest + 1)
    return entry


@transaction.atomic
def club_night_pair(
    *, night: Tournament, player_a: Player | str, player_b: Player | str, table: int, by,
    table_confirmed: bool = False,
) -> Pairing:
    """Pair `player_a` (seat A, deals first) with `player_b` at `table`; the match starts
    with the night's house rules.

    A `table` another running event of the night's club is using tonight
    (`club_night_selectors.tables_elsewhere`) is refused until the organiser confirms it
    (`table_confirmed`): the numbering of the room's tables may differ between events, and
    only the organiser knows. Nothing is written before that.

    A player given as a string is a name typed at the pairing form: the register's player
    of that name in the night's club, or a new one (`player_for_name`), looked up once the
    night is locked, so two organisers typing the same newcomer at once make one player.

    A player in an unfinished match of another event is paired all the same (the pairing
    page warns: `matches_elsewhere`).

    Raises `TournamentError`: `not_club_night`, `night_closed`, `same_player`, `bad_table`,
    `player_busy` (name, table: a player's match tonight is unfinished), `table_busy`
    (table: another match there is unfinished), and unless `table_confirmed`
    `table_elsewhere` (table, event, players; for `by` who may see that event) or
    `table_elsewhere_private` (table: an event `by` may not see).
    """
    night = _locked_night(night)
    if night.status != Tournament.Status.RUNNING:
        raise ClubNightError("night_closed")
    if isinstance(player_a, str):
        player_a = player_for_name(name=player_a, club=night.club)
    if isinstance(player_b, str):
        player_b = player_for_name(name=player_b, club=night.club)
    if player_a.pk == player_b.pk:
        raise ClubNightError("same_player")
    if table < 1:
        raise ClubNightError("bad_table")
    unfinished = Pairing.objects.filter(round__tournament=night, match__isnull=False).exclude(
        match__status__in=Match.OVER
    ).select_related("entry_a__player", "entry_b__player")
    for pairing in unfinished:
        for player in (player_a, player_b):
            if player.pk in (pairing.entry_a.player_id, pairing.entry_b.player_id):
                raise ClubNightError("player_busy", name=player.name, table=pairing.table)
        if pairing.table == table:
            raise ClubNightError(
                "table_busy", table=table,
                players=f"{pairing.entry_a.player} – {pairing.entry_b.player}",
            )
    if not table_confirmed:
        elsewhere = club_night_selectors.tables_elsewhere(night).get(table)
        if elsewhere is not None:
            raise _table_elsewhere(elsewhere, by)
    entry_a, entry_b = _entry(night, player_a), _entry(night, player_b)
    match = Match(
        player_a=player_a, player_b=player_b, first_dealer=Seat.A,
        house_rules_snapshot=night.house_rules().to_dict(),
    )
    match._history_user = by
    match.save()
    return Pairing.objects.create(
        round=night.rounds.get(number=1), table=table, entry_a=entry_a, entry_b=entry_b,
        match=match,
    )


def _table_elsewhere(elsewhere: club_night_selectors.TableElsewhere, by) -> ClubNightError:
    """The question about a table in use by another event: naming that event and its players
    only to a `by` who may see it."""
    event = elsewhere.tournament
    if by is not None and Tournament.objects.visible_to(by).filter(pk=event.pk).exists():
        return ClubNightError(
            "table_elsewhere", table=elsewhere.table, event=event.name,
            players=elsewhere.players,
        )
    return ClubNightError("table_elsewhere_private", table=elsewhere.table)


@transaction.atomic
def club_night_unpair(*, pairing: Pairing, by) -> None:
    """Take back a pairing made by mistake, while its match has no deal. The match row goes
    (its history keeps it); an entry left with no pairing tonight goes too.

    Raises `TournamentError` `not_club_night`, `night_closed`, `match_has_deals`,
    `pairing_removed`.
    """
    night = _locked_night(pairing.round.tournament)
    if night.status != Tournament.Status.RUNNING:
        raise ClubNightError("night_closed")
    pairing = Pairing.objects.filter(pk=pairing.pk, round__tournament=night).first()
    if pairing is None:  # taken back meanwhile (a double tap, or a second organiser)
        raise ClubNightError("pairing_removed")
    match = Match.objects.select_for_update().get(pk=pairing.match_id)
    if match.status != Match.Status.SCHEDULED or match.deals.exists():
        raise ClubNightError("match_has_deals")
    entries = [pairing.entry_a_id, pairing.entry_b_id]
    pairing.delete()
    match._history_user = by
    match._change_reason = "pairing taken back"
    match.delete()
    still_paired = Pairing.objects.filter(round__tournament=night).filter(
        Q(entry_a__in=entries) | Q(entry_b__in=entries)
    ).values_list("entry_a", "entry_b")
    keep = {entry for pair in still_paired for entry in pair}
    Entry.objects.filter(pk__in=set(entries) - keep).delete()


@transaction.atomic
def club_night_close(*, night: Tournament) -> Tournament:
    """Close the night: finished, and the ratings recomputed once this commits
    (`rating_services.ratings_recompute_on_commit`). Unfinished matches stay as they are (their
    deals can still be entered; they count once over: `ClubNight.on_match_finished`).
    Raises `TournamentError` `not_club_night`, `night_closed`."""
    night = _locked_night(night)
    if night.status != Tournament.Status.RUNNING:
        raise ClubNightError("night_closed")
    night.status = Tournament.Status.FINISHED
    night.save(update_fields=["status"])
    rating_services.ratings_recompute_on_commit()
    return night
