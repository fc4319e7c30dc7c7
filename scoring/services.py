"""Every write to matches and deals goes through these services.

Each function runs in one transaction with the match row locked (`match_locked`:
`select_for_update` on PostgreSQL; SQLite's IMMEDIATE transactions serialise writers),
re-reads the deals, checks the whole match with `rules.score_match`, saves, and keeps the
match's score in step. Two people
entering the same match at once therefore never produce two deal 5s or a match past its end:
the second is told what happened (`RecordingError` code `deal_already_entered`).

Errors the organiser can fix: `rules.InvalidDeal` (the deal breaks the rules) and
`RecordingError` (the match is not in a state to take it). Both carry a stable `.code` and the
numbers involved (`.params`), never a sentence: `core.messages.user_message` turns either into
the sentence in the user's language.
"""

from dataclasses import asdict

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from scoring import rules
from scoring.errors import RecordingError
from scoring.models import Deal, Match
from scoring.signals import match_finished, match_reopened, match_rescored


def match_locked(matches: QuerySet[Match]) -> Match | None:
    """The one match of `matches` (a `Match` queryset: its filters, joins and annotations
    kept, e.g. a view's access check), read with its row locked until the current
    transaction ends (`select_for_update(of=("self",))`: only the match, not the joined rows,
    so two matches sharing a player never wait on each other's players), or None when there
    is none. Call it inside `transaction.atomic`; `deal_record_locked`, given this match
    within the same transaction, does not read it again (the other services always do).

    Raises `Match.MultipleObjectsReturned` when `matches` holds more than one."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise transaction.TransactionManagementError(
            "match_locked: the lock lasts only inside transaction.atomic")
    try:
        match = matches.select_for_update(of=("self",)).get()
    except Match.DoesNotExist:
        return None
    match._locked_by = connection.atomic_blocks[0]  # the transaction holding the lock
    return match


def _holds_lock(match: Match) -> bool:
    """Whether `match` came from `match_locked` in the transaction still open."""
    blocks = transaction.get_connection().atomic_blocks
    return bool(blocks) and getattr(match, "_locked_by", None) is blocks[0]


def _locked(match: Match) -> Match:
    """The match row, read again and locked (`match_locked`), with its players. A match
    removed meanwhile (a knockout correction upstream clears the matches that followed) is
    `RecordingError` `match_removed`, not a crash."""
    locked = match_locked(Match.objects.select_related("player_a", "player_b").filter(
        pk=match.pk))
    if locked is None:
        raise RecordingError("match_removed")
    return locked


def _replay(
    match: Match, scores: list[rules.DealScore], confirmed: bool = False, by=None
) -> rules.MatchScore:
    """Score the match over `scores` and copy the result onto the (locked) match row.

    A finished match that reopens or changes winner sends `match_reopened` with `confirmed`
    and `by` (the user making the change); a receiver may raise `ConfirmationRequired`, which
    rolls the whole change back. One that keeps its winner with another score sends
    `match_rescored` with `by`."""
    result = rules.score_match(scores, match.house_rules(), match.first_dealer)
    was_over, old_winner = match.is_over, match.winner  # never closed here (_refuse_if_closed)
    old_score = (match.game_points_a, match.game_points_b)
    match.game_points_a, match.game_points_b = result.game_points["A"], result.game_points["B"]
    if result.finished:
        match.status = Match.Status.FINISHED
        match.winner = result.winner
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.status = Match.Status.PLAYING if scores else Match.Status.SCHEDULED
        match.winner = ""
        match.finished_at = None
    fields = ["game_points_a", "game_points_b", "status", "winner", "finished_at"]
    if was_over or result.finished:
        match.save(update_fields=fields)
    else:  # a running score moving: the deals' own history has every step, and the deal's
        # own save or delete has counted the transaction for the live pages: one UPDATE
        Match.objects.filter(pk=match.pk).update(**{field: getattr(match, field)
                                                     for field in fields})
    if was_over and (not result.finished or result.winner != old_winner):
        match_reopened.send(sender=Match, match=match, confirmed=confirmed, by=by)
    if result.finished and (not was_over or result.winner != old_winner):
        match_finished.send(sender=Match, match=match)
    elif was_over and (match.game_points_a, match.game_points_b) != old_score:
        match_rescored.send(sender=Match, match=match, by=by)
    return result


def _refuse_if_closed(match: Match) -> None:
    """A match a withdrawal closed (`Match.CLOSED`) takes no deal, undo or correction:
    `RecordingError` `match_forfeited` or `match_unplayed`."""
    if match.status == Match.Status.FORFEITED:
        raise RecordingError("match_forfeited")
    if match.status == Match.Status.UNPLAYED:
        raise RecordingError("match_unplayed")


def deal_is_same(deal: Deal, score: rules.DealScore,
                 details: rules.DealRecord | None = None) -> bool:
    """Whether the stored `deal` is the deal `score` describes: the same winner ("A"/"B", or
    none for a draw), game points (0-3) and reason; and, when card points were entered
    (`details`), the same `rules.DealRecord`. A deal sent with only the quick result matches a
    stored deal of that result whatever card points it was stored with."""
    if (deal.winner or None, deal.game_points, deal.reason) != (
        score.winner or None, score.game_points, score.reason
    ):
        return False
    return details is None or deal.details == asdict(details)


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

    A resend of deal `number` as it is stored (`deal_is_same`: a double tap, or a phone
    sending the deals it kept while offline a second time) writes nothing and returns the
    stored deal with `already_stored` set: exactly once, and no error for the sender.

    A new deal comes back with `match_scores`: the match's deals (`rules.DealScore`, game
    points) in number order, this one last, as they stand when the transaction commits, and
    with `deal.match` the locked row, its score updated: the caller needs to read neither again.

    Raises `rules.InvalidDeal` (`match_finished`, or a deal that does not fit the house rules)
    and `RecordingError` (`deal_already_entered`: `number` is an earlier deal, stored
    otherwise -- a conflict;
    `deal_number_out_of_range`: `number` is below 1 or past the next deal, so no page of this
    match could have sent it as it stands; `match_forfeited`, `match_unplayed`: the match was
    closed by a withdrawal; `match_removed`). docs/rules.md §6.
    """
    return _deal_record(_locked(match), score, by, details, number)


