"""Club nights: create one, pair players on the spot, take a pairing back, close the night.

The night's page is public like any event (private nights for their organisers); the
pairing form shows to organisers while the night runs. Views are adapters:
access check -> form -> `formats.club_night.services` -> redirect. Bad input re-renders the
page with the form's errors (422); a pairing the evening cannot take (a player still playing,
the table in use, the night closed) is refused with the message and 409; a new name that may
mean a player of the register ("Ivan Petrov" for Иван Петров) is asked about with 409: use
that player, or add the name as it is. Nothing is written in any of these cases. A player
with an unfinished match of another event (a round robin the same evening) is paired all the
same, with a warning naming that event and table (`club_night_selectors.matches_elsewhere`);
the form's register names it too. A table another running event of the club uses tonight
(`club_night_selectors.tables_elsewhere`) is asked about with 409, nothing written: start the
match there all the same, or choose another table; the form suggests a table free everywhere.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_tables2 import RequestConfig

from club.models import Player
from core.messages import user_message
from events import registry
from events.access import can_organise, tournament_for_organiser, tournament_for_reading
from events.errors import TournamentError
from events.models import Pairing, Tournament
from formats.club_night import selectors as club_night_selectors
from formats.club_night import services as club_nights
from formats.club_night.errors import ClubNightError
from formats.club_night.forms import ClubNightForm, ClubNightPairForm
from formats.club_night.messages import elsewhere_warning
from live.pages import follow_event, part_or_page, shared_part
from passes import selectors as pass_selectors
from scoring import rules
from scoring.models import Match
from standings import selectors as standings_selectors
from standings.tables import ClubNightStandingsTable, standings_rows, unsigned_entries
from tableside import table_entry

UNPROCESSABLE, CONFLICT = 422, 409


def _is_night(tournament: Tournament) -> Tournament:
    if not registry.for_tournament(tournament).pairs_on_the_spot:
        raise Http404
    return tournament


def _free_table(busy_tables: set[int]) -> int:
    table = 1
    while table in busy_tables:
        table += 1
    return table


TABLE_QUESTIONS = ("table_elsewhere", "table_elsewhere_private")
"""The refusals of `club_nights.club_night_pair` that a confirmation answers."""


def _page(request, night, *, form=None, error="", table_question="", status=200):
    """The night: pairing form (organisers, while it runs), current and finished matches,
    standings; a result not yet signed by both players counts and is marked provisional."""
    follow_event(request, night)
    organiser = can_organise(request.user, night)
    pairings = club_night_selectors.club_night_pairings(night)
    current = [p for p in pairings if not p.match.is_over]
    finished = sorted(
        (p for p in pairings if p.match.is_over),
        key=lambda p: (p.match.finished_at, p.match_id), reverse=True,
    )
    busy = {}
    for pairing in current:
        busy[pairing.entry_a.player_id] = busy[pairing.entry_b.player_id] = pairing.table
    running = night.status == Tournament.Status.RUNNING
    elsewhere = (club_night_selectors.matches_elsewhere(night, request.user)
                 if organiser and running else {})
    if organiser and running and form is None:
        in_use = {p.table for p in current} | set(club_night_selectors.tables_elsewhere(night))
        form = ClubNightPairForm(
            night=night, user=request.user, busy=busy, elsewhere=elsewhere,
            initial={"table": _free_table(in_use)},
        )
    elif form is not None:
        for seat in ("player_a", "player_b"):
            form.fields[seat].busy, form.fields[seat].elsewhere = busy, elsewhere
    provisional = table_entry.provisional_results(night, [p.match for p in finished])
    table = ClubNightStandingsTable(standings_rows(standings_selectors.standings(night),
                                                  unsigned_entries(provisional)))
    RequestConfig(request, paginate=False).configure(table)
    page = part_or_page(request, "formats/club_night.html", "formats/partials/live_night.html")
    return render(request, page, {
        "tournament": night, "night": night, "organiser": organiser, "running": running,
        "form": form if organiser and running else None, "error": error,
        "table_question": table_question,
        "current": current, "finished": finished, "table": table,
        "provisional": set(provisional), "unsigned": len(provisional),
        # Who said "I'm here" from their pass and is at no table now (organisers only).
        "arrived": pass_selectors.arrived_waiting(night, set(busy)) if organiser and running
        else [],
        "live_url": reverse("nights:detail", args=[night.pk]),
    }, status=status)


@require_safe
@shared_part("event")
def club_night_detail(request, pk: int):
    return _page(request, _is_night(tournament_for_reading(request, pk)))


@login_required
@require_http_methods(["GET", "POST"])
def club_night_create(request):
    if request.method != "POST":
        return render(request, "formats/club_night_form.html",
                      {"form": ClubNightForm(user=request.user)})
    form = ClubNightForm(request.POST, user=request.user)
    if not form.is_valid():
        return render(request, "formats/club_night_form.html", {"form": form},
                      status=UNPROCESSABLE)
    night = club_nights.club_night_create(
        club=form.cleaned_data["club"], date=form.cleaned_data["date"],
        name=form.cleaned_data["name"], organiser=request.user,
        house_rules=rules.HouseRules.preset(form.cleaned_data["rules"]),
        entry_mode=form.cleaned_data["entry_mode"], language=form.cleaned_data["language"],
    )
    messages.success(request, _("Club night opened. Pair the first players."))
    return redirect("nights:detail", pk=night.pk)


def _player(form, seat: str) -> Player | str:
    """The register's player of the seat, or the new name typed for it."""
    return form.cleaned_data[f"player_{seat}"] or form.cleaned_data[f"new_name_{seat}"]


