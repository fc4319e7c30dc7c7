"""The players' pages at the table (`players:`, `/p/<token>/`): the match's secret link.

Adapters over `tableside.table_entry`, in the event's language unless the visitor
chose one (`link_language`): the token finds the match; a link renewed since answers 410 (scan
the new card) and one whose match a correction upstream removed 409 (the organiser's sentence),
neither counted as a guess (`tableside.models.RetiredLink`); any other token answers 404
(`players/gone.html`, the same page whether the match exists or not), and 30 of them from one
address in 10 minutes answer 429 (`tableside.link_guesses`), while a valid link still opens.
The first visit asks "Who are you?"; the browser that takes a seat holds it
(`table_entry.seat_claim`): it gets a random device id in a cookie (`DEVICE_COOKIE`, for the
players' pages only), whose hash the table keeps, and that hash alone says which seat the
browser holds (`seat_of`). Another browser cannot take a held seat, one browser holds one seat,
and every post acts for the seat its browser holds, naming the device to the service. Each post
is one service call, then a redirect to the page (302); a refusal draws the page again with the
sentence in the user's language and 4xx, nothing written. The token opens nothing else: every
view here takes the match from it.
"""

import inspect
import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from core.messages import user_message
from events.models import EntryMode, Pairing
from formats.knockout.services import WITHDRAWN
from live.pages import follow_link, follow_pass_match, part_or_page
from passes import selectors as pass_selectors
from passes import services as pass_services
from passes.errors import PassError
from scoring import rules
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.forms import DealDetailsForm, DealQuickForm, DealUndoForm
from scoring.match_sheet import match_sheet
from tableside import link_guesses, match_history, offline_sync, table_entry
from tableside.errors import TableError
from tableside.forms import DisputeForm
from tableside.link_guesses import client_address
from tableside.models import MatchEvent, MatchTable, RetiredLink

PAGE = "tableside/players/match.html"
LIVE_PART = "tableside/players/live_match.html"
SEAT_PAGE = "tableside/players/seat.html"
GONE_PAGE = "tableside/players/gone.html"
PASS_GONE_PAGE = "passes/gone.html"
DEVICE_COOKIE = "players_device"
DEVICE_COOKIE_AGE = 30 * 24 * 3600
DEVICE_COOKIE_PATH = "/p/"
"""The browser's device id (`table_entry.new_device_id`): sent to the players' pages only."""
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{32,64}")
ScoringError = (RecordingError, rules.InvalidDeal, TableError, PassError)


def link_language(request, table: MatchTable) -> str:
    """The language of the link's pages: the one the visitor chose (the language cookie the
    site's switch sets, `config.middleware.SiteLanguageMiddleware`), else the event's
    (`Tournament.language`, read with the token: `table_entry.table_for_token`). The
    browser's Accept-Language counts for nothing, as on the rest of the site."""
    return _language(request, table.event_language)


def _language(request, event_language: str) -> str:
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return chosen if chosen in dict(settings.LANGUAGES) else event_language


def with_table(view):
    """Resolve the URL's token to its `MatchTable` (argument `table`). A link that no longer
    opens its match (`table_entry.retired_link`) answers 410 (renewed: scan the new card) or
    409 (its match removed upstream, the organiser's sentence), in JSON to a caller that asked
    for JSON (the offline queue), and is not counted as a wrong link. Any other token answers
    404 and is counted, or 429 once this address has tried too many (`link_guesses`); a valid
    link is never refused. The view runs in the link's language (`link_language`)."""
    def wrapped(request, token: str, *args, **kwargs):
        table = table_entry.table_for_token(token)
        if table is None:
            retired = table_entry.retired_link(token)
            if retired is not None:
                return _retired(request, retired)
            status = link_guesses.wrong_link(request)
            return render(request, GONE_PAGE, {"too_many": status == 429}, status=status)
        language = link_language(request, table)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = view(request, table, *args, **kwargs)
        response.headers["Content-Language"] = language
        return response
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    wrapped.__wrapped__ = view
    return wrapped


