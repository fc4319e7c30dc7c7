"""The players' passes: the organiser's pages (`passes:player`: make, show, renew or revoke a
player's pass; `passes:slips`: the club's slips to print) and the player's own page
(`passes:page`, `/pass/<token>/`).

A token that opens no pass -- mistyped, renewed, revoked -- answers 404 with the same page
whatever the reason (no hint whether the player exists), and counts toward the wrong-link limit
of the match links (`tableside.link_guesses`: 30 from one address in 10 minutes, then 429); a
valid pass always opens. The pass page is personal: it follows its own stream
(`live:pass_stream`), which says `changed` and the page fetches its part again (never a pushed
part), and `gone` once the pass is renewed or revoked.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.models import Club, Player
from core.messages import user_message
from events.access import can_organise_club
from events.models import Tournament
from live.pages import follow_pass, part_or_page
from passes import check_in, selectors, services
from passes.errors import PassError
from passes.models import PlayerPass
from printing.pdf import render_pdf
from printing.scorecard import qr_image
from scoring.models import Deal
from tableside import link_guesses, table_entry
from tableside.models import MatchTable

PAGE = "passes/pass.html"
LIVE_PART = "passes/live_pass.html"
GONE_PAGE = "passes/gone.html"
ORGANISER_PAGE = "passes/player_pass.html"
SLIPS_PAGE = "passes/slips.html"
SLIPS_PDF = "passes/print_slips.html"


def club_language(request, club_id: int | None) -> str:
    """The language of a player's pages for club `club_id`: the visitor's chosen one (the
    language cookie, as on the match links), else that of the newest event of the club under
    way (`Tournament.language`), else the site's."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in dict(settings.LANGUAGES):
        return chosen
    language = (Tournament.objects.filter(club_id=club_id,
                                          status=Tournament.Status.RUNNING)
                .order_by("-date", "-pk").values_list("language", flat=True).first())
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def pass_language(request, player) -> str:
    """The pass pages' language (`club_language` of the player's club)."""
    return club_language(request, player.club_id)


def with_pass(view):
    """Resolve the URL's token to its valid pass (argument `player_pass`); any other token
    answers 404 (counted) or 429 (too many from this address), the same page for a wrong, a
    renewed and a revoked pass."""
    def wrapped(request, token: str, *args, **kwargs):
        player_pass = services.pass_for_token(token)
        if player_pass is None:
            status = link_guesses.wrong_link(request)
            return render(request, GONE_PAGE, {"too_many": status == 429}, status=status)
        language = pass_language(request, player_pass.player)
        with translation.override(language):
            request.LANGUAGE_CODE = language
            response = view(request, player_pass, token, *args, **kwargs)
        response.headers["Content-Language"] = language
        response.headers["Cache-Control"] = "no-store"
        return response
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@require_safe
@with_pass
def pass_page(request, player_pass, token: str):
    """The player's pass: their name and, for each running event of their club they are in,
    where they stand now (`passes.selectors.pass_events`). Live: it follows the pass's
    stream and fetches its part again on `changed`."""
    return _page(request, player_pass, token)


def _page(request, player_pass, token: str, *, error: str = "", status: int = 200):
    player = player_pass.player
    follow_pass(request, token, player_pass, selectors.followed_events(player))
    lines = selectors.pass_events(player)
    _undo_requests(lines)
    context = {"player": player, "token": token, "lines": lines, "error": error,
               "live_url": reverse("passes:page", args=[token])}
    return render(request, part_or_page(request, PAGE, LIVE_PART), context, status=status)


def _undo_requests(lines) -> None:
    """Mark each line whose last match has an undo its opponent asked for, waiting for this
    player's consent (`tableside.table_entry.undo_request`): one query, and one per request."""
    last = {line.last.match_id: line for line in lines if line.last is not None}
    tables = MatchTable.objects.filter(match_id__in=last).exclude(undo_asked_by="")
    for table in tables:
        line = last[table.match_id]
        deals = Deal.objects.filter(match_id=table.match_id).count()
        waiting = table_entry.undo_request(table, deals or None)
        if waiting is not None and waiting[0] != line.last_seat:
            line.undo_asked = (line.last.match.player(waiting[0]).name, waiting[1])


