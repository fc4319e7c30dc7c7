"""The pictures of `core.charts` in templates: each tag turns the page's rows into
plain values, gives the labels in the current language and returns the escaped SVG.

    {% load charts %}
    {% rating_history_chart history %}    RatingHistory rows (selectors.rating_points)
    {% standings_race_chart race %}       RaceRow list (selectors.standings_race)
    {% match_race_chart match rows %}     a Match and its match-sheet rows in order
    {% match_race_chart match rows compact=True %}  the same as a low strip (printed cards)
"""

from collections.abc import Iterable, Sequence

from django import template
from django.core.cache import cache
from django.utils.dateformat import format as format_date
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from core import charts
from core.fingerprints import digest

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
    """Each player's place after every round (`selectors.RaceRow` list); empty for none.

    The SVG is kept in Django's cache under a digest of what it shows (the names and places
    in order, the labels in the current language), so a new result that moves no place shown
    draws nothing and writes nothing: a 100-player double round robin's chart is 256 KB, 5 ms
    to draw and 3 more to write into the file cache."""
    if not race:
        return mark_safe("")
    labels = {"title": gettext("Place after each round"), "x_label": gettext("round"),
              "y_label": gettext("place")}
    shown = [(row.entry.player.name, row.places) for row in race]
    key = f"standings-race-chart:{digest((labels, shown)).hex()}"
    svg = cache.get(key)
    if svg is None:
        svg = charts.standings_race([charts.RaceLine(*line) for line in shown], **labels)
        cache.set(key, svg, RACE_CHART_SECONDS)
    return mark_safe(svg)  # noqa: S308 (the pure module escapes all text)


RACE_CHART_SECONDS = 3600
"""How long a drawn race chart stays in the cache (an hour, as the page's other fragments:
after a release that draws it otherwise, an old drawing is shown for an hour at most)."""


@register.simple_tag
def match_race_chart(match, rows: Iterable, compact: bool = False) -> SafeString:
    """The running score of `match` (a `scoring.models.Match` with its players) over `rows`
    (the rows of its `match_sheet`, in number order): a step line per player up to the game
    target. Each step is what the running score gained, so a draw carried over (a house rule)
    shows where it was scored. `compact`: the low strip of a printed scorecard
    (`charts.match_race_strip`)."""
    points, before = [], (0, 0)
    for row in rows:
        after = (row.game_points_a, row.game_points_b)
        points.append((after[0] - before[0], after[1] - before[1]))
        before = after
    if compact:
        return mark_safe(charts.match_race_strip(  # noqa: S308 (the pure module escapes all text)
            points, match.house_rules().game_target, name_a=match.player_a.name,
            name_b=match.player_b.name, title=gettext("Running score"),
        ))
    return mark_safe(charts.match_race(  # noqa: S308 (the pure module escapes all text)
        points, match.house_rules().game_target,
        name_a=match.player_a.name, name_b=match.player_b.name,
        title=gettext("Running score"), x_label=gettext("deal"),
        y_label=gettext("game points"),
    ))
