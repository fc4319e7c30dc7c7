"""Pictures drawn on the server as SVG: plain data in, an SVG string out (no Django).

Every picture is an inline `<svg>` with a `viewBox` 360 units wide and no fixed size, so the
page's CSS (`svg.chart`: width 100%) scales it to a phone or an A4 page alike; it carries no
script and no `style=` attribute (the site's Content-Security-Policy), only SVG presentation
attributes (`fill=`, `stroke=`, `stroke-dasharray=`). Lines differ by dash pattern and marker
shape as well as by colour, so they survive black-and-white printing.

Text (names, labels, titles) is given by the caller, already translated, and is escaped here:
a player called `<script>` is drawn as the characters `<script>`. Numbers in the output have
at most one decimal (`_num`).

- `match_race`: the running score of a match, a step line per player up to the target.
- `match_race_strip`: the same, low and wide, for a printed scorecard.
- `rating_history`: a player's rating after each event, with the deviation as a band.
- `standings_race`: each player's place after every round of a round robin.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from math import ceil, floor

WIDTH = 360
"""Width of every picture's viewBox, in SVG units."""
FONT = 11
"""Font size of labels, in SVG units (about 11 px on a 390 px phone)."""
SMALL = 10
INK = "#222"
GRID = "#ccc"
SERIES_COLOURS = ("#1f4e9c", "#b8430f", "#2e7d32", "#6a1b9a", "#00838f", "#8d6e00")
"""Dark colours of differing lightness: one per line, repeating."""
SERIES_DASHES = ("", "6 3", "2 2", "8 3 2 3")
"""Dash patterns ("" for solid): a line's second way of being told apart."""
MARKERS = ("circle", "square", "triangle", "diamond", "cross")
"""Marker shapes at the data points: the third way."""
NAME_CHARACTERS = 16
"""Names longer than this are cut (with "…") where they label a line."""


