"""The record of a match's changes, for its organisers: each deal entered, imported,
corrected or undone, and the match forfeited or closed unplayed, with when, who and why.

django-simple-history keeps it (`Deal.history`, `Match.history`): `scoring.services` saves each
deal with `_history_user` and, for a correction, the organiser's reason as
`history_change_reason` ("undo", "import", "forfeit" mark the other changes). A history row
holds the deal as it was after the change ('+' and '~') or just before its deletion ('-'); what
a correction changed is the deal's previous row.
"""

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.models import Deal, Match, reason_label
from tableside.models import MatchEvent

ENTERED, IMPORTED, CORRECTED, UNDONE = "entered", "imported", "corrected", "undone"
FORFEITED, UNPLAYED = "forfeited", "unplayed"
FINAL_SCORE, FINAL_SCORE_UNDONE = "final_score", "final_score_undone"
"""A final score entered without deals, or taken back (`after` / `before`: "11:7"), in an
event that keeps only final scores (`scoring.services.match_final_score_record`)."""
TABLE = "table"
"""A step at the table or of the sign-off (`tableside.models.MatchEvent`): `after` is what
happened ("result signed"), `who` the player and seat (or the organiser) with the client's
address, `reason` the words of a dispute or the score signed."""


@dataclass(frozen=True)
class MatchChange:
    """One change of a match's record.

    `when`: an aware datetime (the page shows it in local time); `who`: the user's name, ""
    when nobody is known (a deal entered by a script); `kind`: one of `ENTERED`, `IMPORTED`,
    `CORRECTED`, `UNDONE` (of deal `number`), `FORFEITED`, `UNPLAYED` (the match; `number` is
    None). `before` / `after`: the deal as it read before and after the change, in the active
    language ("Иван +2 (66, loser under 33)"; "" where there is none: nothing before an entry,
    nothing after an undo). For `FORFEITED`, `after` names the winner. `reason`: the organiser's
    reason for a correction, "" otherwise.
    """

    when: datetime.datetime
    who: str
    kind: str
    number: int | None = None
    before: str = ""
    after: str = ""
    reason: str = ""