RENEWED = gettext_lazy(
    "The organiser gave this match a new link, and this one no longer opens it. Scan the new "
    "scorecard (or its QR code) to go on."
)


def retired_answer(request, retired: RetiredLink) -> tuple[str, int]:
    """(the sentence, the status) for link `retired`: 410 and `RENEWED` for a renewed link,
    409 and the organiser's match page sentence for a match removed upstream (`match_removed`,
    or `match_unplayed` after a withdrawal), in the language the active translation speaks."""
    if retired.reason == RetiredLink.Reason.RENEWED:
        return str(RENEWED), 410
    code = "match_unplayed" if retired.change_reason == WITHDRAWN else "match_removed"
    return str(RecordingError.messages[code]), 409


def _retired(request, retired: RetiredLink):
    language = _language(request, retired.language or settings.LANGUAGE_CODE)
    with translation.override(language):
        sentence, status = retired_answer(request, retired)
        if "application/json" in request.headers.get("Accept", ""):
            response = JsonResponse({"result": "refused", "message": sentence}, status=status)
        else:
            response = render(request, GONE_PAGE, {"retired": sentence,
                                                   "renewed": status == 410}, status=status)
    response.headers["Content-Language"] = language
    return response


def device_of(request) -> str:
    """The device hash of this browser (`table_entry.device_hash` of its `DEVICE_COOKIE`), ""
    for a browser without a device id yet."""
    device_id = request.COOKIES.get(DEVICE_COOKIE, "")
    if not DEVICE_ID.fullmatch(device_id):
        return ""
    return table_entry.device_hash(device_id)


def seat_of(request, table: MatchTable) -> str:
    """The seat ("A"/"B") this browser holds at the table, or "" (none: never taken, freed by
    the organiser, or the link renewed since)."""
    return table.seat_held_by(device_of(request))


def _seat_page(request, table: MatchTable, *, error: str = "", status: int = 200):
    """"Who are you?": a button per seat, a seat held by another browser marked taken."""
    match = table.match
    device = device_of(request)
    seats = [
        {"seat": seat, "name": match.player(seat).name,
         "taken": bool(table.holder(seat)) and table.holder(seat) != device}
        for seat in rules.SEATS
    ]
    context = {"table": table, "match": match, "seats": seats, "error": error,
               "all_taken": all(seat["taken"] for seat in seats)}
    return render(request, SEAT_PAGE, context, status=status)


@require_GET
@with_table
def match_page(request, table: MatchTable):
    """The match at the table: "Who are you?" on the first visit, then the score, the entry
    form, the pending deal, the sign-off. It follows the match's stream
    (`live.views.streams.link_stream`), so the other phone's deal shows at once; the stream
    fetches the page's live part again (an htmx GET: `live_match.html` alone)."""
    seat = seat_of(request, table)
    if not seat:
        if request.htmx:  # the live part of a phone whose seat was freed: "Who are you?"
            return HttpResponseClientRefresh()
        return _seat_page(request, table)
    return _page(request, table, fresh=True)


@require_POST
@with_table
def seat_choose(request, table: MatchTable):
    """Take a seat (`table_entry.seat_claim`): this browser holds it from now on. A browser
    without a device id gets one (`DEVICE_COOKIE`). 409 with the sentence for a seat another
    browser holds, or when this one holds the other seat; 422 for no seat named."""
    seat = request.POST.get("seat", "")
    if seat not in rules.SEATS:
        return _seat_page(request, table, status=422)
    device_id = request.COOKIES.get(DEVICE_COOKIE, "")
    new = not DEVICE_ID.fullmatch(device_id)
    if new:
        device_id = table_entry.new_device_id()
    try:
        table_entry.seat_claim(match=table.match, seat=seat,
                               device=table_entry.device_hash(device_id),
                               address=client_address(request))
    except TableError as error:
        table.refresh_from_db()
        return _seat_page(request, table, error=user_message(error), status=409)
    response = redirect("players:match", token=table.token)
    if new:
        response.set_cookie(DEVICE_COOKIE, device_id, max_age=DEVICE_COOKIE_AGE,
                            path=DEVICE_COOKIE_PATH, httponly=True, samesite="Lax",
                            secure=request.is_secure())
    return response


