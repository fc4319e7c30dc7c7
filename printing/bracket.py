"""The knockout bracket's geometry, in millimetres: pure layout, tested without rendering.

A4 landscape, up to 32 players (5 rounds) on one page; a larger bracket is split into parts of
32 (top half and bottom half for 64, four parts for 128) with the last rounds on a page of their
own, and each page says where it continues. `bracket_pages` places every box (a
`selectors.BracketMatch`), its joining lines, the round headings and the champion's box;
`printing.documents` hands the pages to `printing/templates/print/bracket.html`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from formats.knockout import selectors

PART_ROUNDS = 5
"""Rounds on one page: 16 first-round matches (32 players) fit on A4 landscape."""
BRACKET_WIDTH, BRACKET_HEIGHT = 277.0, 160.0
"""The drawing area of a bracket page in mm: A4 landscape less margins, heading and legend."""
BRACKET_GAP = 7.0
MAX_COLUMN = 64.0
MAX_LINE, MIN_FONT, MAX_FONT = 7.5, 6.6, 11.0
CONTINUED_WIDTH = 17.0
"""Room right of a part's last match for "→ page 3"."""


def mm(value: float) -> str:
    """A length in mm as CSS text with a decimal point, whatever the language: "64.00"."""
    return f"{value:.2f}"


def _layout(columns, *, champion: bool, third_place=None, reserve: float = 0.0) -> dict:
    """Place `columns` (lists of BracketMatch, each half as long as the one before) across the
    drawing area, a column per round, each box centred on the two that feed it, with the
    joining lines; and a champion's box after the last column. `reserve`: mm kept free on the
    right (for "→ page 3")."""
    count = len(columns) + (1 if champion else 0)
    room = BRACKET_WIDTH - reserve
    width = min(MAX_COLUMN, (room - BRACKET_GAP * (count - 1)) / count)
    slot = BRACKET_HEIGHT / len(columns[0])
    line = min(MAX_LINE, slot * 0.42)
    font = max(MIN_FONT, min(MAX_FONT, line * 1.75))

    def centre(column: int, index: int) -> float:
        return (index + 0.5) * slot * 2**column

    boxes, joints = [], []
    for column, boxes_of_round in enumerate(columns):
        left = column * (width + BRACKET_GAP)
        for index, box in enumerate(boxes_of_round):
            boxes.append({"box": box, "left": left, "top": centre(column, index) - line,
                          "column": column, "index": index})
            if column + 1 < len(columns) and index % 2 == 0:
                top, bottom = centre(column, index), centre(column, index + 1)
                middle = left + width + BRACKET_GAP / 2
                joints += [
                    ("h", left + width, top, BRACKET_GAP / 2, 0),
                    ("h", left + width, bottom, BRACKET_GAP / 2, 0),
                    ("v", middle, top, 0, bottom - top),
                    ("h", middle, centre(column + 1, index // 2), BRACKET_GAP / 2, 0),
                ]
    page = {
        # Lengths go into style attributes as text with a decimal point: the template's
        # number filters would write "64,00" in Bulgarian.
        "boxes": boxes, "width": width, "line": line,
        "width_mm": mm(width), "line_mm": mm(line), "font_pt": f"{font:.1f}",
        "head_lefts": [mm(column * (width + BRACKET_GAP)) for column in range(count)],
        "joints": [
            {"kind": kind, "left": mm(x), "top": mm(y), "width": mm(w), "height": mm(h)}
            for kind, x, y, w, h in joints
        ],
    }
    last = len(columns) - 1
    if champion:
        page["champion"] = {
            "left": mm(len(columns) * (width + BRACKET_GAP)), "top": mm(centre(last, 0) - line),
        }
        joints_end = last * (width + BRACKET_GAP) + width
        page["joints"].append({
            "kind": "h", "left": mm(joints_end), "top": mm(centre(last, 0)),
            "width": mm(BRACKET_GAP), "height": "0.00",
        })
    if third_place is not None:
        top = min(BRACKET_HEIGHT - 2 * line - 2, centre(last, 0) + max(4 * line, slot))
        page["third_place"] = {
            "box": third_place, "left": mm(last * (width + BRACKET_GAP)), "top": mm(top),
            "head_top": mm(top - 4.2),
        }
    for place in page["boxes"]:
        place["left"], place["top"] = mm(place["left"]), mm(place["top"])
    return page


def _heads(page: dict, labels: list) -> None:
    page["heads"] = [
        {"left": left, "label": label}
        for left, label in zip(page.pop("head_lefts"), labels, strict=True)
    ]


def bracket_pages(bracket: selectors.Bracket) -> list[dict]:
    """The pages of the bracket PDF, each with its title, where it continues, its round
    headings and its boxes and lines placed in mm (`_layout`)."""
    rounds = bracket.rounds
    labels = [column.label for column in bracket.columns]
    if rounds <= PART_ROUNDS:
        page = _layout([column.matches for column in bracket.columns], champion=True,
                       third_place=bracket.third_place)
        page.update(title="", continues="")
        _heads(page, labels + [_("Champion")])
        return [page]
    parts = 2 ** (rounds - PART_ROUNDS)
    final_page = parts + 1
    pages = []
    for part in range(parts):
        columns = []
        for column in range(PART_ROUNDS):
            per_part = len(bracket.columns[column].matches) // parts
            columns.append(bracket.columns[column].matches[part * per_part:(part + 1) * per_part])
        page = _layout(columns, champion=False, reserve=CONTINUED_WIDTH)
        page["boxes"][-1]["after"] = _("→ page %(page)s") % {"page": final_page}
        if parts == 2:
            title = _("Top half") if part == 0 else _("Bottom half")
        else:
            title = _("Part %(part)s of %(parts)s") % {"part": part + 1, "parts": parts}
        _heads(page, labels[:PART_ROUNDS])
        page.update(
            title=title,
            continues=_("The winner continues on page %(page)s.") % {"page": final_page},
        )
        pages.append(page)
    # The last page repeats each part's last match (its winner comes from there) and goes on
    # to the final.
    later = [column.matches for column in bracket.columns[PART_ROUNDS - 1:]]
    page = _layout(later, champion=True, third_place=bracket.third_place)
    for place in page["boxes"]:
        if place["column"] == 0:
            place["from_page"] = _("from page %(page)s") % {"page": place["index"] + 1}
    names = labels[PART_ROUNDS - 1:]
    _heads(page, names + [_("Champion")])
    page.update(
        title=" · ".join(names),
        continues=_("Continued from pages 1–%(last)s.") % {"last": parts},
    )
    pages.append(page)
    return pages