def _num(value: float) -> str:
    """`value` with at most one decimal and no trailing zero: 148.36 → "148.4", 40.0 → "40"."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _text(value: object) -> str:
    """`value` as text safe inside an SVG element or a quoted attribute."""
    return escape(str(value), quote=True)


def _short(name: str, limit: int = NAME_CHARACTERS) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _svg(height: float, title: str, description: str, body: list[str]) -> str:
    """The outer `<svg>`: accessible name (`<title>`), description, and the drawing."""
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {_num(height)}" '
        f'xmlns="http://www.w3.org/2000/svg" role="img" '
        f'font-family="sans-serif" font-size="{FONT}" fill="{INK}">'
        f"<title>{_text(title)}</title><desc>{_text(description)}</desc>"
        + "".join(body)
        + "</svg>"
    )


def _marker(shape: str, x: float, y: float, colour: str, tip: str = "") -> str:
    """A 7-unit marker of `shape` centred on (x, y); `tip` becomes its hover title."""
    tip_tag = f"<title>{_text(tip)}</title>" if tip else ""
    paint = f'fill="{colour}" stroke="{colour}"'
    if shape == "circle":
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="3.5" {paint}>{tip_tag}</circle>'
    if shape == "square":
        return (f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" '
                f'fill="#fff" stroke="{colour}" stroke-width="1.5">{tip_tag}</rect>')
    if shape == "triangle":
        points = [(x, y - 4), (x + 4, y + 3), (x - 4, y + 3)]
    elif shape == "diamond":
        points = [(x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)]
    else:  # cross
        return (f'<path d="M{_num(x - 3)} {_num(y - 3)}L{_num(x + 3)} {_num(y + 3)}'
                f'M{_num(x - 3)} {_num(y + 3)}L{_num(x + 3)} {_num(y - 3)}" '
                f'stroke="{colour}" stroke-width="1.8" fill="none">{tip_tag}</path>')
    return f'<polygon points="{_points(points)}" {paint}>{tip_tag}</polygon>'


def _polyline(points: Sequence[tuple[float, float]] | str, colour: str, dash: str,
              width: float = 2) -> str:
    """A line through `points`, or through the points of `points` already written as text
    (`_points`)."""
    dash_attribute = f' stroke-dasharray="{dash}"' if dash else ""
    text = points if isinstance(points, str) else _points(points)
    return (f'<polyline points="{text}" fill="none" stroke="{colour}" '
            f'stroke-width="{_num(width)}" stroke-linejoin="round"{dash_attribute}/>')


def _label(x: float, y: float, text: str, anchor: str = "middle", size: int = FONT,
           extra: str = "") -> str:
    return (f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}" font-size="{size}"'
            f'{extra}>{_text(text)}</text>')


def _y_axis_label(x: float, y: float, text: str) -> str:
    """A vertical axis title, read bottom to top, centred on (x, y)."""
    return _label(0, 0, text, extra=f' transform="translate({_num(x)} {_num(y)}) rotate(-90)"')


def _every(count: int, most: int) -> int:
    """Label every n-th of `count` ticks so that at most `most` carry a label."""
    return max(1, ceil(count / most))


# --- The running score of a match -----------------------------------------------------------

RACE_LEFT, RACE_RIGHT, RACE_TOP, RACE_BOTTOM = 40, 340, 32, 192
"""The plot area of `match_race`: x 40..340, y 32 (the highest score) .. 192 (nought)."""
RACE_HEIGHT = 236


def _running_totals(
    deals: Sequence[tuple[int, int]], target: int
) -> tuple[list[int], list[int], int]:
    """Each player's running score in game points before the first deal and after each one,
    and the top of the scale: the target, or the highest score if a player went past it.
    Raises `ValueError` for a target under 1 or negative game points."""
    if target < 1:
        raise ValueError(f"The game target must be at least 1, not {target}.")
    if any(a < 0 or b < 0 for a, b in deals):
        raise ValueError("Game points of a deal cannot be negative.")
    totals_a, totals_b = [0], [0]
    for a, b in deals:
        totals_a.append(totals_a[-1] + a)
        totals_b.append(totals_b[-1] + b)
    return totals_a, totals_b, max(target, totals_a[-1], totals_b[-1])


def match_race(
    deals: Sequence[tuple[int, int]], target: int, *, name_a: str, name_b: str,
    title: str, x_label: str, y_label: str,
) -> str:
    """The running score of a match as two step lines rising to the target.

    `deals`: each deal's game points as (player A, player B), in play order (0..3 each; a
    drawn deal is (0, 0)). `target`: the match's game target in game points. Names and labels
    are shown as given (translated by the caller) and escaped.

    Scale: x = the deal number, 0 (the start) at x 40 and the last deal at x 340, evenly
    spaced; y = game points, 0 at y 192 and `top` at y 32, where `top` is the target or the
    highest score if a player went past it. A's line is solid with round markers, B's dashed
    with square ones; the target is a thin dashed line across. Each line starts at (40, 192)
    and for each deal runs across to the deal's x, then up to the new score if it changed.

    Raises `ValueError` for a target under 1 or negative game points.
    """
    totals_a, totals_b, top = _running_totals(deals, target)
    count = max(len(deals), 1)

    def x(deal: int) -> float:
        return RACE_LEFT + deal * (RACE_RIGHT - RACE_LEFT) / count

    def y(points: int) -> float:
        return RACE_BOTTOM - points * (RACE_BOTTOM - RACE_TOP) / top

    body = []
    for tick in range(0, top + 1, 5):
        if tick and abs(tick - target) < 2:
            continue  # the target's own label stands there
        body.append(f'<line x1="{RACE_LEFT}" y1="{_num(y(tick))}" x2="{RACE_RIGHT}" '
                    f'y2="{_num(y(tick))}" stroke="{GRID}" stroke-width="0.5"/>')
        body.append(_label(RACE_LEFT - 6, y(tick) + 4, str(tick), "end", SMALL))
    body.append(f'<line x1="{RACE_LEFT}" y1="{_num(y(target))}" x2="{RACE_RIGHT}" '
                f'y2="{_num(y(target))}" stroke="{INK}" stroke-width="1" '
                f'stroke-dasharray="4 3"/>')
    body.append(_label(RACE_LEFT - 6, y(target) + 4, str(target), "end", SMALL,
                       ' font-weight="bold"'))
    step = _every(len(deals), 12)
    for deal in range(1, len(deals) + 1):
        if deal % step == 0 or deal == len(deals):
            body.append(_label(x(deal), RACE_BOTTOM + 14, str(deal), size=SMALL))
    body.append(f'<line x1="{RACE_LEFT}" y1="{RACE_BOTTOM}" x2="{RACE_RIGHT}" '
                f'y2="{RACE_BOTTOM}" stroke="{INK}" stroke-width="1"/>')
    body.append(_label((RACE_LEFT + RACE_RIGHT) / 2, RACE_HEIGHT - 8, x_label))
    body.append(_y_axis_label(12, (RACE_TOP + RACE_BOTTOM) / 2, y_label))
    series = ((name_a, totals_a, 0, "circle"), (name_b, totals_b, 1, "square"))
    for name, totals, index, shape in series:
        colour, dash = SERIES_COLOURS[index], SERIES_DASHES[index]
        points = [(x(0), y(0))]
        for deal in range(1, len(totals)):
            points.append((x(deal), y(totals[deal - 1])))
            if totals[deal] != totals[deal - 1]:
                points.append((x(deal), y(totals[deal])))
        body.append(_polyline(points, colour, dash))
        for deal in range(1, len(totals)):
            body.append(_marker(shape, x(deal), y(totals[deal]), colour,
                                f"{name}: {totals[deal]}"))
        # The legend: a sample of the line, its marker and the name, above the plot.
        left = RACE_LEFT + index * 150
        body.append(_polyline([(left, 14), (left + 24, 14)], colour, dash))
        body.append(_marker(shape, left + 12, 14, colour))
        body.append(_label(left + 30, 18, _short(name, 20), "start"))
    description = (f"{name_a} {totals_a[-1]} : {totals_b[-1]} {name_b} "
                   f"({len(deals)} / {target})")
    return _svg(RACE_HEIGHT, title, description, body)



STRIP_LEFT, STRIP_RIGHT, STRIP_TOP, STRIP_BOTTOM = 34, 344, 10, 84
"""The plot area of `match_race_strip`: x 34..344, y 10 (the highest score) .. 84 (nought)."""
STRIP_HEIGHT = 92
STRIP_FONT = 15
"""The strip's labels are larger than a page picture's: it is printed about 60 mm wide."""


def match_race_strip(
    deals: Sequence[tuple[int, int]], target: int, *, name_a: str, name_b: str, title: str,
) -> str:
    """The running score of a match as a low wide strip, for a printed scorecard: the step
    lines of `match_race` (A solid with round markers, B dashed with square ones, the target a
    thin dashed line labelled with its number) without axis titles or a legend; the seat
    letters "A" and "B" end the lines. `deals` and `target` as for `match_race`, in game
    points; `title` is the picture's accessible name.

    Scale: x = the deal number, 0 at x 34 and the last deal at x 344; y = game points, 0 at
    y 84 and `top` (the target or the highest score past it) at y 10.

    Raises `ValueError` for a target under 1 or negative game points.
    """
    totals_a, totals_b, top = _running_totals(deals, target)
    count = max(len(deals), 1)

    def x(deal: int) -> float:
        return STRIP_LEFT + deal * (STRIP_RIGHT - STRIP_LEFT) / count

    def y(points: int) -> float:
        return STRIP_BOTTOM - points * (STRIP_BOTTOM - STRIP_TOP) / top

    body = [
        f'<line x1="{STRIP_LEFT}" y1="{_num(y(target))}" x2="{STRIP_RIGHT}" '
        f'y2="{_num(y(target))}" stroke="{INK}" stroke-width="1" stroke-dasharray="4 3"/>',
        _label(STRIP_LEFT - 5, y(target) + 5, str(target), "end", STRIP_FONT,
               ' font-weight="bold"'),
        f'<line x1="{STRIP_LEFT}" y1="{STRIP_BOTTOM}" x2="{STRIP_RIGHT}" '
        f'y2="{STRIP_BOTTOM}" stroke="{INK}" stroke-width="1"/>',
        _label(STRIP_LEFT - 5, STRIP_BOTTOM + 5, "0", "end", STRIP_FONT),
    ]
    for totals, index, shape in ((totals_a, 0, "circle"), (totals_b, 1, "square")):
        colour, dash = SERIES_COLOURS[index], SERIES_DASHES[index]
        points = [(x(0), y(0))]
        for deal in range(1, len(totals)):
            points.append((x(deal), y(totals[deal - 1])))
            if totals[deal] != totals[deal - 1]:
                points.append((x(deal), y(totals[deal])))
        body.append(_polyline(points, colour, dash))
        for deal in range(1, len(totals)):
            body.append(_marker(shape, x(deal), y(totals[deal]), colour))
    # The seat letters right of the lines' ends, pushed apart when the ends are close.
    end_a, end_b = y(totals_a[-1]), y(totals_b[-1])
    if abs(end_a - end_b) < STRIP_FONT:
        middle = (end_a + end_b) / 2
        end_a, end_b = middle - STRIP_FONT / 2, middle + STRIP_FONT / 2
        if totals_a[-1] < totals_b[-1]:
            end_a, end_b = end_b, end_a
    for letter, end in (("A", end_a), ("B", end_b)):
        body.append(_label(STRIP_RIGHT + 4, end + 5, letter, "start", STRIP_FONT,
                           ' font-weight="bold"'))
    description = (f"{name_a} {totals_a[-1]} : {totals_b[-1]} {name_b} "
                   f"({len(deals)} / {target})")
    return _svg(STRIP_HEIGHT, title, description, body)


# --- A player's rating after each event -----------------------------------------------------

@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one event: `rating` and `deviation` in rating points; `when`
    (the event's date, as the caller wants it shown) and `event` (its name) are text."""

    when: str
    event: str
    rating: float
    deviation: float