def _seated(view):
    """Posts need the seat this browser holds (`seat_of`), given to the view with the
    browser's device hash (`request.device`): without one, back to "Who are you?"."""
    def wrapped(request, table: MatchTable):
        seat = seat_of(request, table)
        if not seat:
            return redirect("players:match", token=table.token)
        request.device = device_of(request)
        request.via = ""
        return view(request, table, seat)
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    wrapped.__wrapped__ = view
    return wrapped


@require_POST
@with_table
@_seated
def deal_add(request, table: MatchTable, seat: str):
    """A deal from this seat's phone: the quick form or the card-points form of the match
    page (`scoring.forms`), then `table_entry.table_deal_enter` (pending under
    `players_confirm_each`). 422 for a bad deal, 409 when the match cannot take it."""
    match = table.match
    details = any(key.startswith("details-") for key in request.POST)
    form = (DealDetailsForm if details else DealQuickForm)(request.POST, match=match)
    if not form.is_valid():
        return _page(request, table, form=form, status=422)
    try:
        deal = table_entry.table_deal_enter(
            match=match, seat=seat, score=form.score, details=form.record,
            number=form.cleaned_data["number"], address=client_address(request),
            device=request.device, via=request.via,
        )
    except ScoringError as error:
        return _refused(request, table, error)
    number = form.cleaned_data["number"]
    if deal is None:
        notice = _("Deal %(number)s is waiting for your opponent's confirmation.")
    elif deal.already_stored:
        notice = _("Deal %(number)s was already stored.")
    else:
        notice = _("Deal %(number)s saved.")
    return _done(request, table, notice % {"number": number})


@require_POST
@with_table
def deal_sync(request, table: MatchTable):
    """A deal this phone kept while offline (the quick form's fields), entered as `deal_add`
    would (`table_entry.table_deal_enter`, under its deal number, so a resend is stored once):
    a JSON answer (`tableside.offline_sync`), nothing written on a refusal. A browser that
    holds no seat (any more) is refused (409, `seat_not_held`)."""
    match = table.match
    form = DealQuickForm(request.POST, match=match)
    if not form.is_valid():
        return offline_sync.invalid(form)
    number = form.cleaned_data["number"]
    actor = getattr(request, "pass_actor", None)
    seat = actor.seat if actor else seat_of(request, table)
    try:
        if not seat:
            raise TableError("seat_not_held")
        deal = table_entry.table_deal_enter(
            match=match, seat=seat, score=form.score, number=number,
            address=client_address(request),
            device=actor.device if actor else device_of(request),
            via=MatchEvent.Via.PASS if actor else "",
        )
    except ScoringError as error:
        code = getattr(error, "code", "")
        status = 422 if code in BAD_INPUT or (
            isinstance(error, rules.InvalidDeal) and code != "match_finished") else 409
        table.refresh_from_db()
        return offline_sync.refused(error, match=match, number=number, pending=table.pending,
                                    status=status)
    return offline_sync.stored(deal, number, match.pk)


@require_POST
@with_table
@_seated
def deal_undo(request, table: MatchTable, seat: str):
    """Undo the last deal (`number`: the one the page showed) while the result is not final."""
    form = DealUndoForm(request.POST)
    if not form.is_valid():
        return _page(request, table, error=form.errors["number"][0], status=422)
    try:
        deal = table_entry.table_deal_undo(
            match=table.match, seat=seat, number=form.cleaned_data["number"],
            address=client_address(request), device=request.device, via=request.via,
        )
    except ConfirmationRequired:  # a knockout's later results: the organiser's to undo
        return _refused(request, table, TableError("result_final"))
    except ScoringError as error:
        return _refused(request, table, error)
    return _done(request, table, _("Deal %(number)s undone.") % {"number": deal.number})