def deal_record_locked(
    *,
    match: Match,
    score: rules.DealScore,
    by,
    details: rules.DealRecord | None = None,
    number: int | None = None,
) -> Deal:
    """`deal_record` inside the caller's transaction, for a `match` the caller read with
    `match_locked` in it (its access check and the lock in one query): no savepoint and no
    second read of the match. An error leaves the caller's transaction to be rolled back:
    let it leave the `atomic` block. Raises what `deal_record` raises, and
    `TransactionManagementError` for a match not locked in the open transaction."""
    if not _holds_lock(match):
        raise transaction.TransactionManagementError(
            "deal_record_locked: the match must come from match_locked in this transaction")
    return _deal_record(match, score, by, details, number)


def _deal_record(match: Match, score: rules.DealScore, by,
                 details: rules.DealRecord | None, number: int | None) -> Deal:
    """The body of `deal_record` on the locked `match`."""
    _refuse_if_closed(match)
    scores = match.deal_scores()
    next_number = len(scores) + 1
    if number is not None and not 1 <= number <= next_number:
        raise RecordingError(
            "deal_number_out_of_range",
            number=number, count=len(scores), next_number=next_number,
        )
    if number is not None and number != next_number:
        stored = match.deals.get(number=number)
        if deal_is_same(stored, score, details):  # a resend (a double tap, a phone's queue)
            stored.already_stored = True
            return stored
        last = match.deals.order_by("-number").select_related("entered_by").first()
        raise RecordingError(
            "deal_already_entered", number=number, next_number=next_number,
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
    deal.match_scores = [*scores, deal.score()]  # as stored (no card points)
    return deal


@transaction.atomic
def deal_undo_last(
    *, match: Match, by, number: int | None = None, confirmed: bool = False
) -> Deal:
    """Delete the last deal of `match` (history keeps it) and return the deleted row.

    `number` is the deal the organiser saw as the last one (the undo button sends it): if the
    match has moved on or back since, nothing is undone, so a double tap never undoes two deals.
    Raises `RecordingError` `undo_number_out_of_range` (`number` is below 1 or past the deal
    after the last, so no page of this match could have sent it as it stands),
    `no_deal_to_undo` (no deal), `undo_not_last` (`number` is not the last deal any more),
    `match_forfeited` and `match_unplayed` (closed by a withdrawal),
    and `ConfirmationRequired` when reopening the match would undo later results and
    `confirmed` is false.
    """
    match = _locked(match)
    _refuse_if_closed(match)
    deals = list(match.deals.order_by("number"))
    # Deal count + 1 is the last deal of a page drawn before someone (or a double tap) undid it.
    if number is not None and not 1 <= number <= len(deals) + 1:
        raise RecordingError(
            "undo_number_out_of_range", number=number, count=len(deals),
        )
    if not deals:
        raise RecordingError("no_deal_to_undo")
    last = deals[-1]
    if number is not None and number != last.number:
        raise RecordingError(
            "undo_not_last", number=number, last_number=last.number,
        )
    last._change_reason = "undo"
    last._history_user = by
    last.delete()
    _replay(match, [deal.score() for deal in deals[:-1]], confirmed, by=by)
    return last


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    score: rules.DealScore,
    by,
    reason: str,
    details: rules.DealRecord | None = None,
    confirmed: bool = False,
) -> Deal:
    """Replace the result of an earlier `deal` and re-score its match.

    `reason` (free text, required) is kept in the deal's history with the old and new values.
    Raises `rules.InvalidDeal` when the corrected match no longer adds up (e.g. the match would
    have ended before a later deal: `match_finished`) and `RecordingError`
    (`correction_reason_missing`, `match_forfeited`, `match_unplayed`; `ConfirmationRequired`
    when a changed winner would undo later results and `confirmed` is false).
    """
    if not reason.strip():
        raise RecordingError("correction_reason_missing")
    match = _locked(deal.match)
    _refuse_if_closed(match)
    deals = list(match.deals.order_by("number"))
    deal = next(d for d in deals if d.pk == deal.pk)
    scores = [score if d.pk == deal.pk else d.score() for d in deals]
    _replay(match, scores, confirmed, by=by)
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
        raise RecordingError("match_already_finished")
    target = match.house_rules().game_target
    if winner == "A":
        match.game_points_a = target
    else:
        match.game_points_b = target
    match.status = Match.Status.FORFEITED
    match.winner = winner
    match.finished_at = timezone.now()
    match._change_reason = "forfeit"
    match._history_user = by
    match.save()
    match_finished.send(sender=Match, match=match)
    return match


