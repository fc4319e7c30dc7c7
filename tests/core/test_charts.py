"""The pictures (core.charts) and the cross-table grid (standings.crosstable):
coordinates worked out by hand from the scales the docstrings give. No database."""

import re
import xml.etree.ElementTree as ET

import pytest

from core import charts
from standings.crosstable import CrossRow, Meeting, cross_table
from standings.tie_breaks import MatchResult

SVG = "{http://www.w3.org/2000/svg}"


def polylines(svg: str) -> list[str]:
    """The `points` of every polyline, in document order."""
    return [element.get("points") for element in ET.fromstring(svg).iter(f"{SVG}polyline")]


def labels(svg: str) -> list[str]:
    return [element.text for element in ET.fromstring(svg).iter(f"{SVG}text")]


LABELS = {"title": "Running score", "x_label": "deal", "y_label": "game points"}


# --- The running score of a match -----------------------------------------------------------


def test_a_three_deal_match_steps_up_to_3_0_then_3_2_then_4_2():
    # Scale: target 11 is the top. x = 40 + 100·deal (300 units over 3 deals);
    # y = 192 − points·160/11: 0 → 192, 2 → 162.909, 3 → 148.364, 4 → 133.818, 11 → 32.
    svg = charts.match_race([(3, 0), (0, 2), (1, 0)], 11, name_a="Ana", name_b="Boris",
                            **LABELS)
    lines = polylines(svg)
    # The two lines of the plot come first, each followed by its legend sample.
    assert lines[0] == "40,192 140,192 140,148.4 240,148.4 340,148.4 340,133.8"
    assert lines[2] == "40,192 140,192 240,192 240,162.9 340,162.9"
    assert lines[1] == "40,14 64,14" and lines[3] == "190,14 214,14"
    root = ET.fromstring(svg)
    target = [line for line in root.iter(f"{SVG}line")
              if line.get("stroke-dasharray") == "4 3"]
    assert [(t.get("y1"), t.get("x1"), t.get("x2")) for t in target] == [("32", "40", "340")]
    # A's markers (circles) sit on 3, 3, 4; B's (squares, 6 wide: x − 3) on 0, 2, 2.
    circles = [(c.get("cx"), c.get("cy")) for c in root.iter(f"{SVG}circle")]
    assert circles[:3] == [("140", "148.4"), ("240", "148.4"), ("340", "133.8")]
    squares = [(r.get("x"), r.get("y")) for r in root.iter(f"{SVG}rect")]
    assert squares[:3] == [("137", "189"), ("237", "159.9"), ("337", "159.9")]
    # B's line is dashed, A's solid; the y labels 0 and 5 (10 is too near the target's 11).
    assert polylines(svg)[0] and "stroke-dasharray" not in svg.split("<polyline")[1]
    assert 'stroke-dasharray="6 3"' in svg.split("<polyline")[3]
    assert {"0", "5", "11", "1", "2", "3", "Ana", "Boris", "deal", "game points"} <= set(
        labels(svg))
    assert "10" not in labels(svg)
    assert 'viewBox="0 0 360 236"' in svg


def test_a_score_past_the_target_tops_the_scale():
    # 3 + 3 + 3 + 3 = 12 > 11: the top is 12; y(11) = 192 − 11·160/12 = 45.333.
    svg = charts.match_race([(3, 0)] * 4, 11, name_a="A", name_b="B", **LABELS)
    assert polylines(svg)[0].endswith("340,32")
    target = [line for line in ET.fromstring(svg).iter(f"{SVG}line")
              if line.get("stroke-dasharray") == "4 3"]
    assert target[0].get("y1") == "45.3"


def test_a_drawn_deal_moves_neither_line():
    # Two deals: a draw (0, 0), then A 2. x = 40 + 150·deal; y(2) = 192 − 320/11 = 162.9.
    svg = charts.match_race([(0, 0), (2, 0)], 11, name_a="A", name_b="B", **LABELS)
    assert polylines(svg)[0] == "40,192 190,192 340,192 340,162.9"
    assert polylines(svg)[2] == "40,192 190,192 340,192"


def test_no_deals_yet_draws_the_empty_frame():
    svg = charts.match_race([], 11, name_a="A", name_b="B", **LABELS)
    assert polylines(svg)[0] == "40,192"


def test_a_bad_target_or_negative_points_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        charts.match_race([], 0, name_a="A", name_b="B", **LABELS)
    with pytest.raises(ValueError, match="negative"):
        charts.match_race([(-1, 0)], 11, name_a="A", name_b="B", **LABELS)


# --- A player's rating ----------------------------------------------------------------------