@require_POST
@with_table
@_seated
def deal_confirm(request, table: MatchTable, seat: str):
    """Confirm the pending deal `number` (or, with `reject=1`, drop it), for the seat this
    browser holds: a deal is confirmed only from the other seat's browser."""
    form = DealUndoForm(request.POST)  # the number of the deal shown as pending
    if not form.is_valid():
        return _page(request, table, error=form.errors["number"][0], status=422)
    number = form.cleaned_data["number"]
    try:
        if request.POST.get("reject") == "1":
            table_entry.table_deal_reject(match=table.match, seat=seat, number=number,
                                          address=client_address(request),
                                          device=request.device, via=request.via)
            return _done(request, table, _("Deal %(number)s dropped; enter it again.")
                         % {"number": number})
        table_entry.table_deal_confirm(match=table.match, seat=seat, number=number,
                                       address=client_address(request),
                                       device=request.device, via=request.via)
    except ScoringError as error:
        return _refused(request, table, error)
    return _done(request, table, _("Deal %(number)s confirmed.") % {"number": number})


@require_POST
@with_table
@_seated
def result_sign(request, table: MatchTable, seat: str):
    """Sign the result for this phone's seat; a post naming the other seat is refused."""
    posted = request.POST.get("seat", seat)
    if posted != seat:
        error = TableError("sign_other_seat", name=table.match.player(seat).name)
        return _refused(request, table, error, status=403)
    try:
        table_entry.result_sign(match=table.match, seat=seat, address=client_address(request),
                                device=request.device, via=request.via)
    except ScoringError as error:
        return _refused(request, table, error)
    # No notice: the sign-off box says it, with the score (and "final" once both signed).
    return _back(request, table)


@require_POST
@with_table
@_seated
def result_dispute(request, table: MatchTable, seat: str):
    """Dispute the result with a short text (`text`) for the organiser to settle: plain text
    (`tableside.forms.DisputeForm`), else 422 with the sentence, nothing written."""
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _page(request, table, error=form.errors["text"][0], status=422)
    try:
        table_entry.result_dispute(match=table.match, seat=seat,
                                   text=form.cleaned_data["text"],
                                   address=client_address(request), device=request.device,
                                   via=request.via)
    except ScoringError as error:
        return _refused(request, table, error)
    return _done(request, table, _("Your dispute was sent to the organiser."))


@require_POST
@with_table
def undo_ask(request, table: MatchTable):
    """After a signature, an undo is asked for and allowed from a pass only
    (`table_entry.undo_ask`): from the match's link it is refused, 403 with the sentence
    (`undo_needs_pass`), nothing written."""
    return _link_refuses_undo(request, table)


@require_POST
@with_table
def undo_answer(request, table: MatchTable):
    """Allowing or refusing an undo after a signature: from a pass only (`undo_ask`)."""
    return _link_refuses_undo(request, table)


def _link_refuses_undo(request, table: MatchTable):
    error = TableError("undo_needs_pass")
    if seat_of(request, table) or wants_json(request):
        return _refused(request, table, error)
    return _seat_page(request, table, error=user_message(error), status=403)


# --------------------------------------------------------------------------------------------

BAD_INPUT = {"dispute_text_missing", "deal_number_out_of_range", "undo_number_out_of_range",
             "undo_answer_missing"}
NOT_YOURS = {"undo_needs_pass", "undo_own_request"}
"""Refusals of who acts, not of when: 403."""


def wants_json(request) -> bool:
    """The caller asked for a JSON answer (a script, the offline queue), not a page."""
    return "application/json" in request.headers.get("Accept", "")