@transaction.atomic
def match_close_unplayed(*, match: Match, by) -> Match:
    """Close a scheduled or unfinished `match` without a result, because a player withdrew:
    status `UNPLAYED`, no winner. Its deals so far (if any) and their game points stay on
    record but count for nothing; it takes no more deals, undo or correction
    (`RecordingError` `match_unplayed`), and counts as over when the event asks whether all
    its matches are (`Match.OVER`). Sends no signal: the caller (a withdrawal) settles the
    event.

    Raises `RecordingError` `match_already_finished` for a match that is already over.
    """
    match = _locked(match)
    if match.is_over:
        raise RecordingError("match_already_finished")
    match.status = Match.Status.UNPLAYED
    match.winner = ""
    match.finished_at = timezone.now()
    match._change_reason = "withdrawal: not played"
    match._history_user = by
    match.save()
    return match


def _locked_and_empty(match: Match) -> Match:
    """`match` locked, refused unless it has no deal and no result yet: what a whole
    scorecard and a final score both need. Raises `RecordingError` (`deal_already_entered`,
    `match_has_result`: a final score without deals, `match_forfeited` / `match_unplayed`)."""
    locked = _locked(match)
    _refuse_if_closed(locked)
    existing = locked.deals.count()
    if existing:
        raise RecordingError(
            "deal_already_entered", number=1, next_number=existing + 1, entered_by="",
        )
    if locked.is_over:  # a result without deals (a final score only)
        raise RecordingError("match_has_result")
    return locked


def _record_all(
    match: Match, scores: list[rules.DealScore], by, *, change_reason: str,
    must_finish: bool,
) -> list[Deal]:
    """Write `scores` as deals 1..n of the (not yet locked) `match`, which must have none:
    the one body of `match_import_deals` and `match_scorecard_record`. Checks the whole list
    with `rules.score_match` before writing; with `must_finish`, refuses a list that does not
    reach the game target (`scorecard_not_finished`)."""
    locked = _locked_and_empty(match)
    house_rules = locked.house_rules()
    result = rules.score_match(scores, house_rules, locked.first_dealer)
    if must_finish and not result.finished:
        raise RecordingError(
            "scorecard_not_finished", points_a=result.game_points["A"],
            points_b=result.game_points["B"], target=house_rules.game_target,
            count=len(scores),
        )
    deals = [
        Deal(
            match=locked, number=number, winner=score.winner or "",
            game_points=score.game_points, reason=score.reason, entered_by=by,
        )
        for number, score in enumerate(scores, start=1)
    ]
    deals = bulk_create_with_history(
        deals, Deal, default_user=by, default_change_reason=change_reason
    )
    _replay(locked, list(scores))
    for name in ("game_points_a", "game_points_b", "status", "winner", "finished_at"):
        setattr(match, name, getattr(locked, name))
    return deals