def match_history(match: Match) -> list[MatchChange]:
    """Every change of `match`'s deals (one query, the users joined), and, for a match closed
    by a withdrawal (`Match.CLOSED`), the closing (one more query); newest first.

    `match` should come with `player_a` and `player_b` (their names label the deals). The
    reasons are labelled in the active language under the match's house rules
    (`reason_label`)."""
    rows = (
        Deal.history.filter(match_id=match.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    names = {"A": match.player_a.name, "B": match.player_b.name}
    house_rules = match.house_rules()
    changes: list[MatchChange] = []
    last: dict[int, str] = {}  # deal id -> the deal as it last read
    for row in rows:
        now = _deal_text(row, names, house_rules)
        common = {"when": row.history_date, "who": _username(row), "number": row.number}
        if row.history_type == "+":
            kind = IMPORTED if row.history_change_reason == "import" else ENTERED
            changes.append(MatchChange(kind=kind, after=now, **common))
        elif row.history_type == "~":
            changes.append(MatchChange(
                kind=CORRECTED, before=last.get(row.id, ""), after=now,
                reason=row.history_change_reason or "", **common,
            ))
        else:
            changes.append(MatchChange(kind=UNDONE, before=now, **common))
        last[row.id] = now
    if match.is_closed:
        changes += _closing(match, names)
    if not last and match.status == Match.Status.FINISHED:  # a result without deals
        changes += _final_scores(match)
    changes += _table_events(match, names)
    changes.sort(key=lambda change: change.when)  # stable: the same instant keeps its order
    return changes[::-1]


def corrections(match: Match) -> list[MatchChange]:
    """The organiser's corrections of `match`'s deals (`CORRECTED`, each with its deal number,
    before, after and reason), newest first, as the players' pages show them. One query when
    there is none; `match_history`'s when there are. `match` with its players."""
    if not Deal.history.filter(match_id=match.pk, history_type="~").exists():
        return []
    return [change for change in match_history(match) if change.kind == CORRECTED]


def deal_entered(match: Match, deal: Deal, who) -> MatchChange:
    """The change `match_history` lists for `deal` entered just now by user `who` (None for
    nobody known), built from what the caller holds: no query. `match` with its players, as
    for `match_history`; `when` is the deal's `entered_at`."""
    names = {"A": match.player_a.name, "B": match.player_b.name}
    return MatchChange(
        when=deal.entered_at, who=who.get_username() if who is not None else "",
        kind=ENTERED, number=deal.number,
        after=_deal_text(deal, names, match.house_rules()),
    )


def _deal_text(row, names: dict[str, str], house_rules) -> str:
    """A deal (or its history row) as the history shows it, in the active language."""
    if not row.winner:
        return _("draw")
    # Translators: a deal as the history shows it: "Иван +2 (66, loser under 33)".
    return _("%(winner)s +%(points)s (%(reason)s)") % {
        "winner": names[row.winner], "points": row.game_points,
        "reason": reason_label(row.reason, house_rules),
    }


def _username(row) -> str:
    return row.history_user.get_username() if row.history_user_id else ""


def _closing(match: Match, names: dict[str, str]) -> list[MatchChange]:
    """The history row where the match became forfeited or unplayed (`Match.CLOSED`)."""
    rows = (
        Match.history.filter(id=match.pk, status__in=Match.CLOSED)
        .select_related("history_user")
        .order_by("history_date", "history_id")[:1]
    )
    return [
        MatchChange(
            when=row.history_date, who=_username(row),
            kind=FORFEITED if row.status == Match.Status.FORFEITED else UNPLAYED,
            after=names.get(row.winner, ""),
        )
        for row in rows
    ]


def _final_scores(match: Match) -> list[MatchChange]:
    """The final scores entered and taken back on `match` (one query)."""
    rows = (
        Match.history.filter(id=match.pk,
                             history_change_reason__in=["final score", "final score undone"])
        .select_related("history_user").order_by("history_date", "history_id")
    )
    changes, shown = [], ""
    for row in rows:
        common = {"when": row.history_date, "who": _username(row)}
        if row.history_change_reason == "final score":
            shown = f"{row.game_points_a}:{row.game_points_b}"
            changes.append(MatchChange(kind=FINAL_SCORE, after=shown, **common))
        else:
            changes.append(MatchChange(kind=FINAL_SCORE_UNDONE, before=shown, **common))
    return changes


def _table_events(match: Match, names: dict[str, str]) -> list[MatchChange]:
    """The match's steps at the table and of its sign-off (one query): who (the seat's
    player, or the organiser), from which address and which phone (the short label of its
    browser, `MatchEvent.device`), what. A seat the organiser freed names the organiser,
    then the seat and the phone that held it."""
    rows = MatchEvent.objects.filter(match_id=match.pk).select_related("user")
    changes = []
    for row in rows:
        seat = (_("%(name)s (seat %(seat)s)") % {"name": names[row.seat], "seat": row.seat}
                if row.seat else "")
        phone = _("phone %(label)s") % {"label": row.device} if row.device else ""
        after = str(row.get_kind_display())
        if row.user_id or not row.seat:
            who = row.user.get_username() if row.user_id else ""
            if seat:  # the organiser freed this seat, held by that phone
                after = " · ".join(part for part in (after, seat, phone) if part)
            who = " · ".join(part for part in (who, row.address or "") if part)
        else:
            if row.via == MatchEvent.Via.PASS:
                phone = _("pass of %(name)s") % {"name": names[row.seat]}
            elif row.via == MatchEvent.Via.CODE:
                phone = _("personal code of %(name)s") % {"name": names[row.seat]}
            who = " · ".join(part for part in (seat, row.address or "", phone) if part)
        changes.append(MatchChange(when=row.at, who=who, kind=TABLE, number=row.number,
                                   after=after, reason=row.text))
    return changes