def _refused(request, table: MatchTable, error, status: int | None = None):
    """The refusal of a post: the page again with the sentence (or, to a caller that asked
    for JSON, `{"result": "refused", "code", "message"}`), 422 for bad input, 403 for a step
    that is not this phone's to take (`NOT_YOURS`), else 409; nothing written."""
    code = getattr(error, "code", "")
    if status is None:
        if isinstance(error, rules.InvalidDeal):
            status = 409 if code == "match_finished" else 422
        elif code in NOT_YOURS:
            status = 403
        else:
            status = 422 if code in BAD_INPUT else 409
    if wants_json(request):
        return JsonResponse({"result": "refused", "code": code,
                             "message": user_message(error)}, status=status)
    return _page(request, table, error=user_message(error), status=status)


def _success(request) -> str:
    """The success message of the post just done (`_done`: "Deal 2 saved."), for the score
    (`match_score.html`, where it stays in view); "" when there is none."""
    return " ".join(message.message for message in messages.get_messages(request)
                    if message.level == messages.SUCCESS)


def _back(request, table: MatchTable):
    """The page a post returns to: the pass's match page for a step from a pass, else the
    match's link."""
    actor = getattr(request, "pass_actor", None)
    if actor is not None:
        return redirect("players:pass_match", token=actor.token, match_pk=table.match_id)
    return redirect("players:match", token=table.token, permanent=False)


def _done(request, table: MatchTable, notice: str):
    messages.success(request, notice)
    return _back(request, table)


def _page(request, table: MatchTable, *, form=None, error: str = "", status: int = 200,
          fresh: bool = False):
    """The player's page: sticky score and next dealer, then what this seat can do now.
    `fresh`: `table` and its match (with its players and the event's entry mode) were just read
    by `with_table` in this request, with nothing written since, so they are not read again."""
    if not fresh:
        table.refresh_from_db()
        table.match.refresh_from_db()
    match = table.match
    actor = getattr(request, "pass_actor", None)
    seat = actor.seat if actor else seat_of(request, table)
    sheet = match_sheet(match)
    mode = table.entry_mode if fresh else table_entry.entry_mode_of(match)
    state = table_entry.result_state(match, mode, table)
    pairing = Pairing.objects.select_related("round__tournament").filter(match=match).first()
    pending = table.pending
    # After a signature or a dispute only the organiser changes the result.
    locked = table.is_final or table.signed_any or bool(table.disputed_by)
    can_enter = not match.is_over and not pending and not locked
    quick_form = details_form = None
    if can_enter:
        initial = {"number": sheet.next_number}
        quick_form = form if isinstance(form, DealQuickForm) else DealQuickForm(
            match=match, initial=initial)
        details_form = form if isinstance(form, DealDetailsForm) else DealDetailsForm(
            match=match, initial=initial)
    context = {
        "table": table, "match": match, "seat": seat, "seat_name": match.player(seat).name,
        "tournament": pairing.round.tournament if pairing else None, "pairing": pairing,
        "house_rules": sheet.house_rules, "next_dealer": sheet.next_dealer,
        "next_number": sheet.next_number,
        "next_dealer_name": match.player(sheet.next_dealer).name,
        "winner_name": match.player(match.winner).name if match.winner else "",
        "rows": sheet.rows, "last_deal": sheet.rows[-1] if sheet.rows else None,
        "quick_form": quick_form, "details_form": details_form,
        "details_open": isinstance(form, DealDetailsForm),
        **_urls(table, actor),
        # Offline, one deal at a time when each waits for the opponent (docs/architecture.md,
        # "Offline entry").
        "offline_limit": 1 if mode == EntryMode.PLAYERS_CONFIRM_EACH else 0,
        "confirm_each": mode == EntryMode.PLAYERS_CONFIRM_EACH,
        "pending": pending, "pending_mine": bool(pending) and pending["seat"] == seat,
        "other_seat": "B" if seat == "A" else "A",
        "other_name": match.player("B" if seat == "A" else "A").name,
        "pending_name": match.player(pending["winner"]).name
        if pending and pending["winner"] else "",
        "mode": mode, "signs": mode == EntryMode.PLAYERS_SIGN, "state": state,
        "signed_me": table.signed(seat), "signed_other": table.signed("B" if seat == "A" else "A"),
        "disputed_me": table.disputed_by == seat, "locked": locked,
        "final": table.is_final or (match.is_decided and mode != EntryMode.PLAYERS_SIGN),
        "error": error, "notice": _success(request), "organiser": False,
        # Read with the link when fresh (`table_entry.table_for_token`), else asked.
        "pass_in_use": actor is None and mode == EntryMode.PLAYERS_SIGN and match.is_over
        and (table.passes_in_use if fresh else pass_services.players_have_passes(
            (match.player_a_id, match.player_b_id))),
        "actor": actor, "code_offered": _code_offered(match, table, mode, seat, actor),
        **_undo_consent(match, table, mode, seat, actor, sheet.rows),
        "corrections": match_history.corrections(match),
    }
    if actor is None:
        follow_link(request, table.token, match)
    else:
        follow_pass_match(request, actor.token, match)
    return render(request, part_or_page(request, PAGE, LIVE_PART), context, status=status)



