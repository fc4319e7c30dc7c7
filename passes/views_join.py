"""Self check-in (`passes.check_in`): the join page `/join/<code>/` (the club's players by name;
a tap asks for that player's pass) and the waiting page `/join/claim/` ("Ask the organiser to
confirm"), which moves on to the pass by itself once the organiser approves in the control
room; the organiser renews the club's join code from the club's passes page.

Why a cookie for the claim's secret, not the address: the waiting page's address is then no
secret at all (nothing to mask in the logs, nothing in the phone's history or in a screenshot
of the address bar that would open the pass), and only the browser that tapped the name can
follow the claim to the pass. The cookie (`check_in.CLAIM_COOKIE`) is HttpOnly, SameSite=Lax,
Secure over HTTPS, limited to `/join/` and to the claim's life. The pass is handed over once
(`check_in.claim_hand_over`): the answer that leads the phone to `/pass/<token>/` also deletes
the cookie, and the claim opens nothing more, nor after `check_in.HANDOVER_SECONDS` unfollowed.

A join code or claim that opens nothing (mistyped, renewed, expired, handed over) answers 404
with the same page, counted toward the wrong-link limit (`tableside.link_guesses`), or 429
after too many from this address. A refusal (too many claims waiting) is a 4xx with its
sentence, nothing written.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.models import Club
from core.messages import user_message
from events.access import can_organise_club
from live.pages import asks_for_part, follow_claim, part_or_page
from passes import check_in, services
from passes.errors import PassError
from passes.models import CheckInClaim
from passes.views import club_language
from tableside import link_guesses

JOIN_PAGE = "passes/join.html"
CLAIM_PAGE = "passes/claim.html"
CLAIM_PART = "passes/live_claim.html"
NOT_FOUND_PAGE = "passes/join_gone.html"
STATUS = {"claim_player_missing": 422, "claims_from_address": 429, "claims_of_player": 409}


def _not_found(request) -> HttpResponse:
    """404 for a code or claim that opens nothing (counted), or 429 after too many."""
    status = link_guesses.wrong_link(request)
    response = render(request, NOT_FOUND_PAGE, {"too_many": status == 429}, status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _in_language(request, club_id: int, draw) -> HttpResponse:
    language = club_language(request, club_id)
    with translation.override(language):
        request.LANGUAGE_CODE = language
        response = draw()
    response.headers["Content-Language"] = language
    response.headers["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def join(request, code: str):
    """The club's players by name, each a button (posted `player`: the player's id) that
    makes a claim (`check_in.claim_make`) and leads to the waiting page, the claim's secret
    in the cookie. 404 (counted) for a code that is no club's; 422, 409 or 429 with the
    sentence for a refused claim."""
    club = check_in.club_for_code(code)
    if club is None:
        return _not_found(request)
    return _in_language(request, club.pk, lambda: _join(request, club, code))


def _join(request, club: Club, code: str) -> HttpResponse:
    error, status = "", 200
    if request.method == "POST":
        held = check_in.claim_for_secret(request.COOKIES.get(check_in.CLAIM_COOKIE))
        try:
            _claim, secret = check_in.claim_make(
                club=club, player_pk=request.POST.get("player"),
                address=link_guesses.client_address(request),
                held=held if held is not None and held.club_id == club.pk else None)
        except PassError as refusal:
            error, status = user_message(refusal), STATUS[refusal.code]
        else:
            response = redirect("passes:claim")
            response.set_cookie(check_in.CLAIM_COOKIE, secret, max_age=check_in.CLAIM_SECONDS,
                                path=check_in.CLAIM_COOKIE_PATH, secure=request.is_secure(),
                                httponly=True, samesite="Lax")
            return response
    players = [player for player, _pass in services.passes_of_club(club)]
    return render(request, JOIN_PAGE, {"club": club, "code": code, "players": players,
                                       "error": error}, status=status)


@require_safe
def claim(request):
    """The waiting page of the claim this phone holds (the cookie): the player's name, the
    number the organiser sees beside it, and "Ask the organiser to confirm"; once refused, says
    so. Live: it follows the claim's stream (`live:claim_stream`), and once approved its next
    fetch leads to the pass (302, or `HX-Redirect` for the live region's fetch), once. 404
    (counted) without an open claim."""
    held = check_in.claim_for_secret(request.COOKIES.get(check_in.CLAIM_COOKIE))
    if held is None:
        return _not_found(request)
    return _in_language(request, held.club_id, lambda: _claim(request, held))


def _claim(request, held: CheckInClaim) -> HttpResponse:
    if held.state == CheckInClaim.State.APPROVED:
        token = check_in.claim_hand_over(held, link_guesses.client_address(request))
        if token is not None:
            url = reverse("passes:page", args=[token])
            if asks_for_part(request):
                response = HttpResponse("")
                response.headers["HX-Redirect"] = url
            else:
                response = redirect(url)
            response.delete_cookie(check_in.CLAIM_COOKIE, path=check_in.CLAIM_COOKIE_PATH)
            return response
    follow_claim(request, held)
    context = {"claim": held, "player": held.player, "club": held.club,
               "has_pass": services.valid_pass_of(held.player_id) is not None,
               "code": check_in.join_code_of(held.club),
               "stuck": held.state == CheckInClaim.State.APPROVED}
    return render(request, part_or_page(request, CLAIM_PAGE, CLAIM_PART), context)


@login_required
@require_POST
def join_code_renew(request, club_pk: int):
    """A new join code for the club (its organisers only: 403): the old one opens nothing."""
    club = get_object_or_404(Club, pk=club_pk)
    if not can_organise_club(request.user, club):
        raise PermissionDenied
    code = check_in.join_code_renew(club)
    messages.success(request, _("The new join code is %(code)s; the old one no longer opens.")
                     % {"code": code})
    return redirect("passes:slips", club_pk=club.pk)