@login_required
@require_POST
def club_night_pair(request, pk: int):
    night = _is_night(tournament_for_organiser(request, pk))
    form = ClubNightPairForm(request.POST, night=night, user=request.user, busy={})
    if not form.is_valid():
        return _page(request, night, form=form, status=UNPROCESSABLE)
    if form.names_like():  # "иван петров" for Иван Петров: asked first, nothing written
        return _page(request, night, form=form.answered(), status=CONFLICT)
    try:
        pairing = club_nights.club_night_pair(  # a new player is kept only with their pairing
            night=night, player_a=_player(form, "a"), player_b=_player(form, "b"),
            table=form.cleaned_data["table"], by=request.user,
            table_confirmed=form.table_confirmed(),
        )
    except TournamentError as error:
        if error.code in TABLE_QUESTIONS:  # asked: the same form, a button to go ahead
            return _page(request, night, form=form, table_question=user_message(error),
                         status=CONFLICT)
        return _page(request, night, form=form, error=user_message(error),
                     status=CONFLICT)
    messages.success(request, _("Table %(table)s: %(a)s – %(b)s. The match has started.") % {
        "table": pairing.table, "a": pairing.entry_a.player.name,
        "b": pairing.entry_b.player.name,
    })
    elsewhere = club_night_selectors.matches_elsewhere(night, request.user)
    for player in (pairing.entry_a.player, pairing.entry_b.player):
        if player.pk in elsewhere:
            messages.warning(request, elsewhere_warning(player.name, elsewhere[player.pk]))
    return redirect("nights:detail", pk=pk)


@login_required
@require_POST
def club_night_unpair(request, pk: int, match_pk: int):
    night = _is_night(tournament_for_organiser(request, pk))
    pairing = Pairing.objects.select_related(
        "round__tournament", "entry_a__player", "entry_b__player"
    ).filter(round__tournament=night, match_id=match_pk).first()
    if pairing is None:  # a second tap after the first took it back: say so, not "not found"
        if not Match.history.filter(id=match_pk, history_type="-").exists():
            raise Http404
        error = ClubNightError("pairing_removed")
        return _page(request, night, error=user_message(error), status=CONFLICT)
    try:
        club_nights.club_night_unpair(pairing=pairing, by=request.user)
    except TournamentError as error:
        return _page(request, night, error=user_message(error), status=CONFLICT)
    messages.success(request, _("Pairing taken back: %(a)s – %(b)s.") % {
        "a": pairing.entry_a.player.name, "b": pairing.entry_b.player.name,
    })
    return redirect("nights:detail", pk=pk)


@login_required
@require_POST
def club_night_close(request, pk: int):
    night = _is_night(tournament_for_organiser(request, pk))
    try:
        club_nights.club_night_close(night=night)
    except TournamentError as error:
        return _page(request, night, error=user_message(error), status=CONFLICT)
    messages.success(request, _("The club night is closed."))
    return redirect("nights:detail", pk=pk)