@pytest.mark.parametrize(("low", "high", "scale"), [
    (1150, 1850, (1000, 2000, 200)),   # 50: 14 intervals, 100: 8, 200: 5
    (1450, 1550, (1450, 1550, 50)),
    (1500, 1500, (1500, 1550, 50)),    # one value: one step above it
    (0, 6000, (0, 6000, 1000)),
])
def test_the_rating_scale_takes_the_smallest_step_with_at_most_six_intervals(low, high, scale):
    assert charts.rating_scale(low, high) == scale


def test_two_events_give_a_line_and_a_band_on_the_hand_worked_scale():
    # 1500 ± 350 then 1600 ± 200: values 1150..1850 → scale 1000..2000 (step 200).
    # x: 2 events over 50..340 → 50 + 72.5 = 122.5, 50 + 217.5 = 267.5;
    # y = 176 − (rating − 1000)·0.16: 1500 → 96, 1600 → 80, 1850 → 40, 1150 → 152,
    # 1800 → 48, 1400 → 112.
    svg = charts.rating_history(
        [charts.RatingPoint("01.03.26", "Spring", 1500, 350),
         charts.RatingPoint("05.04.26", "Cup", 1600, 200)],
        title="Rating", x_label="event date", y_label="rating",
    )
    assert polylines(svg) == ["122.5,96 267.5,80"]
    band = next(ET.fromstring(svg).iter(f"{SVG}polygon"))
    assert band.get("points") == "122.5,40 267.5,48 267.5,112 122.5,152"
    assert labels(svg)[:6] == ["1000", "1200", "1400", "1600", "1800", "2000"]
    assert {"01.03.26", "05.04.26"} <= set(labels(svg))
    tips = [t.text for t in ET.fromstring(svg).iter(f"{SVG}title")]
    assert "Cup (05.04.26): 1600 ± 200" in tips


def test_one_event_is_a_point_with_a_short_bar_in_the_middle():
    # x = 50 + 0.5·290 = 195; 1500 ± 50 → scale 1450..1550, y(1500) = 176 − 50·160/100 = 96.
    svg = charts.rating_history([charts.RatingPoint("d", "e", 1500, 50)],
                                title="t", x_label="x", y_label="y")
    assert polylines(svg) == ["195,96"]
    band = next(ET.fromstring(svg).iter(f"{SVG}polygon"))
    assert band.get("points") == "189,16 201,16 201,176 189,176"


def test_a_rating_history_needs_an_event():
    with pytest.raises(ValueError):
        charts.rating_history([], title="t", x_label="x", y_label="y")


# --- The race of a round robin --------------------------------------------------------------


def test_three_players_over_three_rounds():
    # x(round) = 36, 136, 236; y(place) = 16, 36, 56. Lines in standings order.
    svg = charts.standings_race([
        charts.RaceLine("Boris", (2, 3, 1)),
        charts.RaceLine("Ana", (1, 1, 2)),
        charts.RaceLine("Cveta", (3, 2, 3)),
    ], title="Race", x_label="round", y_label="place")
    assert polylines(svg) == ["36,36 136,56 236,16", "36,16 136,16 236,36",
                              "36,56 136,36 236,56"]
    assert 'viewBox="0 0 360 96"' in svg  # 16 + 2·20 + 40
    root = ET.fromstring(svg)
    names = [(t.text, t.get("x"), t.get("y")) for t in root.iter(f"{SVG}text")
             if t.text in {"Ana", "Boris", "Cveta"}]
    assert names == [("Boris", "250", "20"), ("Ana", "250", "40"), ("Cveta", "250", "60")]
    # Neighbours differ in dash pattern: solid, "6 3", "2 2".
    dashes = [line.get("stroke-dasharray") for line in root.iter(f"{SVG}polyline")]
    assert dashes == [None, "6 3", "2 2"]


def test_one_round_stands_in_the_middle():
    svg = charts.standings_race([charts.RaceLine("A", (1,)), charts.RaceLine("B", (2,))],
                                title="t", x_label="x", y_label="y")
    assert polylines(svg) == ["136,16", "136,36"]


def test_a_race_needs_places_of_one_length():
    with pytest.raises(ValueError):
        charts.standings_race([], title="t", x_label="x", y_label="y")
    with pytest.raises(ValueError):
        charts.standings_race([charts.RaceLine("A", (1, 2)), charts.RaceLine("B", (2,))],
                              title="t", x_label="x", y_label="y")


# --- Text is escaped; no style= anywhere ----------------------------------------------------