RATING_LEFT, RATING_RIGHT, RATING_TOP, RATING_BOTTOM = 50, 340, 16, 176
"""The plot area of `rating_history`: x 50..340, y 16 (the top of the scale) .. 176."""
RATING_HEIGHT = 216
RATING_STEPS = (50, 100, 200, 250, 500, 1000)
"""Candidate distances between the rating scale's lines, smallest first."""


def rating_scale(low: float, high: float) -> tuple[int, int, int]:
    """The rating scale around the values `low`..`high`: (bottom, top, step), bottom and top
    multiples of the step, the smallest step of `RATING_STEPS` giving at most 6 intervals.
    E.g. 1150..1850 → (1000, 2000, 200)."""
    for step in RATING_STEPS:
        bottom, top = floor(low / step) * step, ceil(high / step) * step
        if top == bottom:
            top += step
        if (top - bottom) / step <= 6:
            return bottom, top, step
    step = RATING_STEPS[-1]
    return floor(low / step) * step, ceil(high / step) * step + step, step


def rating_history(
    points: Sequence[RatingPoint], *, title: str, x_label: str, y_label: str,
) -> str:
    """A player's rating after each event, oldest first, with the deviation as a band.

    `points`: one `RatingPoint` per rated event, in date order. The events are evenly spaced
    along x (x = the event, labelled with its date): event i of n at x = 50 + (i + ½)·290/n.
    y = rating points on the scale `rating_scale(min(rating − deviation),
    max(rating + deviation))`, its bottom at y 176 and its top at y 16. The band joins
    rating + deviation over the events and comes back along rating − deviation; the line
    joins the ratings, with a marker (hover: event, rating ± deviation) at each.

    Raises `ValueError` for no points.
    """
    if not points:
        raise ValueError("A rating history needs at least one event.")
    bottom, top, step = rating_scale(
        min(p.rating - p.deviation for p in points), max(p.rating + p.deviation for p in points)
    )
    count = len(points)

    def x(index: int) -> float:
        return RATING_LEFT + (index + 0.5) * (RATING_RIGHT - RATING_LEFT) / count

    def y(rating: float) -> float:
        return RATING_BOTTOM - (rating - bottom) * (RATING_BOTTOM - RATING_TOP) / (top - bottom)

    body = []
    for tick in range(bottom, top + 1, step):
        body.append(f'<line x1="{RATING_LEFT}" y1="{_num(y(tick))}" x2="{RATING_RIGHT}" '
                    f'y2="{_num(y(tick))}" stroke="{GRID}" stroke-width="0.5"/>')
        body.append(_label(RATING_LEFT - 5, y(tick) + 4, str(tick), "end", SMALL))
    upper = [(x(i), y(p.rating + p.deviation)) for i, p in enumerate(points)]
    lower = [(x(i), y(p.rating - p.deviation)) for i, p in enumerate(points)]
    if count == 1:  # a band one event wide: a short bar
        upper = [(upper[0][0] - 6, upper[0][1]), (upper[0][0] + 6, upper[0][1])]
        lower = [(lower[0][0] - 6, lower[0][1]), (lower[0][0] + 6, lower[0][1])]
    body.append(f'<polygon points="{_points(upper + lower[::-1])}" fill="#c5d3ea" '
                f'stroke="#7d93b8" stroke-width="0.75" stroke-dasharray="3 2"/>')
    line = [(x(i), y(p.rating)) for i, p in enumerate(points)]
    body.append(_polyline(line, SERIES_COLOURS[0], ""))
    for i, p in enumerate(points):
        body.append(_marker("circle", *line[i], SERIES_COLOURS[0],
                            f"{p.event} ({p.when}): {p.rating:.0f} ± {p.deviation:.0f}"))
    label_every = _every(count, 4)
    for i, p in enumerate(points):
        if i % label_every == 0 or i == count - 1:
            if i != count - 1 and count - 1 - i < label_every:
                continue  # too close to the last label
            body.append(_label(x(i), RATING_BOTTOM + 14, p.when, size=SMALL))
    body.append(f'<line x1="{RATING_LEFT}" y1="{RATING_BOTTOM}" x2="{RATING_RIGHT}" '
                f'y2="{RATING_BOTTOM}" stroke="{INK}" stroke-width="1"/>')
    body.append(_label((RATING_LEFT + RATING_RIGHT) / 2, RATING_HEIGHT - 8, x_label))
    body.append(_y_axis_label(12, (RATING_TOP + RATING_BOTTOM) / 2, y_label))
    last = points[-1]
    description = f"{last.when}: {last.rating:.0f} ± {last.deviation:.0f} ({count})"
    return _svg(RATING_HEIGHT, title, description, body)