def _undo_consent(match, table: MatchTable, mode: str, seat: str, actor, rows) -> dict:
    """What the pass's match page shows of an undo after a signature
    (`table_entry.undo_ask`): `undo_waiting`, the request waiting for consent (`mine`: this
    seat asked; the asker's and the other's names, the deal, the score before and after it),
    or else `undo_ask_offered`: this pass may ask to undo the last deal (`undo_at_once`: no
    other signature stands, so it is undone at once)."""
    last = rows[-1] if rows else None
    waiting = table_entry.undo_request(table, last.number if last else None)
    other = "B" if seat == "A" else "A"
    shown = {"undo_waiting": None, "undo_ask_offered": False,
             "undo_at_once": not table.signed(other)}
    if waiting is not None:
        before = rows[-2] if len(rows) > 1 else None
        asker = waiting[0]
        shown["undo_waiting"] = {
            "mine": asker == seat, "number": waiting[1],
            "name": match.player(asker).name, "other_name": match.player(other_seat(asker)).name,
            "deal": (_("%(name)s +%(points)s") % {"name": last.winner_name,
                                                  "points": last.game_points}
                     if last.winner else _("draw")),
            "after": f"{last.game_points_a}:{last.game_points_b}",
            "before": f"{before.game_points_a}:{before.game_points_b}" if before else "0:0",
        }
        return shown
    shown["undo_ask_offered"] = bool(
        actor is not None and mode == EntryMode.PLAYERS_SIGN and last is not None
        and match.status == match.Status.FINISHED and table.signed_any
        and not table.approved_at and not table.disputed_by and not table.pending)
    return shown


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


def _urls(table: MatchTable, actor) -> dict:
    """Where the page's forms post, and its own address (`live_url`): the match's link, or
    the pass's match (`actor`)."""
    if actor is None:
        name, args = "players:%s", [table.token]
    else:
        name, args = "players:pass_%s", [actor.token, table.match_id]
    return {f"{what}_url": reverse(name % what, args=args)
            for what in ("deal_add", "deal_sync", "deal_undo", "deal_confirm", "sign",
                         "dispute")} | {
        "deal_url": reverse(name % "deal_add", args=args),
        "sync_url": reverse(name % "deal_sync", args=args),
        "code_url": reverse("players:pass_code_sign", args=args) if actor else "",
        "undo_ask_url": reverse(name % "undo_ask", args=args),
        "undo_answer_url": reverse(name % "undo_answer", args=args),
        "undo_code_url": reverse("players:pass_undo_code", args=args) if actor else "",
        "live_url": reverse(name % "match", args=args),
    }