def test_the_scorecard_strip_of_the_same_three_deals():
    # Scale: x = 34 + deal·310/3 (137.3, 240.7, 344); y = 84 − points·74/11: 0 → 84,
    # 2 → 70.545, 3 → 63.818, 4 → 57.091, 11 (the target) → 10.
    svg = charts.match_race_strip([(3, 0), (0, 2), (1, 0)], 11, name_a="Ana", name_b="Boris",
                                  title="Running score")
    assert polylines(svg) == [
        "34,84 137.3,84 137.3,63.8 240.7,63.8 344,63.8 344,57.1",
        "34,84 137.3,84 240.7,84 240.7,70.5 344,70.5",
    ]
    root = ET.fromstring(svg)
    assert root.get("viewBox") == "0 0 360 92"
    texts = {element.text: element.get("y") for element in root.iter(f"{SVG}text")}
    # The ends (57.1 and 70.5) are closer than the letters' 15 units: the letters move apart
    # around their middle 63.8, A (ahead) above: baselines 63.8 ∓ 7.5 + 5.
    assert texts == {"11": "15", "0": "89", "A": "61.3", "B": "76.3"}
    assert root.find(f"{SVG}desc").text == "Ana 4 : 2 Boris (3 / 11)"
    with pytest.raises(ValueError):
        charts.match_race_strip([], 0, name_a="A", name_b="B", title="t")


NASTY = '<script>alert("x")</script> & \'Co\''


@pytest.mark.parametrize("draw", [
    lambda: charts.match_race([(3, 0)], 11, name_a=NASTY, name_b="B", title=NASTY,
                              x_label=NASTY, y_label=NASTY),
    lambda: charts.match_race_strip([(3, 0)], 11, name_a=NASTY, name_b="B", title=NASTY),
    lambda: charts.rating_history([charts.RatingPoint(NASTY, NASTY, 1500, 100)],
                                  title=NASTY, x_label=NASTY, y_label=NASTY),
    lambda: charts.standings_race([charts.RaceLine(NASTY, (1,))], title=NASTY,
                                  x_label=NASTY, y_label=NASTY),
])
def test_names_and_labels_are_escaped(draw):
    svg = draw()
    assert "<script" not in svg
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;Co&#x27;" in svg
    root = ET.fromstring(svg)  # well-formed
    assert root.get("role") == "img"
    assert not re.search(r"\sstyle=", svg)
    assert NASTY in [t.text for t in root.iter(f"{SVG}title")]


def test_long_names_are_cut_where_they_label_a_line():
    svg = charts.standings_race([charts.RaceLine("Александра Константинова", (1,))],
                                title="t", x_label="x", y_label="y")
    assert "Александра Конс…" in labels(svg)


# --- The cross-table ------------------------------------------------------------------------


def test_the_grid_lists_each_meeting_from_the_row_players_side():
    # A double round robin of 1, 2, 3: 1 beats 2 11:7, 3 beats 1 11:9, 2 beats 3 by forfeit
    # 11:4; in the second cycle 2 beats 1 11:10. Rows and columns in the order 2, 1, 3.
    results = [
        MatchResult(1, 2, 11, 7, "A"), MatchResult(3, 1, 11, 9, "A"),
        MatchResult(2, 3, 11, 4, "A", forfeit=True), MatchResult(2, 1, 11, 10, "A"),
    ]
    grid = cross_table([2, 1, 3], results)
    assert grid == [
        CrossRow(2, (None, (Meeting(7, 11, False), Meeting(11, 10, True)),
                     (Meeting(11, 4, True, True),))),
        CrossRow(1, ((Meeting(11, 7, True), Meeting(10, 11, False)), None,
                     (Meeting(9, 11, False),))),
        CrossRow(3, ((Meeting(4, 11, False, True),), (Meeting(11, 9, True),), None)),
    ]
    assert str(grid[1].cells[0][0]) == "11:7"


def test_a_pair_not_met_yet_has_an_empty_cell_and_unknown_players_are_left_out():
    grid = cross_table([1, 2], [MatchResult(1, 9, 11, 0, "A")])
    assert grid == [CrossRow(1, (None, ())), CrossRow(2, ((), None))]


def test_a_big_race_marks_only_the_last_round():
    # 25 players × 25 rounds = 625 points > 600: one marker per line (plus one in the key).
    lines = [charts.RaceLine(f"P{i}", tuple([i + 1] * 25)) for i in range(25)]
    svg = charts.standings_race(lines, title="t", x_label="x", y_label="y")
    small = charts.standings_race(lines[:24], title="t", x_label="x", y_label="y")
    tips = [t.text for t in ET.fromstring(svg).iter(f"{SVG}title")]
    assert sum(tip == "P0: 1" for tip in tips) == 1
    assert sum(tip == "P0: 1" for tip in
               (t.text for t in ET.fromstring(small).iter(f"{SVG}title"))) == 25  # 600 points