@transaction.atomic
def match_import_deals(*, match: Match, scores: list[rules.DealScore], by) -> list[Deal]:
    """Write a whole match's deals at once (imports): `scores` become deals 1..n.

    The whole list is checked with `rules.score_match` under the match's house rules before
    anything is written (raises `rules.InvalidDeal`, e.g. `match_finished` for a deal after
    the end); the deals are bulk-created with their history rows, and the match's game points,
    status, winner and finished_at are set as `deal_record` would leave them (`_replay`, which
    also sends `match_finished`). Runs inside the caller's transaction (a savepoint).

    Raises `RecordingError` `match_forfeited` / `match_unplayed` for a match closed by a
    withdrawal, `deal_already_entered` when the match already has deals and
    `match_has_result` when it has a result without deals (a final score). Also updates the
    given `match` object's score fields.
    """
    return _record_all(match, scores, by, change_reason="import", must_finish=False)


@transaction.atomic
def match_scorecard_record(*, match: Match, scores: list[rules.DealScore], by) -> list[Deal]:
    """Record a whole finished paper scorecard at once: `scores` (each from
    `rules.quick_result`, game points 0-3) become deals 1..n of `match`, which has none yet,
    in one locked transaction (the match row, as `deal_record`), with a history row per
    deal ("scorecard") and the match scored, finished and announced (`match_finished`) as if
    the deals had been entered one by one. Nothing is written on any error.

    Raises `rules.InvalidDeal` for the first deal that breaks the rules under the match's
    house rules (field `"deals[i]"`, `params["deal_number"]` = i + 1; `match_finished` for a
    deal after the end) and `RecordingError`: `scorecard_not_finished` (the deals do not
    reach the game target: `points_a`, `points_b`, `target`, `count`),
    `deal_already_entered` (the match has deals), `match_has_result` (it has a final score),
    `match_forfeited` / `match_unplayed` (closed by a withdrawal). A receiver may raise too
    (a round robin's `player_withdrawn`). docs/rules.md §6.
    """
    return _record_all(match, scores, by, change_reason="scorecard", must_finish=True)


@transaction.atomic
def match_final_score_record(*, match: Match, game_points_a: int, game_points_b: int,
                             by) -> Match:
    """Record only the final score of `match` (events that keep match results, no deals):
    `game_points_a` : `game_points_b` in game points, checked by `rules.final_score_valid`
    under the match's house rules; the match is finished with the player at the target as
    its winner and announced (`match_finished`), in one locked transaction, with a history
    row ("final score"). It has no deals.

    Raises `RecordingError`: `final_score_impossible` (`points_a`, `points_b`, `target`,
    `highest`) or, under `draw_carry_over`, `final_score_impossible_carry` (no highest);
    `deal_already_entered` (the match has deals), `match_has_result` (it is finished
    already: undo it first), `match_forfeited` / `match_unplayed`.
    """
    locked = _locked_and_empty(match)
    house_rules = locked.house_rules()
    if not rules.final_score_valid(game_points_a, game_points_b, house_rules):
        highest = rules.final_score_highest(house_rules)
        code = "final_score_impossible" if highest else "final_score_impossible_carry"
        raise RecordingError(
            code, points_a=game_points_a, points_b=game_points_b,
            target=house_rules.game_target, highest=highest,
        )
    locked.game_points_a, locked.game_points_b = game_points_a, game_points_b
    locked.status = Match.Status.FINISHED
    locked.winner = "A" if game_points_a > game_points_b else "B"
    locked.finished_at = timezone.now()
    locked._change_reason = "final score"
    locked._history_user = by
    locked.save()
    match_finished.send(sender=Match, match=locked)
    for name in ("game_points_a", "game_points_b", "status", "winner", "finished_at"):
        setattr(match, name, getattr(locked, name))
    return locked


@transaction.atomic
def match_final_score_undo(*, match: Match, by, confirmed: bool = False) -> Match:
    """Take back a final score entered without deals: the match is not started again, 0:0,
    and announced reopened (`match_reopened` with `confirmed`: a knockout whose winner has
    moved on may raise `ConfirmationRequired`, which rolls it back). History row "final
    score undone".

    Raises `RecordingError` `no_final_score` when the match has deals or no result,
    `match_forfeited` / `match_unplayed`.
    """
    locked = _locked(match)
    _refuse_if_closed(locked)
    if locked.status != Match.Status.FINISHED or locked.deals.exists():
        raise RecordingError("no_final_score")
    locked.game_points_a = locked.game_points_b = 0
    locked.status = Match.Status.SCHEDULED
    locked.winner = ""
    locked.finished_at = None
    locked._change_reason = "final score undone"
    locked._history_user = by
    locked.save()
    match_reopened.send(sender=Match, match=locked, confirmed=confirmed, by=by)
    return locked
