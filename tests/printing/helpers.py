"""Helpers of the printing tests: PDF and HTML text, the deals of a played match."""

import io
import re

from django.template.loader import render_to_string
from django.utils import translation
from pypdf import PdfReader

from events import selectors
from events.models import Pairing
from printing import documents
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def html_text(document) -> str:
    """The text of `document`'s parts as HTML renders it (no PDF): tags and runs of white
    space become one space. The layout on paper is tested on the PDFs, one per kind."""
    with translation.override(document.language):
        html = "".join(render_to_string(template, {**context, "css": ""})
                       for template, context in document.parts())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def cards_of(tournament, filled, language, number=1):
    with translation.override(language):
        return documents.scorecards_document(
            round_pairings(tournament, number), filled, tournament, language
        )


def round_pairings(tournament, number=1):
    round_ = tournament.rounds.get(number=number)
    return list(selectors.pairings_of_round(round_).select_related("round__tournament"))


def first_match(tournament) -> Match:
    return Pairing.objects.get(round__tournament=tournament, round__number=1, table=1).match


def play(match: Match, deals) -> None:
    for winner, points, reason in deals:
        scoring_services.deal_record(
            match=match, score=rules.quick_result(winner, points, reason), by=None
        )


ELEVEN_NIL = [("A", 3, "capot"), ("A", 3, "capot"), ("A", 2, "schneider"), ("A", 3, "capot")]


def grid_lines(card) -> list[str]:
    """The filled rows of a card's grid, each as its cells' texts in order ("A A 3 3 3 0"),
    without the next deal's dealer."""
    lines: dict[str, list[str]] = {}
    for cell in card.cells:
        if cell["kind"] != "next":
            lines.setdefault(cell["top"], []).append(cell["text"])
    return [" ".join(texts) for texts in lines.values()]


def forty_deals_mostly_drawn():
    """40 deals: every fourth one A wins by 1 game point (deals 4, 8, ..., 36: 9 game points),
    the rest are 65-65 draws, and deal 40 is A's schneider: 9 + 2 = 11, the match ends on it.
    Draws keep the dealer and the winner deals next, so A (first dealer) deals every deal."""
    deals = []
    for number in range(1, 41):
        if number == 40:
            deals.append(("A", 2, "schneider"))
        elif number % 4 == 0:
            deals.append(("A", 1, "won"))
        else:
            deals.append((None, 0, "draw"))
    return deals
