"""A round: its pairings with tables, the bye, each match's status and score. A knockout's
rounds carry their names (quarterfinal, semifinal, final) and show byes and walkovers. Where
the format pairs round by round (a Swiss), the organiser pairs the next round here, or the
last one again until its first deal."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.messages import user_message
from events import registry, selectors
from events.access import can_organise, tournament_for_organiser, tournament_for_reading
from events.errors import TournamentError
from events.selectors import pairings_of_round
from live.pages import follow_event, part_or_page, shared_part
from tableside import table_entry

CONFLICT = 409


@shared_part("event")
def round_detail(request, pk: int, number: int):
    tournament = tournament_for_reading(request, pk)
    follow_event(request, tournament)
    round_ = get_object_or_404(tournament.rounds, number=number)
    rounds = list(tournament.rounds.all())
    event_format = registry.for_tournament(tournament)
    labels = event_format.round_labels(len(rounds))
    for other in rounds:
        other.label = labels.get(other.number, "")
    round_.label = labels.get(round_.number, "")
    pairings = list(pairings_of_round(round_))
    organiser = can_organise(request.user, tournament)
    page = part_or_page(request, "events/round_detail.html", "events/partials/live_round.html")
    return render(request, page, {
        "tournament": tournament,
        "round": round_,
        "rounds": rounds,
        "pairings": pairings,
        "provisional": table_entry.provisional_matches(
            tournament, [p.match for p in pairings if p.match_id]),
        "can_organise": organiser,
        "can_pair_next": organiser and event_format.can_pair_next(),
        "can_pair_again": organiser and event_format.can_pair_again(round_),
        "next_round": selectors.next_round_number(tournament),
        "groups": event_format.has_groups,
    })


def _round_by_round(request, pk: int):
    tournament = tournament_for_organiser(request, pk)
    event_format = registry.for_tournament(tournament)
    if not event_format.pairs_round_by_round:
        raise Http404("This event's rounds are not paired one at a time.")
    return tournament, event_format


def _refused(request, tournament, error: TournamentError, back: str):
    """The reason, in the user's language, with a way back; 409, nothing written."""
    return render(request, "events/round_refused.html", {
        "tournament": tournament, "error": user_message(error), "back": back,
        "can_organise": True,
    }, status=CONFLICT)


@login_required
@require_POST
def round_pair_next(request, pk: int):
    """Pair the next round (the format's `pair_next_round`) and show it."""
    tournament, event_format = _round_by_round(request, pk)
    try:
        round_ = event_format.pair_next_round(by=request.user)
    except TournamentError as error:
        latest = tournament.rounds.order_by("-number").first()
        back = latest.get_absolute_url() if latest else tournament.get_absolute_url()
        return _refused(request, tournament, error, back)
    messages.success(request, _("Round %(number)s is paired.") % {"number": round_.number})
    return redirect(round_.get_absolute_url())


@login_required
@require_POST
def round_pair_again(request, pk: int, number: int):
    """Pair round `number` again while it has no deal (the format's `pair_again`)."""
    tournament, event_format = _round_by_round(request, pk)
    round_ = get_object_or_404(tournament.rounds, number=number)
    try:
        round_ = event_format.pair_again(number=number, by=request.user)
    except TournamentError as error:
        return _refused(request, tournament, error, round_.get_absolute_url())
    messages.success(request, _("Round %(number)s is paired again.") % {"number": number})
    return redirect(round_.get_absolute_url())
