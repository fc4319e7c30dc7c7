"""Deal entry for one match: the page organisers use all evening at club nights.

Views are adapters: access check (`events.access`) -> form -> one
`scoring.services` call -> redirect, or the htmx partial (score + form + deals) when htmx asked;
a deal saved by htmx is answered with the score, the form and only the new row (`_deal_saved`;
the first deal, the list it starts).
Bad input re-renders the form with the message and 422; a match that cannot take the change
(someone else entered that deal, the match is over, forfeited or closed unplayed by a
withdrawal, or a correction upstream removed it since the page was drawn) answers 409.
Nothing is written in either case. An undo or correction that would undo later results (a knockout
winner's next match has started) answers 409 with the list of what would be cleared and a
"Confirm" button that posts the same data again with `confirmed=1`.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from core.fingerprints import fingerprint
from core.messages import user_message
from events import registry
from events.access import (
    pairing_for_organiser,
    pairing_for_organiser_locked,
    pairing_for_reading,
    removed_match,
)
from events.models import EntryMode
from formats.knockout import services as knockout
from live.pages import follow_match, shared_part
from ratings import selectors
from scoring import rules, services
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.forms import (
    DealCorrectionForm,
    DealDetailsForm,
    DealQuickForm,
    DealUndoForm,
    FinalScoreForm,
    draws_allowed,
)
from scoring.match_sheet import MatchSheet, match_sheet, sheet_of_scores
from scoring.models import Match, reason_label
from tableside import control_room, table_entry
from tableside.errors import TableError
from tableside.match_history import deal_entered, match_history
from tableside.views.scorecard import offered as scorecard_offered

PAGE = "tableside/match_entry.html"
PANEL = "tableside/partials/match_panel.html"
DETAILS_FORM = "tableside/partials/match_details_form.html"
DEAL_SAVED = "tableside/partials/match_deal_saved.html"
REMOVED_PAGE = "tableside/match_removed.html"
REMOVED_PANEL = "tableside/partials/match_removed_panel.html"
ScoringError = (RecordingError, rules.InvalidDeal)


@require_GET
@shared_part("match")
def match_entry(request, match_pk: int):
    pairing = pairing_for_reading(request, match_pk)
    return page(request, pairing, pairing.match)


@login_required
@require_POST
def deal_add(request, match_pk: int):
    """A deal from the quick form or the card-points form. The access check and the locked
    match are one query (`pairing_for_organiser_locked`), the deal is written in the same
    transaction (`services.deal_record_locked`), and the answer is drawn from what the service
    returns, after the commit: the deals are read once."""
    refusal = deal = None
    try:
        with transaction.atomic():
            pairing = pairing_for_organiser_locked(request, match_pk)
            match = pairing.match
            form = (DealDetailsForm if _with_details(request) else DealQuickForm)(
                request.POST, match=match)
            if pairing.round.tournament.final_score_only:
                refusal = RecordingError("final_score_only")
            elif form.is_valid():
                deal = services.deal_record_locked(
                    match=match, score=form.score, details=form.record, by=request.user,
                    number=form.cleaned_data["number"],
                )
    except Http404:
        removed = _removed_since(request, match_pk)
        if removed is None:
            raise
        return removed
    except ScoringError as error:  # the locked match cannot have been removed meanwhile
        return page(request, pairing, error=user_message(error), status=_status(error))
    if refusal is not None:
        return page(request, pairing, match, error=user_message(refusal), status=409)
    if deal is None:  # the form refused it: nothing was written
        return page(request, pairing, match, form=form, status=422)
    if deal.already_stored:  # the same deal sent again (a double tap): written once
        return _done(request, pairing, _("Deal %(number)s was already stored.")
                     % {"number": deal.number})
    sheet = sheet_of_scores(deal.match, deal.match_scores)
    # Only the new row is sent when the page listed every other deal as it stood when this
    # one was saved: none entered after the page was drawn, none corrected, or undone and
    # entered again, and in the same language.
    if request.htmx and request.POST.get("shown") == _digest(sheet.scores[:-1]):
        return _deal_saved(request, pairing, deal, sheet)
    return _done(request, pairing, _("Deal %(number)s saved.") % {"number": deal.number},
                 match=deal.match, sheet=sheet)


def _with_details(request) -> bool:
    """Whether the post comes from the card-points form (its fields are prefixed)."""
    return any(key.startswith("details-") for key in request.POST)


@login_required
@require_GET
def deal_details_form(request, match_pk: int):
    """The card-points form alone, for the panel's "enter card points" section (htmx loads it
    when first opened). A match that is over has no form: 409 with the whole panel, which then
    replaces the old one (someone else entered the last deal meanwhile)."""
    pairing = pairing_for_organiser(request, match_pk)
    match = pairing.match
    if match.is_over:
        panel = page(request, pairing, match, status=409)
        return reswap(retarget(panel, "#match-panel"), "outerHTML")
    next_number = match.deals.count() + 1
    context = {
        "match": match, "next_number": next_number,
        "details_form": DealDetailsForm(match=match, initial={"number": next_number}),
    }
    return render(request, DETAILS_FORM, context)


@login_required
@require_POST
def deal_undo(request, match_pk: int):
    pairing, removed = _pairing_for_change(request, match_pk)
    if removed:
        return removed
    form = DealUndoForm(request.POST)
    if not form.is_valid():  # never an undo without the number the page showed
        return page(request, pairing, error=form.errors["number"][0], status=422)
    try:
        deal = services.deal_undo_last(
            match=pairing.match, by=request.user, number=form.cleaned_data["number"],
            confirmed=_confirmed(request),
        )
    except ConfirmationRequired as error:
        action = reverse("matches:deal_undo", args=[match_pk])
        what = _("Undo the last deal")
        return _confirmation(request, pairing, error, action, what)
    except RecordingError as error:
        if error.code == "match_removed":
            return _removed(request, pairing.round.tournament)
        return page(request, pairing, error=user_message(error), status=_status(error))
    return _done(request, pairing, _("Deal %(number)s undone.") % {"number": deal.number})


def _confirmed(request) -> bool:
    return request.POST.get("confirmed") == "1"


def _confirmation(request, pairing, error: ConfirmationRequired, action: str,
                  what: str):
    """409: what the change would clear, and a button that posts the same data confirmed."""
    fields = [
        (name, value) for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "confirmed") for value in values
    ]
    confirm = {
        "action": action, "what": what, "fields": fields, "consequences": error.consequences,
    }
    return page(request, pairing, error=user_message(error), confirm=confirm, status=409)


@login_required
@require_http_methods(["GET", "POST"])
def deal_correct(request, match_pk: int, number: int):
    pairing, removed = _pairing_for_change(request, match_pk)
    if removed:
        return removed
    match = pairing.match
    deal = get_object_or_404(match.deals, number=number)
    initial = {"winner": deal.winner, "reason": deal.reason, "game_points": deal.game_points}
    data = request.POST if request.method == "POST" else None
    form = DealCorrectionForm(data, match=match, initial=initial)
    if not form.is_valid():
        status = 422 if data is not None else 200
        return page(request, pairing, match, correction=form, deal=deal, status=status)
    try:
        services.deal_correct(
            deal=deal, score=form.score, by=request.user,
            reason=form.cleaned_data["correction_reason"], confirmed=_confirmed(request),
        )
    except ConfirmationRequired as error:
        action = reverse("matches:deal_correct", args=[match_pk, number])
        what = _("Correct deal %(number)s") % {"number": number}
        return _confirmation(request, pairing, error, action, what)
    except ScoringError as error:
        if getattr(error, "code", "") == "match_removed":
            return _removed(request, pairing.round.tournament)
        return page(request, pairing, correction=form, deal=deal,
                     error=_correction_message(error), status=_status(error, correcting=True))
    return _done(request, pairing, _("Deal %(number)s corrected.") % {"number": number})


# --------------------------------------------------------------------------------------------


def _pairing_for_change(request, match_pk: int):
    """(pairing, None) for a match the user may change (`pairing_for_organiser`), or (None, the
    409 answer of `_removed`) for one of theirs that was deleted after their page was drawn.
    Anything else unknown stays 404."""
    try:
        return pairing_for_organiser(request, match_pk), None
    except Http404:
        removed = _removed_since(request, match_pk)
        if removed is None:
            raise
        return None, removed


def _removed_since(request, match_pk: int):
    """The 409 answer of `_removed` for a match of the user's that was deleted after their
    page was drawn (`removed_match`); None for any other unknown match (a 404)."""
    removed = removed_match(request, match_pk)
    if removed is None:
        return None
    tournament, reason = removed
    return _removed(request, tournament, withdrawal=reason == knockout.WITHDRAWN)


def _removed(request, tournament, *, withdrawal: bool = False):
    """409: the match is gone. The message says why: a correction earlier in the bracket
    removed it (`RecordingError` `match_removed`), or, with `withdrawal`, a player withdrew
    before it started (`match_unplayed`); a link leads back to the bracket (or the event). A
    page, or for htmx the panel that replaces the stale one. Nothing was written."""
    code = "match_unplayed" if withdrawal else "match_removed"
    context = {"tournament": tournament, "error": RecordingError.messages[code]}
    template = REMOVED_PANEL if request.htmx else REMOVED_PAGE
    return render(request, template, context, status=409)


def _match(pairing) -> Match:
    """The match read again: after a change, or a refusal (someone else's deal may have
    landed since the pairing was read)."""
    return Match.objects.select_related("player_a", "player_b").get(pk=pairing.match_id)


# What the organiser sent is wrong whatever the match's state: 422, like a rule broken.
BAD_INPUT_CODES = {
    "correction_reason_missing", "deal_number_out_of_range", "undo_number_out_of_range",
}


def _status(error: Exception, *, correcting: bool = False) -> int:
    """409 when the match is not in a state to take the change, 422 for a rule broken or a
    deal number no page of this match could have sent."""
    if isinstance(error, rules.InvalidDeal):
        return 409 if error.code == "match_finished" and not correcting else 422
    return 422 if error.code in BAD_INPUT_CODES else 409


def _correction_message(error: Exception) -> str:
    later = error.params.get("deal_number") if isinstance(error, rules.InvalidDeal) else None
    if isinstance(error, rules.InvalidDeal) and error.code == "match_finished" and later:
        return _(
            "With this correction the match would be won before deal %(number)s, which was "
            "played after it. Undo the later deals first, or correct them."
        ) % {"number": later}
    return user_message(error)


def _done(request, pairing, notice: str, match: Match | None = None,
          sheet: MatchSheet | None = None):
    if request.htmx:
        return page(request, pairing, match, notice=notice, sheet=sheet)
    messages.success(request, notice)
    return redirect("matches:entry", match_pk=pairing.match_id)


def page(request, pairing, match=None, *, form=None, correction=None, deal=None, error="",
         notice="", confirm=None, final_form=None, sheet=None, status=200):
    """The match page (or its htmx partial): score, next dealer, entry forms, deals so far
    (`sheet`, the `match_sheet` of `match`, read here unless given)."""
    match = match or _match(pairing)
    sheet = sheet or match_sheet(match)
    context = _head_context(
        request, pairing, match, sheet.house_rules, sheet.next_dealer, sheet.next_number,
        form=form, correction=correction, confirm=confirm, shown=_digest(sheet.scores),
        final_form=final_form,
    )
    context.update({
        "rows": sheet.rows,
        "last_deal": sheet.rows[-1] if sheet.rows else None,
        "corrected_deal": deal, "error": error, "notice": notice,
    })
    if deal is not None:
        context["corrected_reason"] = reason_label(deal.reason, sheet.house_rules)
    # The history of the match's changes, and the players' link: for its organisers only.
    context["history"] = match_history(match) if context["organiser"] else []
    context["players"] = (
        _players_context(request, match, pairing.round.tournament.entry_mode)
        if context["organiser"] else None
    )
    follow_match(request, match)  # after the players' link, which its first look makes
    return render(request, PANEL if request.htmx else PAGE, context, status=status)


def _players_context(request, match: Match, mode: str) -> dict | None:
    """The players' side of the match for its organiser (`match_players_link.html`): the
    link, the mode (`Tournament.entry_mode`), the sign-off state; None when the event's
    players do not enter."""
    if not table_entry.players_may_enter(mode):
        return None
    table = table_entry.table_of(match)
    return {
        "table": table,
        "url": request.build_absolute_uri(reverse("players:match", args=[table.token])),
        "state": table_entry.result_state(match, mode, table),
        "mode_label": EntryMode(mode).label,
        "disputed_name": match.player(table.disputed_by).name if table.disputed_by else "",
        "seats": [{"seat": seat, "name": match.player(seat).name,
                   "held": bool(table.holder(seat))} for seat in rules.SEATS],
        "alike": control_room.ALIKE_NOTES[table.signed_alike]
        if table_entry.signed_alike_unchecked(table) else "",
    }


@login_required
@require_POST
def link_renew(request, match_pk: int):
    """Revoke the match's players' link and make a new one (the old one then answers 404)."""
    pairing = pairing_for_organiser(request, match_pk)
    try:
        table_entry.link_renew(match=pairing.match, by=request.user,
                               address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return page(request, pairing, error=user_message(error), status=409)
    messages.success(request, _("The old link no longer works; the new one is below."))
    return redirect("matches:entry", match_pk=match_pk)


@login_required
@require_POST
def seat_free(request, match_pk: int, seat: str):
    """Free a seat of the players' link: the next phone to open the link may take it."""
    if seat not in rules.SEATS:
        raise Http404
    pairing = pairing_for_organiser(request, match_pk)
    try:
        table_entry.seat_free(match=pairing.match, seat=seat, by=request.user,
                              address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return page(request, pairing, error=user_message(error), status=409)
    messages.success(request, _("The seat of %(name)s is free: the next phone to open the "
                                "link may take it.") % {"name": pairing.match.player(seat).name})
    return redirect("matches:entry", match_pk=match_pk)


@login_required
@require_POST
def result_approve(request, match_pk: int):
    """Approve the match's result without (all) the players' signatures: it is final."""
    pairing = pairing_for_organiser(request, match_pk)
    try:
        table_entry.result_approve(match=pairing.match, by=request.user,
                                   address=request.META.get("REMOTE_ADDR"))
    except TableError as error:
        return page(request, pairing, error=user_message(error), status=409)
    messages.success(request, _("The result is approved and final."))
    return redirect("matches:entry", match_pk=match_pk)


def _deal_saved(request, pairing, deal, sheet: MatchSheet):
    """The htmx answer to a deal saved, when the page that sent it shows all the deals
    before it: the score and the form for the next deal (or the match's result) replace
    `#match-head` (the chances line kept as the page has it); the new row (the last of
    `sheet`, the match's sheet with the new deal) is appended to the deal list (deal 1: the
    list, "no deals yet" until then, replaced with its undo form), its change put first in
    the history (whose list the page draws even when empty), and the undo form and the
    running-score picture replaced, out of band; the deal that ends the match also replaces
    the players' section, when they enter (`_players_context`: what the result waits for).
    What is already on the page is not sent again, and nothing is read while the match goes
    on: no query."""
    context = _head_context(request, pairing, deal.match, sheet.house_rules, sheet.next_dealer,
                            sheet.next_number, shown=_digest(sheet.scores), keep_chances=True)
    context.update({
        "row": sheet.rows[-1], "last_deal": sheet.rows[-1], "rows": sheet.rows,
        "notice": _("Deal %(number)s saved.") % {"number": deal.number},
        "entered": deal_entered(deal.match, deal, request.user),  # first in the history
        "players": _players_context(request, deal.match, pairing.round.tournament.entry_mode)
        if deal.match.is_over else None,
    })
    follow_match(request, deal.match)  # the answer names the version it shows
    response = render(request, DEAL_SAVED, context)
    return reswap(retarget(response, "#match-head"), "outerHTML")


def _head_context(request, pairing, match, house_rules, next_dealer: str, next_number: int, *,
                  shown: str, form=None, correction=None, confirm=None,
                  final_form=None, keep_chances: bool = False) -> dict:
    """What the score and the entry forms show (`match_head.html`). `shown`: the `_digest` of
    the deals the page lists, which the quick form sends back. `keep_chances`: the answer
    leaves the page's chances line as it is (`match_expected.html`), so the ratings are not
    read. In an event that keeps only
    final scores the organiser gets the final-score form instead of the deal forms
    (`final_form`: a bound one to show again); in the others, a match without deals offers
    the finished-scorecard grid (`views.scorecard`)."""
    organiser = pairing.organiser
    tournament = pairing.round.tournament
    quick_form = details_form = None
    final_only = tournament.final_score_only
    if final_only and organiser and not match.is_over and confirm is None:
        final_form = final_form or FinalScoreForm()
    elif organiser and not match.is_over and correction is None and confirm is None:
        initial = {"number": next_number}
        # The next deal's form is built only if drawn: its fields come from the fragment
        # cache (match_form.html) for every deal of a match but the first.
        quick_form = form if isinstance(form, DealQuickForm) else SimpleLazyObject(
            lambda: DealQuickForm(match=match, initial=initial))
        if isinstance(form, DealDetailsForm):
            details_form = form
        elif not request.htmx:  # htmx answers load it when opened (deal_details_form)
            details_form = DealDetailsForm(match=match, initial=initial)
    return {
        "pairing": pairing, "tournament": pairing.round.tournament, "round": pairing.round,
        "match": match, "house_rules": house_rules, "organiser": organiser,
        "next_number": next_number, "next_dealer": next_dealer,
        "next_dealer_name": match.player(next_dealer).name,
        "winner_name": match.player(match.winner).name if match.winner else "",
        "forfeited": match.status == Match.Status.FORFEITED,
        "unplayed": match.status == Match.Status.UNPLAYED,
        "closed": match.is_closed,  # by a withdrawal: no undo, no correction
        # A finished match whose result can no longer reopen (a round robin's withdrawn
        # player): no undo; a correction that keeps the winner is still possible.
        "final": organiser and match.status == Match.Status.FINISHED
        and _result_is_final(match),
        "quick_form": quick_form, "details_form": details_form,
        "quick_entry": quick_form is not None, "quick_bound": isinstance(form, DealQuickForm),
        "draws_allowed": draws_allowed(house_rules),
        "details_open": isinstance(form, DealDetailsForm),
        "correction": correction, "confirm": confirm, "shown": shown,
        "chances": None if keep_chances else selectors.match_chances(match),
        "keep_chances": keep_chances,
        "final_only": final_only, "final_form": final_form if not match.is_over else None,
        "scorecard_offered": scorecard_offered(tournament, match, organiser, next_number - 1),
    }


def _result_is_final(match: Match) -> bool:
    event_format = registry.for_match(match)
    return event_format is not None and event_format.result_is_final(match)


def _digest(scores: list[rules.DealScore]) -> str:
    """The fingerprint of a deal list as the page shows it: each deal's winner, game points
    and reason, in order, and the language it is written in."""
    shown = [(score.winner, score.game_points, score.reason) for score in scores]
    return fingerprint(get_language(), shown)
