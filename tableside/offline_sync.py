"""What a phone's offline queue is answered when it sends the deals it kept
(`static/js/offline.js`).

A queued deal is posted like the quick form (`scoring.forms.DealQuickForm`: `number`, `winner`,
`reason`, `game_points`, or `draw`) to `matches:deal_sync` or `players:deal_sync`, which record
it with the same services as the form (`scoring.services.deal_record`,
`tableside.table_entry.table_deal_enter`), so the deal-number guard makes a resend
exactly-once. The answer is JSON, `{"result": ..., "number": n, "message": "..."}`, `result`
one of:

* `stored` (200) -- written now; `pending` (200) -- kept for the opponent's confirmation
  (`players_confirm_each`); `already_stored` (200) -- that deal was stored before, as sent
  (`scoring.services.deal_is_same`): nothing written, the phone drops it from its queue.
* `conflict` (409) -- deal `number` was entered otherwise meanwhile (another phone): `stored`
  is that version, `next_number` the deal the match is at. Nothing written; the phone shows both
  versions and its player decides.
* `refused` (409/422) -- the match cannot take it (over, closed, a rule broken): `message` says
  why; nothing written.
* `login` (403) -- the organiser's session is gone; the queue waits for a new login.

Stored, pending and already-stored answers carry the match's score (`score`: game points of A
and B), `next_number`, so the phone can check what it worked out itself, and `version`, the
match's version as it now stands (`live`: the page's region fetches its part at it, once).
"""

from django.http import JsonResponse
from django.utils.translation import gettext as _

from core.messages import user_message
from scoring.models import Deal, Match, reason_label

CONFLICT_CODES = {"deal_already_entered", "deal_pending"}


def _score(match_pk: int) -> dict:
    match = Match.objects.get(pk=match_pk)
    return {"score": [match.game_points_a, match.game_points_b],
            "next_number": match.deals.count() + 1, "version": match.version}


def stored(deal: Deal | None, number: int, match_pk: int) -> JsonResponse:
    """The answer for a deal written now, kept pending (`deal` None), or found stored as sent
    (`deal.already_stored`)."""
    if deal is None:
        result, message = "pending", _("Deal %(number)s is waiting for your opponent's "
                                       "confirmation.")
    elif deal.already_stored:
        result, message = "already_stored", _("Deal %(number)s was already stored.")
    else:
        result, message = "stored", _("Deal %(number)s saved.")
    return JsonResponse({"result": result, "number": number,
                         "message": message % {"number": number}, **_score(match_pk)})


def invalid(form) -> JsonResponse:
    """422: the queued deal does not make a deal (the form's first error)."""
    errors = [str(message) for messages in form.errors.values() for message in messages]
    return JsonResponse({"result": "refused", "number": form.data.get("number"),
                         "message": errors[0] if errors else ""}, status=422)


def refused(error, *, match: Match, number: int, pending: dict | None = None,
            status: int = 409) -> JsonResponse:
    """409 (or `status`): `conflict` when deal `number` was entered otherwise first (stored,
    or `pending` for the opponent's confirmation), with that version; else `refused`."""
    answer = {"result": "refused", "number": number, "message": user_message(error)}
    if getattr(error, "code", "") in CONFLICT_CODES:
        house_rules = match.house_rules()
        deal = match.deals.filter(number=number).first()
        version = pending if deal is None else {
            "number": number, "winner": deal.winner, "game_points": deal.game_points,
            "reason": deal.reason,
        }
        if version is not None:
            answer.update(result="conflict", stored={
                "number": version["number"],
                "winner_name": match.player(version["winner"]).name if version["winner"]
                else "",
                "game_points": version["game_points"],
                "reason_label": str(reason_label(version["reason"], house_rules)),
                "pending": deal is None,
            }, next_number=match.deals.count() + 1)
    return JsonResponse(answer, status=status)


def login_needed() -> JsonResponse:
    """403: the organiser is no longer logged in on this phone; nothing written."""
    return JsonResponse({"result": "login", "message": _(
        "Log in again to send the deals kept on this phone.")}, status=403)