def _code_offered(match, table: MatchTable, mode: str, seat: str, actor) -> bool:
    """The pass's match page offers the opponent to sign here with their personal code: the
    result waits for their signature and they have a pass (a table with one phone)."""
    if actor is None or mode != EntryMode.PLAYERS_SIGN or match.status != match.Status.FINISHED:
        return False
    other = "B" if seat == "A" else "A"
    if table.is_final or table.signed(other) or table.disputed_by:
        return False
    return pass_services.valid_pass_of(match.player(other).pk) is not None


# --------------------------------------------------------------------------------------------
# The same match from a player's pass (`/pass/<token>/m/<match id>/`): no seat to pick, the seat
# is the pass's player's; every step names the pass (`MatchEvent.Via.PASS`).
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PassActor:
    """Who acts on a pass's match page: the pass's `token` (for its addresses only), the seat
    of its player, the device the steps name (`passes.services.pass_device`) and the pass."""

    token: str
    seat: str
    device: str
    player_pass: object


def with_pass_match(view):
    """Resolve the pass token and the match id to the match's `MatchTable` and the pass's seat
    in it, then run `view(request, table, seat)` as the link's views run, for that seat
    (`request.pass_actor`). A token that opens no pass: 404 (counted) or 429, as the pass
    page; a match the pass's player does not play, or one whose event lets no player enter:
    404, not counted (the pass is good; it is not that match's)."""
    def wrapped(request, token: str, match_pk: int):
        player_pass = pass_services.pass_for_token(token)
        if player_pass is None:
            status = link_guesses.wrong_link(request)
            return render(request, PASS_GONE_PAGE, {"too_many": status == 429}, status=status)
        found = pass_selectors.match_of_pass(player_pass.player, match_pk)
        table = None
        if found is not None:
            pairing, seat = found
            table = table_entry.table_for_token(table_entry.table_of(pairing.match).token)
        if table is None:
            return render(request, GONE_PAGE, {}, status=404)
        request.pass_actor = PassActor(token=token, seat=seat, player_pass=player_pass,
                                       device=pass_services.pass_device(player_pass))
        request.device, request.via = request.pass_actor.device, MatchEvent.Via.PASS
        language = link_language(request, table)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = view(request, table, seat)
        response.headers["Content-Language"] = language
        response.headers["Cache-Control"] = "no-store"
        return response
    wrapped.__name__ = "pass_" + view.__name__.lstrip("_")
    wrapped.__doc__ = view.__doc__
    return wrapped


def _match_page_of_pass(request, table: MatchTable, seat: str):
    """The match as the pass's player sees it: the page of the match's link, for their seat."""
    return _page(request, table)


def _deal_sync_of_pass(request, table: MatchTable, seat: str):
    return inspect.unwrap(deal_sync)(request, table)


def _code_sign(request, table: MatchTable, seat: str):
    """At a table with one phone: the opponent signs on this pass's page with their own
    personal code (`table_entry.result_sign_with_code`; 5 wrong codes per match, then only the
    organiser). 422 for a wrong code, 409 when no more may be tried."""
    other = "B" if seat == "A" else "A"
    try:
        table_entry.result_sign_with_code(match=table.match, seat=other,
                                          code=request.POST.get("code", ""),
                                          address=client_address(request))
    except PassError as error:
        status = 409 if error.code == "code_tries_used" else 422
        return _refused(request, table, error, status=status)
    except ScoringError as error:
        return _refused(request, table, error)
    return _back(request, table)


def _undo_ask(request, table: MatchTable, seat: str):
    """After a signature, ask to undo the last deal, `number` (`table_entry.undo_ask`): at
    once when no other signature stands, else the request waits for the other signer. 422
    for a bad number, 409 (or 403) with the sentence on a refusal."""
    form = DealUndoForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, table, form.errors["number"][0])
    number = form.cleaned_data["number"]
    try:
        deal = table_entry.undo_ask(match=table.match, seat=seat, number=number,
                                    address=client_address(request), device=request.device,
                                    via=request.via)
    except ScoringError as error:
        return _refused(request, table, error)
    if deal is not None:
        return _undo_done(request, table, "undone",
                          _("Deal %(number)s undone.") % {"number": number})
    notice = _("You asked %(name)s to allow undoing deal %(number)s.") % {
        "name": table.match.player(other_seat(seat)).name, "number": number}
    return _undo_done(request, table, "asked", notice)


