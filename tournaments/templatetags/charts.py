"""The pictures of `tournaments.pure.charts` in templates: each tag turns the page's rows into
plain values, gives the labels in the current language and returns the escaped SVG.

    {% load charts %}
    {% rating_history_chart history %}    RatingHistory rows (selectors.rating_points)
    {% standings_race_chart race %}       RaceRow list (selectors.standings_race)
    {% match_race_chart match deals %}    a Match and its deals in order
"""

from collections.abc import Iterable, Sequence

from django import template
from django.utils.dateformat import format as format_date
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from tournaments.pure import charts

register = template.Library()

CHART_DATE = "d.m.y"
"""Dates under a chart: short, so four fit on a phone."""


@register.simple_tag
def rating_history_chart(history: Sequence) -> SafeString:
    """The player's rating after each event (`RatingHistory` rows with their tournament,
    oldest first); empty for no rows."""
    if not history:
        return mark_safe("")
    points = [
        charts.RatingPoint(
            when=format_date(row.tournament.date, CHART_DATE), event=row.tournament.name,
            rating=row.rating, deviation=row.deviation,
        )
        for row in history
    ]
    return mark_safe(charts.rating_history(  # noqa: S308 (the pure module escapes all text)
        points, title=gettext("Rating after each event"), x_label=gettext("event date"),
        y_label=gettext("rating"),
    ))


@register.simple_tag
def standings_race_chart(race: Sequence) -> SafeString:
    """Each player's place after every round (`selectors.RaceRow` list); empty for none."""
    if not race:
        return mark_safe("")
    lines = [charts.RaceLine(row.entry.player.name, row.places) for row in race]
    return mark_safe(charts.standings_race(  # noqa: S308 (the pure module escapes all text)
        lines, title=gettext("Place after each round"), x_label=gettext("round"),
        y_label=gettext("place"),
    ))


@register.simple_tag
def match_race_chart(match, deals: Iterable) -> SafeString:
    """The running score of `match` (a `scoring.models.Match` with its players) over `deals`
    (its `Deal` rows, in number order): a step line per player up to the game target."""
    points = [
        (deal.game_points if deal.winner == "A" else 0,
         deal.game_points if deal.winner == "B" else 0)
        for deal in deals
    ]
    return mark_safe(charts.match_race(  # noqa: S308 (the pure module escapes all text)
        points, match.house_rules().game_target,
        name_a=match.player_a.name, name_b=match.player_b.name,
        title=gettext("Running score"), x_label=gettext("deal"),
        y_label=gettext("game points"),
    ))
