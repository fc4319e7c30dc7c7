"""The organiser's control room (`control:`): one page per event or club night listing the matches
being played and those of the current round (`tableside.control_room`), with what the organiser
does from there: approve a result (`table_entry.result_approve`), renew a players' link
(`table_entry.link_renew`, then reprint that match's card), free a seat a phone holds
(`table_entry.seat_free`), print one match's scorecard again, and the printable page of every
table's link and its QR code. For the organisers of the event's club, the players asking for
their pass on their own phone (self check-in, `passes.check_in`): approve or refuse each.

Organisers only (`tournament_for_organiser`: 404 for an event the visitor may not see, 403 for
one that is not theirs; anonymous visitors are sent to log in). The list is fetched again at
every change of the event (`live.pages`); its times since the last entry and its idle marks move
on with the clock of the organiser's screen (`static/js/live.js`). Views are adapters: access ->
one `table_entry` call -> redirect back; a refusal (`TableError`) re-renders the page with its
sentence and 409, nothing written.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.messages import user_message
from events import registry
from events.access import can_organise_club, tournament_for_organiser
from events.forms import AnnouncementForm
from events.models import Pairing, Tournament
from live.pages import follow_event, part_or_page, shared_part
from passes import check_in
from passes.errors import PassError
from passes.models import CheckInClaim
from printing import documents, scorecard
from scoring import rules
from tableside import control_room, table_entry
from tableside.errors import TableError

PAGE = "tableside/control_room.html"
LINKS_PAGE = "tableside/control_links.html"
CONFLICT = 409


@login_required
@require_safe
@shared_part("event")
def control(request, pk: int):
    return _page(request, tournament_for_organiser(request, pk), request.GET)


@login_required
@require_POST
def approve(request, pk: int, match_pk: int):
    """Approve a result that waits for the signatures or is disputed: it is final."""
    tournament, pairing = _pairing(request, pk, match_pk)
    match = pairing.match
    try:
        table_entry.result_approve(match=match, by=request.user,
                                   address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return _page(request, tournament, request.POST, error=user_message(error),
                     status=CONFLICT)
    match.refresh_from_db(fields=["game_points_a", "game_points_b"])
    messages.success(request, _("Table %(table)s: the result %(a)s:%(b)s is approved and final.")
                     % {"table": pairing.table, "a": match.game_points_a,
                        "b": match.game_points_b})
    return redirect(_back(tournament, request.POST))


@login_required
@require_POST
def renew(request, pk: int, match_pk: int):
    """Revoke a match's players' link and make a new one; the page then offers its card."""
    tournament, pairing = _pairing(request, pk, match_pk)
    try:
        table_entry.link_renew(match=pairing.match, by=request.user,
                               address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return _page(request, tournament, request.POST, error=user_message(error),
                     status=CONFLICT)
    return redirect(_back(tournament, request.POST, renewed=match_pk))


@login_required
@require_POST
def seat_free(request, pk: int, match_pk: int, seat: str):
    """Free a seat of a match's players' link: the next phone to open it may take the seat."""
    if seat not in rules.SEATS:
        raise Http404
    tournament, pairing = _pairing(request, pk, match_pk)
    try:
        table_entry.seat_free(match=pairing.match, seat=seat, by=request.user,
                              address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return _page(request, tournament, request.POST, error=user_message(error),
                     status=CONFLICT)
    player = pairing.entry_a.player if seat == "A" else pairing.entry_b.player
    messages.success(request, _("Table %(table)s: the seat of %(name)s is free; the next phone "
                                "to open the link may take it.")
                     % {"table": pairing.table, "name": player.name})
    return redirect(_back(tournament, request.POST))


def _claim_decide(request, pk: int, claim_pk: int, decide, said: str):
    tournament = tournament_for_organiser(request, pk)
    club = tournament.club
    if club is None or not can_organise_club(request.user, club):
        raise PermissionDenied
    try:
        claim = decide(claim_pk=claim_pk, club=club, by=request.user,
                       address=request.META.get("REMOTE_ADDR"))
    except CheckInClaim.DoesNotExist:
        raise Http404 from None
    except PassError as error:
        return _page(request, tournament, request.POST, error=user_message(error),
                     status=CONFLICT)
    messages.success(request, said % {"name": claim.player.name})
    return redirect(_back(tournament, request.POST))


@login_required
@require_POST
def claim_approve(request, pk: int, claim_pk: int):
    """Approve a player's self check-in (`check_in.claim_approve`): their phone opens their
    pass (made if they had none). The organisers of the event's club only (403); a claim of
    another club 404; one no longer waiting 409, nothing written."""
    return _claim_decide(request, pk, claim_pk, check_in.claim_approve,
                         _("%(name)s: approved; their phone opens their pass."))


@login_required
@require_POST
def claim_refuse(request, pk: int, claim_pk: int):
    """Refuse a player's self check-in (`check_in.claim_refuse`): their phone says so. As
    `claim_approve` for who may and what is refused."""
    return _claim_decide(request, pk, claim_pk, check_in.claim_refuse,
                         _("%(name)s: refused; that phone gets no pass."))


@login_required
@require_safe
def card(request, pk: int, match_pk: int):
    """The scorecard of one match again, as a PDF built at once (one card, with the deals
    entered so far and the QR code of its current link), in the page's language."""
    _tournament, pairing = _pairing(request, pk, match_pk)
    pdf = documents.render_scorecards([pairing], True, translation.get_language())
    response = HttpResponse(pdf, content_type="application/pdf")
    name = f"table-{pairing.table or 0}-round-{pairing.round.number}-scorecard.pdf"
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@login_required
@require_safe
def links(request, pk: int):
    """Every listed match whose players still use their link (to enter, or to sign: any
    state but final): the table, the players, the link at `SITE_URL` and its QR code (the
    scorecard's `qr_image`), laid out for printing. Refused (409) where only
    the organisers enter."""
    tournament = tournament_for_organiser(request, pk)
    if not table_entry.players_may_enter(tournament.entry_mode):
        error = TableError("players_may_not_enter")
        return render(request, LINKS_PAGE, _event(tournament) | {"error": user_message(error)},
                      status=CONFLICT)
    cards = []
    for row in control_room.control_rows(tournament, now=timezone.now(),
                                         idle_after=control_room.IDLE_MINUTES):
        if row.state == table_entry.FINAL:
            continue
        url = scorecard.site_url().rstrip("/") + table_entry.entry_path(row.match, row.table)
        cards.append({"pairing": row.pairing, "url": url, "qr": scorecard.qr_image(url)})
    return render(request, LINKS_PAGE, _event(tournament) | {"cards": cards})