@require_POST
@with_pass
def arrive(request, player_pass, token: str, pk: int):
    """"I'm here" at club night `pk` of the pass's club (`services.arrival_record`); 404 for
    an event of another club, 409 with the sentence for one that is no club night or is over."""
    tournament = get_object_or_404(Tournament, pk=pk, club_id=player_pass.player.club_id)
    try:
        services.arrival_record(tournament=tournament, player=player_pass.player)
    except PassError as error:
        return _page(request, player_pass, token, error=user_message(error), status=409)
    return redirect("passes:page", token=token)


# --------------------------------------------------------------------------------------------
# The organiser's pages
# --------------------------------------------------------------------------------------------


def _player_for_organiser(request, player_pk: int) -> Player:
    """The player (404 unless the visitor may see them), if the visitor organises their club
    (403 otherwise; a player of no club has no pass: 403 too)."""
    player = get_object_or_404(Player.objects.visible_to(request.user).select_related("club"),
                               pk=player_pk)
    if player.club is None or not can_organise_club(request.user, player.club):
        raise PermissionDenied
    return player


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_pass(request, player_pk: int):
    """A player's pass for their club's organisers: the QR code, the address and the personal
    code, and the buttons to make, renew or revoke it (posted `action`: `make`, `renew`,
    `revoke`)."""
    player = _player_for_organiser(request, player_pk)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "make":
            services.pass_make(player)
            messages.success(request, _("The pass of %(name)s is made.") % {"name": player.name})
        elif action == "renew":
            services.pass_renew(player)
            messages.success(request, _("The pass of %(name)s is renewed: the old one no longer "
                                        "opens. Print the new slip.") % {"name": player.name})
        elif action == "revoke":
            services.pass_revoke(player)
            messages.success(request, _("The pass of %(name)s is revoked.")
                             % {"name": player.name})
        else:
            return render(request, ORGANISER_PAGE, _pass_context(player), status=422)
        return redirect("passes:player", player_pk=player.pk)
    return render(request, ORGANISER_PAGE, _pass_context(player))


def _pass_context(player: Player) -> dict:
    player_pass = PlayerPass.objects.filter(player=player).first()
    context = {"player": player, "player_pass": player_pass}
    if player_pass is not None and player_pass.is_valid:
        context["slip"] = _slip(player, player_pass)
    return context


def _slip(player: Player, player_pass) -> dict:
    url = services.pass_url(player_pass)
    return {"player": player, "url": url, "qr": qr_image(url),
            "code": services.code_of(player_pass)}


@login_required
@require_safe
def slips(request, club_pk: int):
    """The club's slips to print (A4): one per player with a pass that opens (name, QR code,
    personal code); the players without one are listed apart, for the organiser, with the
    club's join code for self check-in (`check_in.join_code_of`) and its renewal."""
    club = get_object_or_404(Club, pk=club_pk)
    if not can_organise_club(request.user, club):
        raise PermissionDenied
    rows = services.passes_of_club(club)
    cards = [_slip(player, p) for player, p in rows if p is not None and p.is_valid]
    without = [player for player, p in rows if p is None or not p.is_valid]
    return render(request, SLIPS_PAGE, {"club": club, "cards": cards, "without": without,
                                        "join_code": check_in.join_code_of(club)})


@login_required
@require_safe
def slips_pdf(request, club_pk: int):
    """The club's slips as an A4 PDF (WeasyPrint, `printing.pdf`), built at once: the same
    slips as `slips`, three across and four down."""
    club = get_object_or_404(Club, pk=club_pk)
    if not can_organise_club(request.user, club):
        raise PermissionDenied
    cards = [_slip(player, p) for player, p in services.passes_of_club(club)
             if p is not None and p.is_valid]
    pdf = render_pdf([(SLIPS_PDF, {"club": club, "cards": cards,
                                   "language": translation.get_language()})])
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="passes-club-{club.pk}.pdf"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def slips_make(request, club_pk: int):
    """Make a pass for every player of the club who has none (`services.pass_make`)."""
    club = get_object_or_404(Club, pk=club_pk)
    if not can_organise_club(request.user, club):
        raise PermissionDenied
    made = 0
    for player, existing in services.passes_of_club(club):
        if existing is None:
            services.pass_make(player)
            made += 1
    messages.success(request, _("Passes made: %(count)s.") % {"count": made})
    return redirect("passes:slips", club_pk=club.pk)
