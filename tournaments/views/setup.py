"""Organiser pages that set a tournament up: details and house rules, players, draw, start."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club.models import Player
from scoring.models import Deal, HouseRulesFields
from tournaments import services
from tournaments.access import tournament_for_organiser
from tournaments.forms import (
    PRESET_LABELS,
    DrawNumbersForm,
    PlayerAddForm,
    TournamentForm,
    preset_initial,
)
from tournaments.messages import tournament_error_message
from tournaments.models import Tournament

UNPROCESSABLE = 422


def _with_preset(data, preset: str):
    """The posted data with the house-rule fields replaced by `preset`'s values."""
    data = data.copy()
    for name, value in preset_initial(preset).items():
        if isinstance(value, bool):
            data.pop(name, None)
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    return data


def _render_form(request, form, tournament=None, status=200):
    return render(request, "tournaments/tournament_form.html", {
        "form": form, "tournament": tournament, "presets": PRESET_LABELS,
    }, status=status)


@login_required
def tournament_create(request):
    if request.method != "POST":
        return _render_form(request, TournamentForm())
    if "apply_preset" in request.POST:
        form = TournamentForm(_with_preset(request.POST, request.POST["apply_preset"]))
        return _render_form(request, form)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _render_form(request, form, status=UNPROCESSABLE)
    with transaction.atomic():
        tournament = form.save()
        tournament.organisers.add(request.user)
    messages.success(request, _("Tournament created. Now add the players."))
    return redirect("tournament_players", pk=tournament.pk)


def _rules_frozen(tournament: Tournament) -> bool:
    return Deal.objects.filter(match__pairing__round__tournament=tournament).exists()


@login_required
def tournament_edit(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    frozen = _rules_frozen(tournament)
    if request.method != "POST":
        return _render_form(request, TournamentForm(instance=tournament, rules_frozen=frozen),
                            tournament)
    data = request.POST
    if "apply_preset" in data and not frozen:
        form = TournamentForm(_with_preset(data, data["apply_preset"]), instance=tournament)
        return _render_form(request, form, tournament)
    form = TournamentForm(data, instance=tournament, rules_frozen=frozen)
    if not form.is_valid():
        return _render_form(request, form, tournament, status=UNPROCESSABLE)
    rules_changed = any(name in form.changed_data for name in HouseRulesFields.HOUSE_RULE_FIELDS)
    try:
        with transaction.atomic():
            form.save()
            if rules_changed:
                services.house_rules_update(tournament=tournament)
    except services.TournamentError as error:
        form.add_error(None, tournament_error_message(error))
        return _render_form(request, form, tournament, status=409)
    messages.success(request, _("Saved."))
    return redirect(tournament)


@login_required
def players(request, pk: int, form=None, status=200):
    tournament = tournament_for_organiser(request, pk)
    entries = list(tournament.entries.select_related("player").order_by("number"))
    return render(request, "tournaments/players.html", {
        "tournament": tournament,
        "entries": entries,
        "add_form": form or PlayerAddForm(tournament=tournament),
        "draw_form": DrawNumbersForm(entries=entries),
    }, status=status)


def _refused(request, tournament, error: services.TournamentError):
    messages.error(request, tournament_error_message(error))
    return redirect("tournament_players", pk=tournament.pk)


@login_required
@require_POST
def player_add(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    form = PlayerAddForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return players(request, pk, form=form, status=UNPROCESSABLE)
    try:
        with transaction.atomic():
            player = form.cleaned_data["player"] or Player.objects.get_or_create(
                name=form.cleaned_data["new_name"], club=tournament.club
            )[0]
            services.entry_add(tournament=tournament, player=player)
    except services.TournamentError as error:
        messages.error(request, tournament_error_message(error))
        return redirect("tournament_players", pk=pk)
    messages.success(request, _("%(name)s added.") % {"name": player.name})
    return redirect("tournament_players", pk=pk)


@login_required
@require_POST
def player_remove(request, pk: int, entry_pk: int):
    tournament = tournament_for_organiser(request, pk)
    entry = get_object_or_404(tournament.entries, pk=entry_pk)
    try:
        services.entry_remove(entry=entry)
    except services.TournamentError as error:
        return _refused(request, tournament, error)
    return redirect("tournament_players", pk=pk)


@login_required
@require_POST
def player_withdraw(request, pk: int, entry_pk: int):
    tournament = tournament_for_organiser(request, pk)
    entry = get_object_or_404(tournament.entries, pk=entry_pk)
    try:
        services.entry_withdraw(entry=entry, by=request.user)
    except services.TournamentError as error:
        messages.error(request, tournament_error_message(error))
        return redirect("tournament_standings", pk=pk)
    messages.success(request, _("%(name)s has withdrawn.") % {"name": entry.player.name})
    return redirect("tournament_standings", pk=pk)


@login_required
@require_POST
def draw_numbers(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    entries = list(tournament.entries.select_related("player").order_by("number"))
    form = DrawNumbersForm(request.POST, entries=entries)
    if not form.is_valid():
        return render(request, "tournaments/players.html", {
            "tournament": tournament, "entries": entries,
            "add_form": PlayerAddForm(tournament=tournament), "draw_form": form,
        }, status=UNPROCESSABLE)
    try:
        services.draw_numbers_set(tournament=tournament, order=form.order())
    except services.TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, _("Draw numbers saved."))
    return redirect("tournament_players", pk=pk)


@login_required
@require_POST
def draw_by_lot(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    try:
        services.draw_numbers_by_lot(tournament=tournament)
    except services.TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, _("Draw numbers drawn by lot."))
    return redirect("tournament_players", pk=pk)


@login_required
@require_POST
def tournament_start(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    try:
        services.tournament_start(tournament=tournament)
    except services.TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, _("The tournament has started. Round 1 is ready."))
    return redirect("round_detail", pk=pk, number=1)