def _pairing(request, pk: int, match_pk: int) -> tuple[Tournament, Pairing]:
    """The event (for its organisers: 404/403) and its pairing of match `match_pk` (404 for a
    match of another event)."""
    tournament = tournament_for_organiser(request, pk)
    pairing = get_object_or_404(
        Pairing.objects.select_related("round__tournament", "entry_a__player",
                                       "entry_b__player", "match"),
        round__tournament=tournament, match_id=match_pk,
    )
    return tournament, pairing


def _event(tournament: Tournament) -> dict:
    event_format = registry.for_tournament(tournament)
    return {"tournament": tournament, "main_page": reverse(event_format.overview_page,
                                                           args=[tournament.pk])}


def _back(tournament: Tournament, data, **more) -> str:
    """The control room's address, keeping its idle minutes (`data`: the posted form)."""
    query = {}
    idle = control_room.idle_minutes(data.get("idle"))
    if idle != control_room.IDLE_MINUTES:
        query["idle"] = idle
    query.update(more)
    url = reverse("control:room", args=[tournament.pk])
    return f"{url}?{urlencode(query)}" if query else url


def _page(request, tournament: Tournament, data, *, error: str = "", status: int = 200):
    """The control room; `data`: the query (or the posted form) with `idle` and `renewed`."""
    follow_event(request, tournament)
    idle = control_room.idle_minutes(data.get("idle"))
    now = timezone.now()
    rows = control_room.control_rows(tournament, now=now, idle_after=idle)
    renewed = next((row for row in rows if str(row.match.pk) == data.get("renewed")), None)
    event_format = registry.for_tournament(tournament)
    labels = event_format.round_labels(tournament.rounds.count()) if rows else {}
    for row in rows:
        row.pairing.round.label = labels.get(row.pairing.round.number, "")
    page = part_or_page(request, PAGE, "tableside/partials/live_control.html")
    return render(request, page, _event(tournament) | {
        "show_rounds": not event_format.pairs_on_the_spot,
        "rows": rows, "now": now, "idle": idle, "idle_default": control_room.IDLE_MINUTES,
        "idle_fewest": control_room.IDLE_FEWEST, "idle_most": control_room.IDLE_MOST,
        "renewed": renewed, "error": error,
        "players_enter": table_entry.players_may_enter(tournament.entry_mode),
        "announcement_form": AnnouncementForm(initial={"text": tournament.announcement}),
        **_check_in(request, tournament),
    }, status=status)


def _check_in(request, tournament: Tournament) -> dict:
    """The self check-in part of the control room, for the organisers of the event's club:
    the club's join code and its claims waiting (`check_in.pending_claims`); else nothing."""
    club = tournament.club
    if club is None or not can_organise_club(request.user, club):
        return {}
    return {"claims": check_in.pending_claims(club), "join_code": check_in.join_code_of(club)}
