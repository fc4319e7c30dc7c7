"""Every write to matches and deals (STYLE.md "Where code lives").

Each function runs in one transaction with the match row locked (`select_for_update` on
PostgreSQL; SQLite's IMMEDIATE transactions serialise writers), re-reads the deals, checks the
whole match with `rules.score_match`, saves, and keeps the match's score in step. Two people
entering the same match at once therefore never produce two deal 5s or a match past its end:
the second is told what happened (`RecordingError` code `deal_already_entered`).

Errors the organiser can fix: `rules.InvalidDeal` (the deal breaks the rules) and
`RecordingError` (the match is not in a state to take it). Both carry a stable `.code`;
`scoring.messages.user_message` turns either into a translated sentence.
"""

from dataclasses import asdict

from django.db import transaction
from django.utils import timezone

from scoring import rules
from scoring.models import Deal, Match
from scoring.signals import match_finished, match_reopened


class RecordingError(Exception):
    """The match cannot take this change now. `.code` is stable; `.params` fill the message."""

    def __init__(self, code: str, message: str, **params) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


def _locked(match: Match) -> Match:
    return Match.objects.select_for_update().select_related("player_a", "player_b").get(
        pk=match.pk
    )


def _replay(match: Match, scores: list[rules.DealScore]) -> rules.MatchScore:
    """Score the match over `scores` and copy the result onto the (locked) match row."""
    result = rules.score_match(scores, match.house_rules(), match.first_dealer)
    was_over, old_winner = match.status == Match.Status.FINISHED, match.winner
    match.points_a, match.points_b = result.points["A"], result.points["B"]
    if result.finished:
        match.status = Match.Status.FINISHED
        match.winner = result.winner
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.PLAYING if scores else Match.Status.SCHEDULED
        match.winner = ""
        match.finished_at = None
    match.save(update_fields=["points_a", "points_b", "status", "winner", "finished_at"])
    if was_over and (not result.finished or result.winner != old_winner):
        match_reopened.send(sender=Match, match=match)
    if result.finished and (not was_over or result.winner != old_winner):
        match_finished.send(sender=Match, match=match)
    return result


def _refuse_if_forfeited(match: Match) -> None:
    if match.status == Match.Status.FORFEITED:
        raise RecordingError(
            "match_forfeited", "This match was forfeited; no deals can be entered.",
        )


@transaction.atomic
def deal_record(
    *,
    match: Match,
    score: rules.DealScore,
    by,
    details: rules.DealRecord | None = None,
    number: int | None = None,
) -> Deal:
    """Append one deal to `match` and return it.

    `score` comes from `rules.quick_result` or `rules.score_deal` (game points, 0-3);
    `details` is the `DealRecord` it was scored from, if any (card points etc.); `number` is
    the deal number the organiser believed they were entering (the form sends it): if someone
    else entered that deal first, nothing is written.

    Raises `rules.InvalidDeal` (`match_finished`, or a deal that does not fit the house rules)
    and `RecordingError` (`deal_already_entered`, `match_forfeited`). RULES.md §6.
    """
    match = _locked(match)
    _refuse_if_forfeited(match)
    scores = [deal.score() for deal in match.deals.order_by("number")]
    next_number = len(scores) + 1
    if number is not None and number != next_number:
        last = match.deals.order_by("-number").select_related("entered_by").first()
        raise RecordingError(
            "deal_already_entered",
            f"Deal {number} was already entered; the match is now at deal {next_number}.",
            number=number, next_number=next_number,
            entered_by=getattr(last.entered_by, "username", "") if last else "",
        )
    deal = Deal(
        match=match, number=next_number, winner=score.winner or "",
        game_points=score.game_points, reason=score.reason,
        details=asdict(details) if details else None, entered_by=by,
    )
    deal._history_user = by
    deal.save()
    _replay(match, [*scores, score])
    return deal


@transaction.atomic
def deal_undo_last(*, match: Match, by) -> Deal:
    """Delete the last deal of `match` (history keeps it) and return the deleted row.

    Raises `RecordingError` `no_deal_to_undo` when the match has no deal.
    """
    match = _locked(match)
    _refuse_if_forfeited(match)
    deals = list(match.deals.order_by("number"))
    if not deals:
        raise RecordingError("no_deal_to_undo", "This match has no deal to undo.")
    last = deals[-1]
    last._change_reason = "undo"
    last._history_user = by
    last.delete()
    _replay(match, [deal.score() for deal in deals[:-1]])
    return last


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    score: rules.DealScore,
    by,
    reason: str,
    details: rules.DealRecord | None = None,
) -> Deal:
    """Replace the result of an earlier `deal` and re-score its match.

    `reason` (free text, required) is kept in the deal's history with the old and new values.
    Raises `rules.InvalidDeal` when the corrected match no longer adds up (e.g. the match would
    have ended before a later deal: `match_finished`) and `RecordingError`
    (`correction_reason_missing`, `match_forfeited`).
    """
    if not reason.strip():
        raise RecordingError(
            "correction_reason_missing", "Say why the deal is corrected; the reason is kept."
        )
    match = _locked(deal.match)
    _refuse_if_forfeited(match)
    deals = list(match.deals.order_by("number"))
    deal = next(d for d in deals if d.pk == deal.pk)
    scores = [score if d.pk == deal.pk else d.score() for d in deals]
    _replay(match, scores)
    deal.winner, deal.game_points, deal.reason = score.winner or "", score.game_points, score.reason
    deal.details = asdict(details) if details else None
    deal._history_user = by
    deal._change_reason = reason.strip()[:100]
    deal.save()
    return deal


@transaction.atomic
def match_forfeit(*, match: Match, winner: str, by) -> Match:
    """Mark an unplayed or unfinished `match` as forfeited: `winner` ("A"/"B") gets the game
    target in game points, the other keeps what they had (the printed forfeit rule).

    Raises `RecordingError` `match_already_finished` for a finished match.
    """
    match = _locked(match)
    if match.is_over:
        raise RecordingError(
            "match_already_finished", "This match is already over and cannot be forfeited."
        )
    target = match.house_rules().game_target
    if winner == "A":
        match.points_a = target
    else:
        match.points_b = target
    match.status = Match.Status.FORFEITED
    match.winner = winner
    match.finished_at = timezone.now()
    match._change_reason = "forfeit"
    match._history_user = by
    match.save()
    match_finished.send(sender=Match, match=match)
    return match
