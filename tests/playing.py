"""Entering whole matches in tests, written like a score sheet."""

from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match

REASONS = {1: "won", 2: "schneider", 3: "capot"}


def play(match: Match, deals: str, by=None) -> None:
    """Enter deals written like "A3 A3 B2": the winner's seat and the game points."""
    for deal in deals.split():
        points = int(deal[1])
        scoring_services.deal_record(
            match=match, score=rules.quick_result(deal[0], points, REASONS[points]), by=by
        )