# --- The race of a round robin --------------------------------------------------------------

PLACES_LEFT, PLACES_RIGHT, PLACES_TOP = 36, 236, 16
"""The plot of `standings_race`: rounds from x 36 to x 236; place 1 at y 16."""
PLACE_PITCH = 20
"""Units between two places."""
PLACES_NAMES = 250
"""Where the names start, right of the plot."""
RACE_MARKERS = 600
"""Up to this many points (players × rounds) each carries a marker; past it only the last
round's do (a 64-player double round robin would otherwise draw 8064)."""


@dataclass(frozen=True)
class RaceLine:
    """One player in `standings_race`: `name` and `places`, their place (1 = first, shared
    places repeated) after round 1, 2, ... in turn."""

    name: str
    places: tuple[int, ...]


def standings_race(
    lines: Sequence[RaceLine], *, title: str, x_label: str, y_label: str,
) -> str:
    """Each player's place after every round, a line per player, first place at the top.

    `lines`: the players in the order of the current standings, each with one place per
    round played so far (all the same length, at least 1). Scale: round r of R at
    x = 36 + (r − 1)·200/(R − 1) (a single round at x 136); place p at y = 16 + (p − 1)·20.
    Each name stands right of the plot at the height of its row in `lines` (row i at
    y = 16 + i·20, i from 0), which is its final place unless places are shared. Line i has
    colour i mod 6, dash pattern i mod 4 and marker i mod 5, so no two neighbours look alike
    in grey; every point carries the marker up to `RACE_MARKERS` points in all, else only
    the last round's. Height: 16 + (n − 1)·20 + 40 for n players.

    Raises `ValueError` for no players, no rounds or lines of different lengths.
    """
    if not lines:
        raise ValueError("A race needs at least one player.")
    rounds = len(lines[0].places)
    if rounds == 0 or any(len(line.places) != rounds for line in lines):
        raise ValueError("Every player needs one place per round, and at least one round.")
    count = len(lines)
    bottom = PLACES_TOP + (count - 1) * PLACE_PITCH
    height = bottom + 40

    def x(number: int) -> float:
        if rounds == 1:
            return (PLACES_LEFT + PLACES_RIGHT) / 2
        return PLACES_LEFT + (number - 1) * (PLACES_RIGHT - PLACES_LEFT) / (rounds - 1)

    def y(place: int) -> float:
        return PLACES_TOP + (place - 1) * PLACE_PITCH

    every_point = count * rounds <= RACE_MARKERS
    body = []
    for place in range(1, count + 1):
        body.append(f'<line x1="{PLACES_LEFT}" y1="{_num(y(place))}" x2="{PLACES_RIGHT}" '
                    f'y2="{_num(y(place))}" stroke="{GRID}" stroke-width="0.5"/>')
        body.append(_label(PLACES_LEFT - 8, y(place) + 4, str(place), "end", SMALL))
    step = _every(rounds, 10)
    for number in range(1, rounds + 1):
        if number % step == 0 or number in (1, rounds):
            if number not in (1, rounds) and (rounds - number < step or number - 1 < step):
                continue  # too close to the first or the last label
            body.append(_label(x(number), bottom + 16, str(number), size=SMALL))
    # Each round's x and each place's y written once: 100 players over 198 rounds are
    # 19,800 points.
    x_text = [_num(x(number)) for number in range(1, rounds + 1)]
    y_text: dict[int, str] = {}
    for index, line in enumerate(lines):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        dash = SERIES_DASHES[index % len(SERIES_DASHES)]
        shape = MARKERS[index % len(MARKERS)]
        for place in line.places:
            if place not in y_text:
                y_text[place] = _num(y(place))
        body.append(f'<g><title>{_text(line.name)}</title>')
        body.append(_polyline(" ".join([f"{x_text[number]},{y_text[place]}"
                                        for number, place in enumerate(line.places)]),
                              colour, dash, 1.6))
        marked = ([(x(number), y(place)) for number, place in enumerate(line.places, start=1)]
                  if every_point else [(x(rounds), y(line.places[-1]))])
        for (px, py), place in zip(marked, line.places[-len(marked):], strict=True):
            body.append(_marker(shape, px, py, colour, f"{line.name}: {place}"))
        body.append("</g>")
        row_y = PLACES_TOP + index * PLACE_PITCH
        body.append(_label(PLACES_NAMES, row_y + 4, _short(line.name), "start"))
        body.append(_marker(shape, PLACES_NAMES - 6, row_y, colour))
    body.append(_label((PLACES_LEFT + PLACES_RIGHT) / 2, height - 6, x_label))
    body.append(_y_axis_label(10, (PLACES_TOP + bottom) / 2, y_label))
    description = " · ".join(f"{line.places[-1]}. {line.name}" for line in lines)
    return _svg(height, title, description, body)
