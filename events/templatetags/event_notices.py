"""What every live page of an event shows above its own content: the organiser's announcement
(`events.announcements`) and the round's clock (`events.round_clock`).

    {% load event_notices %}
    {% announcement_line tournament %}       the announcement, if the event has one
    {% round_clock round tournament %}       the time left of `round`, if it has a clock

Put them inside the page's live region, so that they change with the event's version.
"""

from django import template

from events.round_clock import clock_of

register = template.Library()


@register.inclusion_tag("events/partials/announcement.html")
def announcement_line(tournament) -> dict:
    """The announcement of `tournament` (a `Tournament`, or None: nothing), with its time."""
    return {"tournament": tournament,
            "text": getattr(tournament, "announcement", "") if tournament else ""}


@register.inclusion_tag("events/partials/round_clock.html")
def round_clock(round_, tournament, big: bool = False) -> dict:
    """The clock of `round_` (a `Round`) in `tournament`: its end time for the screen's clock
    (`static/js/round_clock.js`); nothing when the event has no minutes per round, the round
    has not started, or the format pairs on the spot (a club night's one round lasts all
    evening). `big`: the projector's size."""
    clock = None
    if tournament is not None and not tournament.event_format.pairs_on_the_spot:
        clock = clock_of(round_, tournament.round_minutes)
    return {"clock": clock, "round": round_, "big": big}