def _undo_answer(request, table: MatchTable, seat: str):
    """Allow (`answer=allow`: `table_entry.undo_allow`) or refuse (`answer=refuse`:
    `table_entry.undo_refuse`; the asker withdraws their own request the same way) the undo
    of deal `number` waiting for consent. 422 for a bad number or answer."""
    form = DealUndoForm(request.POST)
    answer = request.POST.get("answer", "")
    if not form.is_valid():
        return _bad_input(request, table, form.errors["number"][0])
    if answer not in ("allow", "refuse"):
        return _refused(request, table, TableError("undo_answer_missing"))
    number = form.cleaned_data["number"]
    step = table_entry.undo_allow if answer == "allow" else table_entry.undo_refuse
    try:
        step(match=table.match, seat=seat, number=number, address=client_address(request),
             device=request.device, via=request.via)
    except ScoringError as error:
        return _refused(request, table, error)
    if answer == "allow":
        return _undo_done(request, table, "undone",
                          _("Deal %(number)s undone.") % {"number": number})
    return _undo_done(request, table, "refused",
                      _("The request to undo deal %(number)s is dropped.") % {"number": number})


def _undo_code(request, table: MatchTable, seat: str):
    """At a table with one phone: the other signer allows the undo this pass asked for with
    their personal code (`table_entry.undo_allow_with_code`; the 5 wrong codes of the match
    are shared with the signatures'). 422 for a wrong code, 409 when no more may be tried."""
    form = DealUndoForm(request.POST)
    if not form.is_valid():
        return _bad_input(request, table, form.errors["number"][0])
    number = form.cleaned_data["number"]
    try:
        table_entry.undo_allow_with_code(match=table.match, seat=other_seat(seat),
                                         number=number, code=request.POST.get("code", ""),
                                         address=client_address(request))
    except PassError as error:
        status = 409 if error.code == "code_tries_used" else 422
        return _refused(request, table, error, status=status)
    except ScoringError as error:
        return _refused(request, table, error)
    return _undo_done(request, table, "undone",
                      _("Deal %(number)s undone.") % {"number": number})


def _bad_input(request, table: MatchTable, sentence: str):
    """422 for a post whose fields make no sense (a crafted deal number): the sentence."""
    if wants_json(request):
        return JsonResponse({"result": "refused", "code": "bad_input", "message": sentence},
                            status=422)
    return _page(request, table, error=sentence, status=422)


def _undo_done(request, table: MatchTable, result: str, notice: str):
    if wants_json(request):
        return JsonResponse({"result": result, "message": notice})
    return _done(request, table, notice)


pass_match = require_GET(with_pass_match(_match_page_of_pass))
pass_deal_add = require_POST(with_pass_match(inspect.unwrap(deal_add)))
pass_deal_sync = require_POST(with_pass_match(_deal_sync_of_pass))
pass_deal_undo = require_POST(with_pass_match(inspect.unwrap(deal_undo)))
pass_deal_confirm = require_POST(with_pass_match(inspect.unwrap(deal_confirm)))
pass_sign = require_POST(with_pass_match(inspect.unwrap(result_sign)))
pass_dispute = require_POST(with_pass_match(inspect.unwrap(result_dispute)))
pass_code_sign = require_POST(with_pass_match(_code_sign))
pass_undo_ask = require_POST(with_pass_match(_undo_ask))
pass_undo_answer = require_POST(with_pass_match(_undo_answer))
pass_undo_code = require_POST(with_pass_match(_undo_code))
