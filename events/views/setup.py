"""Organiser pages that set a tournament up: details and house rules, players, draw, start."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from club import messages as club_messages
from club.services import player_for_name, players_like
from core.messages import user_message
from events import registry, services
from events.access import tournament_for_organiser
from events.errors import TournamentError
from events.forms import (
    PRESET_LABELS,
    DrawNumbersForm,
    PlayerAddForm,
    SeedFromStandingsForm,
    TournamentForm,
    preset_initial,
)
from events.models import Tournament
from formats.knockout import services as knockout
from scoring.models import Deal, HouseRulesFields

UNPROCESSABLE, CONFLICT = 422, 409


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
    return render(request, "events/tournament_form.html", {
        "form": form, "tournament": tournament, "presets": PRESET_LABELS,
    }, status=status)


@login_required
def tournament_create(request):
    if request.method != "POST":
        return _render_form(request, TournamentForm(user=request.user))
    if "apply_preset" in request.POST:
        form = TournamentForm(_with_preset(request.POST, request.POST["apply_preset"]),
                              user=request.user)
        return _render_form(request, form)
    form = TournamentForm(request.POST, user=request.user)
    if not form.is_valid():
        return _render_form(request, form, status=UNPROCESSABLE)
    with transaction.atomic():
        tournament = form.save()
        tournament.organisers.add(request.user)
    messages.success(request, _("Tournament created. Now add the players."))
    return redirect("events:players", pk=tournament.pk)


def _rules_frozen(tournament: Tournament) -> bool:
    return Deal.objects.filter(match__pairing__round__tournament=tournament).exists()


@login_required
def tournament_edit(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    frozen = _rules_frozen(tournament)
    if request.method != "POST":
        return _render_form(request, TournamentForm(instance=tournament, rules_frozen=frozen,
                                                   user=request.user),
                            tournament)
    data = request.POST
    if "apply_preset" in data and not frozen:
        form = TournamentForm(_with_preset(data, data["apply_preset"]), instance=tournament,
                              user=request.user)
        return _render_form(request, form, tournament)
    form = TournamentForm(data, instance=tournament, rules_frozen=frozen, user=request.user)
    if not form.is_valid():
        return _render_form(request, form, tournament, status=UNPROCESSABLE)
    rules_changed = any(name in form.changed_data for name in HouseRulesFields.HOUSE_RULE_FIELDS)
    try:
        with transaction.atomic():
            form.save()
            if rules_changed:
                services.house_rules_update(tournament=tournament)
    except TournamentError as error:
        form.add_error(None, user_message(error))
        return _render_form(request, form, tournament, status=409)
    messages.success(request, _("Saved."))
    return redirect(tournament)


@login_required
def players(request, pk: int, form=None, status=200, draw_form=None, seed_form=None):
    tournament = tournament_for_organiser(request, pk)
    return _players_page(request, tournament, form=form, status=status, draw_form=draw_form,
                         seed_form=seed_form)


def _players_page(request, tournament, *, form=None, status=200, draw_form=None,
                  seed_form=None, like=None):
    """The players page: entries with their draw numbers (seeds, in a knockout), the forms;
    `like`, the question about a typed name that may mean a player of the register
    (`_like_question`)."""
    entries = list(tournament.entries.select_related("player").order_by("number"))
    if registry.for_tournament(tournament).seeded_from_standings and seed_form is None:
        seed_form = SeedFromStandingsForm(user=request.user, tournament=tournament)
    return render(request, "events/players.html", {
        "tournament": tournament,
        "entries": entries,
        "add_form": form or PlayerAddForm(tournament=tournament, user=request.user),
        "draw_form": draw_form or DrawNumbersForm(entries=entries),
        "seed_form": seed_form,
        "seeded_from": tournament.seeded_from,
        "like": like,
    }, status=status)


def _like_question(tournament, typed: str, players) -> dict:
    """What the players page asks when `typed` may mean one of `players` of the register:
    the question, a button per player not yet in the event ("Use Иван Петров"; a player in
    it already is said to be), and the button that adds `typed` as a new player."""
    entered = set(tournament.entries.filter(player__in=players)
                  .values_list("player_id", flat=True))
    return {
        "typed": typed,
        "question": club_messages.like_question(typed, players, club=tournament.club),
        "choices": [{
            "player": player,
            "use": club_messages.use_player(player) if player.pk not in entered else "",
            "entered": user_message(TournamentError("already_entered", name=player.name))
            if player.pk in entered else "",
        } for player in players],
        "add_new": club_messages.add_new_player(typed),
    }


def _refused(request, tournament, error: TournamentError):
    messages.error(request, user_message(error))
    return redirect("events:players", pk=tournament.pk)


@login_required
@require_POST
def player_add(request, pk: int):
    """Add a player from the register, or by a new name: the register's player of exactly
    that name, or a new one (`player_for_name`). A new name that may mean another player of
    the register ("иван петров" for Иван Петров, `players_like`) is asked about first (409,
    nothing written): use that player, or add the name as it is (`insist`)."""
    tournament = tournament_for_organiser(request, pk)
    form = PlayerAddForm(request.POST, tournament=tournament, user=request.user)
    if not form.is_valid():
        return players(request, pk, form=form, status=UNPROCESSABLE)
    typed = form.new_name_to_ask_about()
    like = (players_like([typed], club=tournament.club, user=request.user).get(typed)
            if typed else None)
    if like:  # ask first: nothing written until the organiser answers
        return _players_page(request, tournament, form=form, status=CONFLICT,
                             like=_like_question(tournament, typed, like))
    try:
        with transaction.atomic():
            player = form.cleaned_data["player"] or player_for_name(
                name=form.cleaned_data["new_name"], club=tournament.club
            )
            services.entry_add(tournament=tournament, player=player)
    except TournamentError as error:
        messages.error(request, user_message(error))
        return redirect("events:players", pk=pk)
    messages.success(request, _("Added %(name)s.") % {"name": player.name})
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def player_remove(request, pk: int, entry_pk: int):
    tournament = tournament_for_organiser(request, pk)
    entry = get_object_or_404(tournament.entries, pk=entry_pk)
    try:
        services.entry_remove(entry=entry)
    except TournamentError as error:
        return _refused(request, tournament, error)
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def player_withdraw(request, pk: int, entry_pk: int):
    tournament = tournament_for_organiser(request, pk)
    entry = get_object_or_404(tournament.entries, pk=entry_pk)
    event_format = registry.for_tournament(tournament)
    back = event_format.main_page
    try:
        event_format.withdraw(entry=entry, by=request.user)
    except TournamentError as error:  # finished, not started, already withdrawn
        context = {"tournament": tournament, "error": user_message(error),
                   "back": back, "can_organise": True}
        return render(request, "events/withdraw_refused.html", context, status=409)
    messages.success(request, _("%(name)s has withdrawn.") % {"name": entry.player.name})
    return redirect(back, pk=pk)


@login_required
@require_POST
def draw_numbers(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    entries = list(tournament.entries.select_related("player").order_by("number"))
    form = DrawNumbersForm(request.POST, entries=entries)
    if not form.is_valid():
        return _players_page(request, tournament, draw_form=form, status=UNPROCESSABLE)
    event_format = registry.for_tournament(tournament)
    try:
        event_format.set_order(order=form.order())
    except TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, event_format.order_saved)
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def draw_by_lot(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    event_format = registry.for_tournament(tournament)
    try:
        event_format.draw_by_lot()
    except TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, event_format.order_drawn)
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def seed_by_rating(request, pk: int):
    """A draft knockout's seeds by the players' ratings (`knockout.seeds_by_rating`)."""
    tournament = tournament_for_organiser(request, pk)
    try:
        rated, unrated = knockout.seeds_by_rating(tournament=tournament)
    except TournamentError as error:
        return _refused(request, tournament, error)
    messages.success(request, _(
        "Seeded by rating. Rated players: %(rated)s; without a rating, seeded after them by "
        "name: %(unrated)s."
    ) % {"rated": rated, "unrated": unrated})
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def seed_from_standings(request, pk: int):
    """A draft knockout takes its players and seeds from a finished round robin's standings
    (organisers of both: the form offers only round robins the user organises)."""
    tournament = tournament_for_organiser(request, pk)
    form = SeedFromStandingsForm(request.POST, user=request.user, tournament=tournament)
    if not form.is_valid():
        return _players_page(request, tournament, seed_form=form, status=UNPROCESSABLE)
    source = form.cleaned_data["source"]
    try:
        entries = knockout.seeds_from_standings(
            tournament=tournament, source=source, count=form.cleaned_data["count"]
        )
    except TournamentError as error:
        form.add_error(None, user_message(error))
        status = UNPROCESSABLE if error.code == "bad_seed_count" else 409
        return _players_page(request, tournament, seed_form=form, status=status)
    messages.success(request, _("%(count)s players seeded from the standings of %(name)s.") % {
        "count": len(entries), "name": source.name,
    })
    return redirect("events:players", pk=pk)


@login_required
@require_POST
def tournament_start(request, pk: int):
    """Start the event as its format does (draw the schedule or the bracket). Refused: the
    players page again, with the reason and 409; nothing is written."""
    tournament = tournament_for_organiser(request, pk)
    event_format = registry.for_tournament(tournament)
    try:
        event_format.start()
    except TournamentError as error:
        messages.error(request, user_message(error))
        return _players_page(request, tournament, status=409)
    messages.success(request, event_format.started)
    return redirect(event_format.page_after_start())
