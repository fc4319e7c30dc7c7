"""Players enter their own match at the table: the secret link, the seats, the sign-off.

Who may enter an event's results is its `Tournament.entry_mode` (`EntryMode`):

* `organiser` -- only the organisers (the match page); the players' link answers 404.
* `players_sign` -- either player enters deals from the match's link; once the match reaches
  its target both players sign the result (or the organiser approves it), and only then is it
  final (`MatchTable.is_final`); until then the result is provisional.
* `players_confirm_each` -- a deal entered by one player waits (`MatchTable.pending`) until the
  other confirms it; the next deal waits for it. The result is final when the target is reached.
* `players_trusted` -- either player enters; no signatures.

The link (`/p/<token>/`, namespace `players:`) carries a token of 192 bits from `secrets`; the
database finds it by its SHA-256 (`MatchTable.token_hash`). The token is also kept in
`MatchTable.token`, because a scorecard printed (again) later and `manage.py entry_links` must
show the same link and a hash cannot give it back; whoever can read that column can already
change every result in the database. Renewing the link writes a new token: the old one then
finds nothing (404).

**Seats.** A seat is held by one browser: each browser that takes a seat gets a random device
id (`new_device_id`, 192 bits, in its cookie only); the table keeps its SHA-256
(`MatchTable.holder_a` / `holder_b`, `device_hash`). The first browser to take a seat holds it
(`seat_claim`); another browser cannot take it, and one browser cannot hold both. The organiser
frees a seat (`seat_free`); renewing the link frees both. Every step a phone takes for a seat
names the device it came from (`device`), and the step is refused unless that device holds the
seat (`seat_not_held`); a caller without a device (a script, a test) is not checked.

**Passes.** A player's pass (`passes`) opens the player's own matches with no seat to take:
its steps name it (`via`, `MatchEvent.Via.PASS`) and skip the holder check, the pass being
the seat. Once either player of a match has a pass, the match's link alone neither signs nor
confirms (`_refuse_link_if_passes`); at a table with one phone the opponent signs with their
personal code (`result_sign_with_code`).

**After a signature an undo needs the signer's consent.** Once either player has signed, or
one has disputed the result, a players' link neither enters, confirms nor undoes a deal
(`result_signed`, `result_disputed`): an organiser's correction changes the result, and clears
the signatures (`clear_sign_off_on_reopen`, which the history records). From a pass a player
of a signed result may ask to undo the last deal (`undo_ask`; a new deal after a signature
always needs that undo first, the target being reached): when the only signature is the
asker's own, the deal is undone at once and the signature goes with it; otherwise the request
waits (`MatchTable.undo_asked_by`, `undo_number`) for the other signer, who allows it from
their pass or with their personal code on the asker's phone (`undo_allow`,
`undo_allow_with_code`: the deal is undone, both signatures go) or refuses it (`undo_refuse`;
the asker may withdraw it the same way). Nobody else clears a signature: not the match's link
(`undo_needs_pass`), not the asker (`undo_own_request`), not another phone of the asker's
pass. One request waits at a time; a newer last deal, an organiser's correction, a dispute or
an approval drops it; a disputed result stays the organiser's. Every request, consent, refusal
and withdrawal is a `MatchEvent` naming the pass or the code (`via`). When both
signatures come from one device or one address, `MatchTable.signed_alike` says so and the
control room marks the match until an organiser approves it.

Every write runs in one transaction with the match row locked first (the lock order of
`events.services.tournament_lock`), then the match's `MatchTable` row; deals go through
`scoring.services.deal_record` / `deal_undo_last` (their deal-number guard tells the second of
two phones that the deal is already in). Each change appends a `MatchEvent` (seat or organiser,
time, client address). Refusals are `TableError(code, **params)`: nothing written, the sentence
in `core.messages`.
"""

import hashlib
import ipaddress
import secrets
from dataclasses import asdict

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone

from core.text import clean_text
from events.models import EntryMode, Tournament
from passes.errors import PassError
from passes.models import CodeTries, PlayerPass
from passes.services import (
    CODE_TRIES,
    code_matches,
    pass_device,
    players_have_passes,
    valid_pass_of,
)
from scoring import rules
from scoring import services as scoring_services
from scoring.errors import ConfirmationRequired, RecordingError
from scoring.models import Deal, Match
from tableside.errors import TableError
from tableside.models import MatchEvent, MatchTable, RetiredLink

TOKEN_BYTES = 24
"""192 bits from `secrets.token_urlsafe`: 32 URL-safe characters."""
DEVICE_BYTES = 24
"""A browser's device id: 192 bits from `secrets.token_urlsafe` (`new_device_id`)."""
DEVICE_LABEL = 8
"""The hex characters of a device's hash a table event keeps (`device_label`)."""
PLAYER_MODES = (
    EntryMode.PLAYERS_SIGN, EntryMode.PLAYERS_CONFIRM_EACH, EntryMode.PLAYERS_TRUSTED,
)
"""The modes in which the players' link works."""

PROVISIONAL, AWAITING, DISPUTED, FINAL = "provisional", "awaiting", "disputed", "final"
NOT_STARTED, PLAYING = "not_started", "playing"
"""With the four above, the states of `match_state` (the organiser's control room)."""
APPROVABLE = (AWAITING, DISPUTED)
"""The result states an organiser approves (`result_approve`); any other is refused."""




DISPUTE_LIMIT = MatchTable._meta.get_field("dispute").max_length
"""The longest dispute text a player may send (500 characters)."""


def token_hash(token: str) -> str:
    """The SHA-256 of `token` (hex, 64 characters): what the database looks the link up by."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_device_id() -> str:
    """A new random device id for a browser (192 bits, URL-safe): kept in its cookie only."""
    return secrets.token_urlsafe(DEVICE_BYTES)


def device_hash(device_id: str) -> str:
    """The SHA-256 (hex) of a browser's device id: what a held seat keeps."""
    return token_hash(device_id)


def device_label(device: str) -> str:
    """The short label of device hash `device` that the history keeps and shows: its first
    `DEVICE_LABEL` hex characters (no way back to the id), "" for none."""
    return device[:DEVICE_LABEL]


def other_seat(seat: str) -> str:
    return "B" if seat == "A" else "A"


def entry_mode_of(match: Match) -> str:
    """The `EntryMode` value of `match`'s event (one query); `organiser` for a match outside
    any event."""
    mode = (
        Tournament.objects.filter(rounds__pairings__match=match)
        .values_list("entry_mode", flat=True).first()
    )
    return mode or EntryMode.ORGANISER


def event_of_match(match_pk: int) -> tuple[str, str]:
    """(`EntryMode` value, language code) of the event of match `match_pk` (one query);
    (`organiser`, the site's `LANGUAGE_CODE`) for a match outside any event."""
    row = (
        Tournament.objects.filter(rounds__pairings__match_id=match_pk)
        .values_list("entry_mode", "language").first()
    )
    return row or (EntryMode.ORGANISER, settings.LANGUAGE_CODE)


def players_may_enter(mode: str) -> bool:
    """Whether the players' link works under `mode` (an `EntryMode` value)."""
    return mode in PLAYER_MODES


def table_of(match: Match) -> MatchTable:
    """`match`'s `MatchTable`, made with a new link the first time it is asked for (two
    callers at once: one row, both get it)."""
    table = MatchTable.objects.filter(match_id=match.pk).first()
    if table is not None:
        return table
    token = secrets.token_urlsafe(TOKEN_BYTES)
    try:
        with transaction.atomic():
            return MatchTable.objects.create(match=match, token=token,
                                             token_hash=token_hash(token))
    except IntegrityError:
        return MatchTable.objects.get(match_id=match.pk)


def tables_of(match_ids) -> dict[int, MatchTable]:
    """The `MatchTable`s made so far of the matches `match_ids` (primary keys), by match
    primary key: one query (a match without one is left out; `table_of` makes it)."""
    return {table.match_id: table for table in MatchTable.objects.filter(match_id__in=match_ids)}


def entry_path(match: Match, table: MatchTable | None = None) -> str:
    """The path of `match`'s players' link (`players:match`), made if need be; `table`:
    its `MatchTable` when the caller has read it already (no query then)."""
    return reverse("players:match", args=[(table or table_of(match)).token])


def table_for_token(token: str) -> MatchTable | None:
    """The `MatchTable` whose link carries `token` (its match and players read along), or
    None: no such link (wrong, renewed, or another site's), or the event's mode does not let
    players enter (`players_may_enter`). Looked up by `token_hash` only. The table carries
    its event's language as `event_language` (the pages of the link speak it) and its entry
    mode as `entry_mode`, and whether either player has a pass that opens as
    `passes_in_use` (`passes.services.players_have_passes`, in the same query)."""
    table = (
        MatchTable.objects.select_related("match__player_a", "match__player_b")
        .annotate(passes_in_use=models.Exists(PlayerPass.objects.filter(
            models.Q(player_id=models.OuterRef("match__player_a_id"))
            | models.Q(player_id=models.OuterRef("match__player_b_id")),
            revoked_at__isnull=True)))
        .filter(token_hash=token_hash(token)).first()
    )
    if table is None:
        return None
    mode, table.event_language = event_of_match(table.match_id)
    table.entry_mode = mode
    if not players_may_enter(mode):
        return None
    return table


def result_state(match: Match, mode: str, table: MatchTable | None) -> str:
    """How `match`'s result counts under `mode`: "" (no result yet, or nothing to sign),
    `FINAL` (signed by both, or approved), `AWAITING` (players_sign: the players entered it
    and not both have signed), `DISPUTED` (a player disputed it). Standings count a finished
    match either way; the pages show a result that is not final as provisional."""
    if match.status != Match.Status.FINISHED or table is None:
        return ""
    if table.is_final:
        return FINAL
    if table.disputed_by:
        return DISPUTED
    if mode == EntryMode.PLAYERS_SIGN and table.players_entered:
        return AWAITING
    return ""


NOT_FINAL = (
    models.Q(approved_at__isnull=True)
    & (models.Q(players_entered=True) | ~models.Q(disputed_by=""))
    & ~models.Q(signed_a__isnull=False, signed_b__isnull=False)
)
"""The `MatchTable` rows of a `players_sign` result that is not final: the players entered it
(or one disputed it), not both have signed, the organiser has not approved it -- in SQL, what
`result_state` calls `AWAITING` or `DISPUTED`."""


def counts_provisionally(mode: str) -> bool:
    """Whether an event under `mode` (an `EntryMode` value) can have a provisional result:
    only `players_sign` (the signatures make a result final). Under `players_confirm_each` the
    opponent confirms each deal, so the result is final when the target is reached; under
    `players_trusted` and `organiser` a finished match is final."""
    return mode == EntryMode.PLAYERS_SIGN


def provisional_matches(tournament: Tournament, matches=None) -> set[int]:
    """The ids, among `matches` (finished or not; None: every match of `tournament`), of the
    results that are not final under the event's mode (`NOT_FINAL`): `players_sign` results
    the players entered and have not both signed (nor the organiser approved), and disputed
    ones. One query; none under the other modes. The pages mark them provisional; standings
    count them and a knockout advances their winner all the same."""
    return set(provisional_results(tournament, matches))


def provisional_results(
    tournament: Tournament, matches=None
) -> dict[int, tuple[int | None, int | None]]:
    """`provisional_matches` with each match's two entry ids (the pairing's seats A and B):
    {match id: (entry_a id, entry_b id)}, for the standings to mark both players' rows. One
    query (none when the mode has no provisional result); `matches` as in
    `provisional_matches`."""
    if not counts_provisionally(tournament.entry_mode):
        return {}
    tables = MatchTable.objects.filter(NOT_FINAL, match__status=Match.Status.FINISHED,
                                       match__pairing__round__tournament=tournament)
    if matches is not None:
        ids = [match.pk for match in matches if match.status == Match.Status.FINISHED]
        if not ids:
            return {}
        tables = tables.filter(match_id__in=ids)
    rows = tables.values_list("match_id", "match__pairing__entry_a_id",
                              "match__pairing__entry_b_id")
    return {match_id: (entry_a, entry_b) for match_id, entry_a, entry_b in rows}


def match_state(match: Match, mode: str, table: MatchTable | None) -> str:
    """Where `match` stands for the organiser's control room, under `mode` (an `EntryMode`
    value): `NOT_STARTED` (no deal, none waiting for confirmation), `PLAYING` (a deal entered
    or waiting, not over), then for a match that is over its `result_state` -- `AWAITING`,
    `DISPUTED` -- or else `FINAL` (signed, approved, or needing no signature: entered by the
    organisers, under `players_trusted` or `players_confirm_each`, a forfeit, unplayed)."""
    if not match.is_over:
        waiting = table is not None and table.pending
        if match.status == Match.Status.SCHEDULED and not waiting:
            return NOT_STARTED
        return PLAYING
    return result_state(match, mode, table) or FINAL


def unsettled_match_ids(tournament: Tournament) -> models.QuerySet:
    """The ids of `tournament`'s results waiting for the organiser (`APPROVABLE`: waiting for
    the signatures, or disputed), as a subquery: the finished matches whose table is
    `NOT_FINAL`, under a mode where results are signed (`counts_provisionally`; a dispute is
    offered only there). The same decision as `result_state` and `provisional_results`."""
    if not counts_provisionally(tournament.entry_mode):
        return Match.objects.none().values("pk")
    return Match.objects.filter(
        pairing__round__tournament=tournament, status=Match.Status.FINISHED,
        table__in=MatchTable.objects.filter(NOT_FINAL),
    ).values("pk")




# --------------------------------------------------------------------------------------------
# Writes
# --------------------------------------------------------------------------------------------


def _locked(match_pk: int) -> tuple[Match, MatchTable, str]:
    """The match row, then its table row, locked (in that order); and the event's mode."""
    match = scoring_services.match_locked(
        Match.objects.select_related("player_a", "player_b").filter(pk=match_pk))
    if match is None:
        raise TableError("match_removed")
    table_of(match)
    table = MatchTable.objects.select_for_update().get(match_id=match_pk)
    return match, table, entry_mode_of(match)


def _log(match: Match, kind: str, *, seat: str = "", user=None, number=None, text: str = "",
         address: str | None = None, device: str | None = None, via: str = "") -> None:
    """Append a `MatchEvent`; `device`: the acting (or, for a seat freed, the former holder's)
    device hash, kept as its `device_label` only; `via`: `MatchEvent.Via` (a pass, a code)."""
    MatchEvent.objects.create(match=match, kind=kind, seat=seat, user=user, number=number,
                              text=text[:500], address=address or None,
                              device=device_label(device or ""), via=via)


def _refuse_if_locked(table: MatchTable, mode: str) -> None:
    if not players_may_enter(mode):
        raise TableError("players_may_not_enter")
    if table.is_final:
        raise TableError("result_final")


def _refuse_unless_holder(table: MatchTable, seat: str, device: str | None,
                          via: str = "") -> None:
    """A phone acts only for the seat its browser holds (`device`: its device hash; None: a
    caller that is no phone, not checked). A step from a player's pass (`via`) is that
    player's seat by the pass itself: no browser holds it."""
    if via:
        return
    if device is not None and (not device or table.holder(seat) != device):
        raise TableError("seat_not_held")


def _refuse_if_signed(table: MatchTable) -> None:
    """After a signature, or a dispute, the phones change no deal: the organiser does."""
    if table.signed_any:
        raise TableError("result_signed")
    if table.disputed_by:
        raise TableError("result_disputed")


@transaction.atomic
def seat_claim(*, match: Match, seat: str, device: str,
               address: str | None = None) -> MatchTable:
    """The browser of device hash `device` takes `seat` ("A"/"B") of `match` and holds it
    from now on. Taking the seat it holds again writes nothing. Raises `TableError`
    (`players_may_not_enter`; `seat_taken`: another browser holds it; `seat_other_held`: this
    browser holds the other seat -- one browser plays one seat)."""
    if not device:
        raise ValueError("seat_claim needs the browser's device hash")
    match, table, mode = _locked(match.pk)
    if not players_may_enter(mode):
        raise TableError("players_may_not_enter")
    holder = table.holder(seat)
    if holder == device:
        return table
    if holder:
        raise TableError("seat_taken", name=match.player(seat).name)
    if table.holder(other_seat(seat)) == device:
        raise TableError("seat_other_held", name=match.player(other_seat(seat)).name)
    field = "holder_a" if seat == "A" else "holder_b"
    setattr(table, field, device)
    table.save(update_fields=[field])
    _log(match, MatchEvent.Kind.CLAIMED, seat=seat, address=address, device=device)
    return table


@transaction.atomic
def seat_free(*, match: Match, seat: str, by, address: str | None = None) -> MatchTable:
    """An organiser (`by`) frees `seat` of `match`: the next browser to take it holds it (a
    player's phone died, or a wrong phone took it). A free seat stays free and nothing is
    written. Raises `TableError` (`players_may_not_enter`)."""
    match, table, mode = _locked(match.pk)
    if not players_may_enter(mode):
        raise TableError("players_may_not_enter")
    holder = table.holder(seat)
    if not holder:
        return table
    field = "holder_a" if seat == "A" else "holder_b"
    setattr(table, field, "")
    table.save(update_fields=[field])
    _log(match, MatchEvent.Kind.FREED, seat=seat, user=by, address=address, device=holder)
    return table


@transaction.atomic
def table_deal_enter(*, match: Match, seat: str, score: rules.DealScore,
                     details: rules.DealRecord | None = None, number: int,
                     address: str | None = None, device: str | None = None,
                     via: str = "") -> Deal | None:
    """A player (`seat`, "A"/"B") enters deal `number` of `match` from the link: recorded at
    once (`scoring.services.deal_record`, returned), or, under `players_confirm_each`, kept as
    the pending deal for the opponent to confirm (None returned).

    The same deal sent again (a phone's offline queue resending) is no error and writes
    nothing: the stored deal comes back with `already_stored` set, or None while it is still
    the pending deal (`scoring.services.deal_is_same`).

    Raises `TableError` (`players_may_not_enter`; `seat_not_held`: `device` does not hold
    `seat`; `result_final`: signed or approved; `result_signed` / `result_disputed`: a player
    has signed or disputed it, so only the organiser changes it; `deal_pending`: another deal
    waits for the opponent's confirmation),
    `scoring.services.RecordingError` (`deal_already_entered`: the other phone entered deal
    `number` otherwise first -- a conflict, ...)
    and `rules.InvalidDeal`."""
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    _refuse_if_signed(table)
    if table.pending:
        if _pending_is(table.pending, number, score, details):  # sent again: still pending
            return None
        raise TableError("deal_pending", number=table.pending["number"])
    if mode == EntryMode.PLAYERS_CONFIRM_EACH:
        count = match.deals.count()
        if not 1 <= number <= count + 1:
            raise RecordingError("deal_number_out_of_range", number=number, count=count,
                                 next_number=count + 1)
        if number != count + 1:
            stored = match.deals.get(number=number)
            if scoring_services.deal_is_same(stored, score, details):  # confirmed meanwhile
                stored.already_stored = True
                return stored
            raise RecordingError("deal_already_entered", number=number,
                                 next_number=count + 1, entered_by="")
        rules.score_match([*match.deal_scores(), score], match.house_rules(), match.first_dealer)
        table.pending = {
            "number": number, "winner": score.winner or "", "game_points": score.game_points,
            "reason": score.reason, "seat": seat, "device": device or "",
            "details": None if details is None else _details(details),
        }
        table.save(update_fields=["pending"])
        _log(match, MatchEvent.Kind.PENDING, seat=seat, number=number, address=address,
             device=device, via=via)
        return None
    deal = scoring_services.deal_record_locked(match=match, score=score, details=details,
                                               by=None, number=number)
    if deal.already_stored:  # a resend (`scoring.services.deal_is_same`): nothing new
        return deal
    table.players_entered = True
    table.save(update_fields=["players_entered"])
    _log(match, MatchEvent.Kind.DEAL, seat=seat, number=deal.number, address=address,
         device=device, via=via)
    return deal


def _pending_is(pending: dict, number: int, score: rules.DealScore,
                details: rules.DealRecord | None) -> bool:
    """Whether the pending deal is deal `number` as `score` (and `details`) describe it."""
    same = (pending["number"], pending["winner"] or None, pending["game_points"],
            pending["reason"]) == (number, score.winner or None, score.game_points, score.reason)
    return same and (details is None or pending.get("details") == _details(details))


def _details(details: rules.DealRecord) -> dict:
    return asdict(details)


@transaction.atomic
def table_deal_confirm(*, match: Match, seat: str, number: int, address: str | None = None,
                       device: str | None = None, via: str = "") -> Deal:
    """The opponent (`seat`, on the browser of device hash `device` that holds it) confirms
    the pending deal `number` (`players_confirm_each`): it is recorded (`deal_record`) and
    returned. Never by the seat, nor the browser, that entered it.

    Raises `TableError` (`no_pending_deal`: none waits, or another number;
    `confirm_own_deal`: `seat` or `device` entered it; `seat_not_held`,
    `players_may_not_enter`, `result_final`, `result_signed`, `result_disputed`) and
    `PassError` (`sign_needs_pass`)."""
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    _refuse_if_signed(table)
    _refuse_link_if_passes(match, device, via)
    pending = table.pending
    if not pending or pending["number"] != number:
        raise TableError("no_pending_deal", number=number)
    if pending["seat"] == seat or (device and pending.get("device") == device):
        raise TableError("confirm_own_deal", number=number)
    score = rules.DealScore(winner=pending["winner"] or None, game_points=pending["game_points"],
                            totals=None, reason=pending["reason"])
    details = rules.DealRecord(**pending["details"]) if pending.get("details") else None
    deal = scoring_services.deal_record_locked(match=match, score=score, details=details,
                                               by=None, number=number)
    table.pending = None
    table.players_entered = True
    table.save(update_fields=["pending", "players_entered"])
    _log(match, MatchEvent.Kind.CONFIRMED, seat=seat, number=number, address=address,
         device=device, via=via)
    return deal


@transaction.atomic
def table_deal_reject(*, match: Match, seat: str, number: int,
                      address: str | None = None, device: str | None = None, via: str = "") -> None:
    """Either player drops the pending deal `number` (the opponent disagrees, or its author
    mistyped): nothing was recorded, the deal is entered again. Raises `TableError`
    (`no_pending_deal`, `seat_not_held`, `players_may_not_enter`, `result_final`,
    `result_signed`, `result_disputed`)."""
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    _refuse_if_signed(table)
    if not table.pending or table.pending["number"] != number:
        raise TableError("no_pending_deal", number=number)
    table.pending = None
    table.save(update_fields=["pending"])
    _log(match, MatchEvent.Kind.REJECTED, seat=seat, number=number, address=address,
         device=device, via=via)


@transaction.atomic
def table_deal_undo(*, match: Match, seat: str, number: int,
                    address: str | None = None, device: str | None = None, via: str = "") -> Deal:
    """A player (`seat`) undoes the last deal, `number` (`scoring.services.deal_undo_last`),
    while nobody has signed or disputed the result (then only the organiser changes it, so a
    signature is never lost to a player's undo). Raises `TableError`
    (`players_may_not_enter`, `seat_not_held`, `result_final`, `result_signed`,
    `result_disputed`, `deal_pending`: a deal waits for confirmation; drop it first) and
    `RecordingError` (`undo_not_last`, `no_deal_to_undo`, `ConfirmationRequired`: the undo would
    undo a knockout's later results -- the organiser's to do)."""
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    _refuse_if_signed(table)
    if table.pending:
        raise TableError("deal_pending", number=table.pending["number"])
    deal = scoring_services.deal_undo_last(match=match, by=None, number=number)
    _log(match, MatchEvent.Kind.UNDO, seat=seat, number=deal.number, address=address,
         device=device, via=via)
    return deal


# --------------------------------------------------------------------------------------------
# An undo after a signature: the signer's consent
# --------------------------------------------------------------------------------------------


def _refuse_undo_unless_open(match: Match, table: MatchTable, mode: str, via: str) -> None:
    """What an undo after a signature asks of the step and the result: a pass or a personal
    code (`undo_needs_pass`), a signed result the organiser has not approved nor anyone
    disputed."""
    if not players_may_enter(mode):
        raise TableError("players_may_not_enter")
    if via not in (MatchEvent.Via.PASS, MatchEvent.Via.CODE):
        raise TableError("undo_needs_pass")
    if table.approved_at:
        raise TableError("result_final")
    if table.disputed_by:
        raise TableError("result_disputed")


def undo_request(table: MatchTable, last_number: int | None) -> tuple[str, int] | None:
    """The undo waiting for a signer's consent at `table`: (the asker's seat, the deal's
    number), or None when none waits or it no longer names the last deal (`last_number`: the
    match's last deal number, None for no deal)."""
    if table.undo_asked_by and table.undo_number and table.undo_number == last_number:
        return table.undo_asked_by, table.undo_number
    return None


def _drop_undo_request(table: MatchTable) -> None:
    table.undo_asked_by, table.undo_number = "", None
    table.save(update_fields=["undo_asked_by", "undo_number"])


@transaction.atomic
def undo_ask(*, match: Match, seat: str, number: int, address: str | None = None,
             device: str | None = None, via: str = "") -> Deal | None:
    """After a signature, the player in `seat`, from their pass (`via` `PASS`), asks to undo
    the last deal, `number` (the one their page showed). When no signature but their own
    stands, the deal is undone at once (`scoring.services.deal_undo_last`): their signature
    goes with the result it signed (`clear_sign_off_on_reopen`), and the undone deal is
    returned. Otherwise the request waits for the other signer's consent (`undo_allow`,
    `undo_refuse`) and None is returned; a newer request replaces none: one waits at a time.

    Raises `TableError` (`undo_needs_pass`: not from a pass; `undo_waiting`: a request waits
    already; `undo_no_pass`: the other signer has no pass to allow it with; `result_final`:
    approved by the organiser, or the undo would undo a knockout's later results;
    `result_disputed`, `players_may_not_enter`) and `RecordingError` (`undo_not_last`,
    `no_deal_to_undo`, `undo_number_out_of_range`)."""
    match, table, mode = _locked(match.pk)
    _refuse_undo_unless_open(match, table, mode, via)
    if via != MatchEvent.Via.PASS:
        raise TableError("undo_needs_pass")
    last = match.deals.order_by("-number").values_list("number", flat=True).first()
    if table.undo_asked_by and undo_request(table, last) is None:
        _drop_undo_request(table)  # a request for a deal that is no longer the last one
    if undo_request(table, last) is not None:
        raise TableError("undo_waiting", name=match.player(table.undo_asked_by).name,
                         number=table.undo_number)
    other = other_seat(seat)
    if table.pending:
        raise TableError("deal_pending", number=table.pending["number"])
    if not table.signed(other):
        return _undo_now(match, number=number, seat=seat, kind=MatchEvent.Kind.UNDO,
                         address=address, device=device, via=via)
    if last is None:
        raise RecordingError("no_deal_to_undo")
    if number != last:
        if not 1 <= number <= last + 1:
            raise RecordingError("undo_number_out_of_range", number=number, count=last)
        raise RecordingError("undo_not_last", number=number, last_number=last)
    if valid_pass_of(match.player(other).pk) is None:
        raise TableError("undo_no_pass", name=match.player(other).name)
    table.undo_asked_by, table.undo_number = seat, number
    table.save(update_fields=["undo_asked_by", "undo_number"])
    _log(match, MatchEvent.Kind.UNDO_ASKED, seat=seat, number=number, address=address,
         device=device, via=via, text=f"{match.game_points_a}:{match.game_points_b}")
    return None


def _undo_now(match: Match, *, number: int, seat: str, kind: str, address: str | None,
              device: str | None, via: str) -> Deal:
    """Undo the last deal, `number`, in the caller's transaction and log it as `kind`; the
    signatures go with the result (`match_reopened` -> `clear_sign_off_on_reopen`). A
    knockout's later results stay the organiser's (`result_final`)."""
    # Logged first: the history reads "undo allowed", then "signatures cleared".
    _log(match, kind, seat=seat, number=number, address=address, device=device, via=via,
         text=f"{match.game_points_a}:{match.game_points_b}")
    try:
        return scoring_services.deal_undo_last(match=match, by=None, number=number)
    except ConfirmationRequired:
        raise TableError("result_final") from None


def _consent_checked(match: Match, table: MatchTable, seat: str, number: int) -> None:
    """The player in `seat` may answer the request for deal `number`: it waits, names that
    deal, and they are the other signer, not its asker."""
    last = match.deals.order_by("-number").values_list("number", flat=True).first()
    waiting = undo_request(table, last)
    if waiting is None or waiting[1] != number:
        raise TableError("undo_request_gone", number=number)
    if waiting[0] == seat:
        raise TableError("undo_own_request", name=match.player(other_seat(seat)).name)
    if not table.signed(seat):
        raise TableError("undo_request_gone", number=number)


@transaction.atomic
def undo_allow(*, match: Match, seat: str, number: int, address: str | None = None,
               device: str | None = None, via: str = "") -> Deal:
    """The other signer (`seat`, from their pass, or with their personal code: `via`) allows
    the undo of deal `number` their opponent asked for: the deal is undone
    (`scoring.services.deal_undo_last`), both signatures go (`clear_sign_off_on_reopen`),
    the request is dropped and the history says who allowed it. Returns the undone deal.
    Raises `TableError` (`undo_needs_pass`; `undo_request_gone`: no request for that deal
    waits; `undo_own_request`: `seat` asked for it, so the other player allows it;
    `result_final`, `result_disputed`, `players_may_not_enter`)."""
    match, table, mode = _locked(match.pk)
    _refuse_undo_unless_open(match, table, mode, via)
    _consent_checked(match, table, seat, number)
    _drop_undo_request(table)
    return _undo_now(match, number=number, seat=seat, kind=MatchEvent.Kind.UNDO_ALLOWED,
                     address=address, device=device, via=via)


@transaction.atomic
def undo_refuse(*, match: Match, seat: str, number: int, address: str | None = None,
                device: str | None = None, via: str = "") -> None:
    """The request to undo deal `number` is dropped: refused by the other signer (`seat`,
    from their pass), or withdrawn by its asker. Nothing else changes. Raises `TableError`
    (`undo_needs_pass`, `undo_request_gone`, `result_final`, `result_disputed`,
    `players_may_not_enter`)."""
    match, table, mode = _locked(match.pk)
    _refuse_undo_unless_open(match, table, mode, via)
    if via != MatchEvent.Via.PASS:
        raise TableError("undo_needs_pass")
    last = match.deals.order_by("-number").values_list("number", flat=True).first()
    waiting = undo_request(table, last)
    if waiting is None or waiting[1] != number:
        raise TableError("undo_request_gone", number=number)
    kind = MatchEvent.Kind.UNDO_DROPPED if waiting[0] == seat else MatchEvent.Kind.UNDO_REFUSED
    _drop_undo_request(table)
    _log(match, kind, seat=seat, number=number, address=address, device=device, via=via)


def undo_allow_with_code(*, match: Match, seat: str, number: int, code: str,
                         address: str | None = None) -> Deal:
    """At a table with one phone, the other signer (`seat`) allows the undo of deal `number`
    on the asker's pass page with their own personal code; the wrong codes count with those
    of the signatures (`passes.models.CodeTries`, `CODE_TRIES` per match). Raises `PassError`
    (`code_missing`, `code_wrong`, `code_tries_used`) and whatever `undo_allow` raises."""
    return _with_personal_code(match, seat, code, lambda locked, device: undo_allow(
        match=locked, seat=seat, number=number, address=address, device=device,
        via=MatchEvent.Via.CODE))


def _refuse_link_if_passes(match: Match, device: str | None, via: str) -> None:
    """Once passes are in use at `match` (either player has one), a signature or a
    confirmation comes from a pass (or the personal code, or the organiser), never from the
    table's link alone: a phone that scanned the scorecard follows the match and enters deals,
    and its result waits (`sign_needs_pass`). A caller that is no phone (`device` None) is not
    checked."""
    if not via and device is not None and players_have_passes(
            (match.player_a_id, match.player_b_id)):
        raise PassError("sign_needs_pass")


def _refuse_unless_over(match: Match) -> None:
    if match.status != Match.Status.FINISHED:
        target = match.house_rules().game_target
        raise TableError("sign_before_end", points_a=match.game_points_a,
                         points_b=match.game_points_b, target=target)


@transaction.atomic
def result_sign(*, match: Match, seat: str, address: str | None = None,
                device: str | None = None, via: str = "") -> MatchTable:
    """The player in `seat` (on the browser of device hash `device`) signs `match`'s result
    (`players_sign`); when both have, the result is final, and `MatchTable.signed_alike` says
    whether both signatures came from one device or one address (`_signed_alike`). Raises
    `TableError` (`sign_before_end`: the target is not reached; `sign_twice`: `seat` has
    signed; `result_disputed`: `seat` disputed it, the organiser settles it; `result_final`;
    `sign_not_needed`: the event's mode asks for no signatures; `seat_not_held`;
    `players_may_not_enter`) and `PassError` (`sign_needs_pass`: a phone on the match's link
    while passes are in use at the match). `via`: `MatchEvent.Via`, the step's origin (a pass
    or a personal code: no browser need hold the seat)."""
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    if mode != EntryMode.PLAYERS_SIGN:
        raise TableError("sign_not_needed")
    _refuse_link_if_passes(match, device, via)
    _refuse_unless_over(match)
    if table.signed(seat):
        raise TableError("sign_twice", points_a=match.game_points_a,
                         points_b=match.game_points_b)
    if table.disputed_by == seat:
        raise TableError("result_disputed")
    setattr(table, "signed_a" if seat == "A" else "signed_b", timezone.now())
    if table.signed(other_seat(seat)) and via != MatchEvent.Via.CODE:
        # A personal code typed on the other player's phone is that player's own word.
        table.signed_alike = _signed_alike(match, other_seat(seat), device, address)
    table.save(update_fields=["signed_a", "signed_b", "signed_alike"])
    _log(match, MatchEvent.Kind.SIGNED, seat=seat, address=address, device=device, via=via,
         text=f"{match.game_points_a}:{match.game_points_b}")
    return table


def result_sign_with_code(*, match: Match, seat: str, code: str,
                          address: str | None = None) -> MatchTable:
    """At a table with one phone, the player in `seat` signs `match`'s result on the other
    player's pass page with their own 4-digit personal code (`passes.services.code_matches`).
    A wrong code is counted (`passes.models.CodeTries`, kept even though the step is refused);
    after `CODE_TRIES` wrong ones the code signs nothing at this match: the organiser settles
    it. Raises `PassError` (`code_missing`, `code_wrong` with the tries `left`,
    `code_tries_used`) and whatever `result_sign` raises."""
    return _with_personal_code(match, seat, code, lambda locked, device: result_sign(
        match=locked, seat=seat, address=address, device=device, via=MatchEvent.Via.CODE))


def _with_personal_code(match: Match, seat: str, code: str, step):
    """`step(match, device)` for the player in `seat` when `code` is their personal code
    (`match` locked, `device` their pass's). A wrong code is counted (`CodeTries`, kept though
    the step is refused); after `CODE_TRIES` of them nothing is allowed by code at this match.
    Raises `PassError` (`code_missing`, `code_wrong` with the tries `left`,
    `code_tries_used`)."""
    name = match.player(seat).name
    if not (code or "").strip():
        raise PassError("code_missing", name=name)
    with transaction.atomic():
        match, _table, _mode = _locked(match.pk)
        tries, _made = CodeTries.objects.select_for_update().get_or_create(match_id=match.pk)
        if tries.wrong >= CODE_TRIES:
            raise PassError("code_tries_used")
        player_pass = valid_pass_of(match.player(seat).pk)
        if player_pass is not None and code_matches(player_pass, code):
            return step(match, pass_device(player_pass))
        tries.wrong += 1
        tries.save(update_fields=["wrong"])
        left = CODE_TRIES - tries.wrong
    if left <= 0:
        raise PassError("code_tries_used")
    raise PassError("code_wrong", name=name, left=left)


def _signed_alike(match: Match, first_seat: str, device: str | None,
                  address: str | None) -> str:
    """Whether the signature being given (from `device`, `address`) came from the same
    device (`MatchTable.Alike.DEVICE`) or the same address (`ADDRESS`) as `first_seat`'s,
    the newest signature of that seat in the log (one query); "" when neither, or unknown."""
    first = (MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.SIGNED,
                                       seat=first_seat).order_by("-at", "-pk").first())
    if first is None:
        return ""
    if device and first.device == device_label(device):
        return MatchTable.Alike.DEVICE
    if address and first.address and _same_address(first.address, address):
        return MatchTable.Alike.ADDRESS
    return ""


def _same_address(one: str, other: str) -> bool:
    try:
        return ipaddress.ip_address(one) == ipaddress.ip_address(other)
    except ValueError:
        return one == other


@transaction.atomic
def result_dispute(*, match: Match, seat: str, text: str,
                   address: str | None = None, device: str | None = None,
                   via: str = "") -> MatchTable:
    """The player in `seat` disputes `match`'s result, saying why (`text`, up to
    `DISPUTE_LIMIT` characters of plain text, several lines allowed: `core.text.clean_text`);
    the organiser resolves it (`result_approve`, after a correction if need be).
    A player who had signed withdraws that signature by disputing; once disputed, the phones
    change no deal (`result_disputed`). Raises `TableError` (`dispute_text_missing`,
    `sign_before_end`, `result_final`, `seat_not_held`, `players_may_not_enter`;
    `dispute_not_offered`: the event's mode signs no result, so a player tells the organiser
    instead), or `ValidationError` for a text `clean_text` refuses (the players' page checks
    it first, with `tableside.forms.DisputeForm`)."""
    text = clean_text(text, max_length=DISPUTE_LIMIT, multiline=True)
    if not text:
        raise TableError("dispute_text_missing")
    match, table, mode = _locked(match.pk)
    _refuse_if_locked(table, mode)
    _refuse_unless_holder(table, seat, device, via)
    if mode != EntryMode.PLAYERS_SIGN:
        raise TableError("dispute_not_offered")
    _refuse_unless_over(match)
    table.disputed_by, table.dispute = seat, text
    setattr(table, "signed_a" if seat == "A" else "signed_b", None)
    table.signed_alike = ""
    table.undo_asked_by, table.undo_number = "", None  # the organiser settles it now
    table.save(update_fields=["disputed_by", "dispute", "signed_a", "signed_b", "signed_alike",
                              "undo_asked_by", "undo_number"])
    _log(match, MatchEvent.Kind.DISPUTED, seat=seat, text=table.dispute, address=address,
         device=device, via=via)
    return table


@transaction.atomic
def result_approve(*, match: Match, by, address: str | None = None) -> MatchTable:
    """An organiser (`by`) approves `match`'s finished result without (all) signatures, or
    as it stands after a dispute (corrected first, if need be): it is final. Only a result
    whose `result_state` is one of `APPROVABLE` is approved, or one signed by both from one
    device or one address (`signed_alike`), which the organiser has checked: the control
    room's mark goes. Raises `TableError` (`sign_before_end`, `result_final`;
    `approve_not_needed`: no signature is awaited and nobody disputes it)."""
    match, table, mode = _locked(match.pk)
    _refuse_unless_over(match)
    checked = signed_alike_unchecked(table)
    if table.is_final and not checked:
        raise TableError("result_final")
    if not checked and result_state(match, mode, table) not in APPROVABLE:
        raise TableError("approve_not_needed")
    table.approved_at = timezone.now()
    table.pending = None
    table.undo_asked_by, table.undo_number = "", None
    table.save(update_fields=["approved_at", "pending", "undo_asked_by", "undo_number"])
    _log(match, MatchEvent.Kind.APPROVED, user=by, address=address,
         text=f"{match.game_points_a}:{match.game_points_b}")
    return table


@transaction.atomic
def link_renew(*, match: Match, by, address: str | None = None) -> MatchTable:
    """Revoke `match`'s players' link and make a new one (the old token then finds nothing)
    and free both seats: the phones that scan the new card take them again. Returns the table
    with the new `token`. Raises `TableError` (`players_may_not_enter`: the event's players
    have no link to renew)."""
    match, table, mode = _locked(match.pk)
    if not players_may_enter(mode):
        raise TableError("players_may_not_enter")
    RetiredLink.objects.update_or_create(
        token_hash=table.token_hash,
        defaults={"match_id": match.pk, "reason": RetiredLink.Reason.RENEWED,
                  "language": event_of_match(match.pk)[1]},
    )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    table.token, table.token_hash = token, token_hash(token)
    table.holder_a = table.holder_b = ""
    table.save(update_fields=["token", "token_hash", "holder_a", "holder_b"])
    _log(match, MatchEvent.Kind.RENEWED, user=by, address=address)
    return table


def retire_link_of_deleted(match: Match) -> None:
    """`match` is being deleted by a change upstream that says why (`_change_reason`: a
    knockout correction, a withdrawal, a pairing taken back, a round paired again): its
    players' link, if it has one, is kept as `RetiredLink` `REMOVED` (its hash, the reason and
    the event's language), so the players' pages can say what happened. A match deleted
    without a reason (its whole event deleted) leaves nothing."""
    reason = getattr(match, "_change_reason", "") or ""
    hashed = MatchTable.objects.filter(match_id=match.pk).values_list("token_hash", flat=True)
    if not reason or not hashed:
        return
    language = (
        Tournament.objects.filter(rounds__pairings__match_id=match.pk)
        .values_list("language", flat=True).first()
        or Tournament.objects.filter(entries__player_id=match.player_a_id)
        .filter(entries__player_id=match.player_b_id).order_by("-created_at", "-pk")
        .values_list("language", flat=True).first()
        or ""
    )
    RetiredLink.objects.update_or_create(
        token_hash=hashed[0],
        defaults={"match_id": match.pk, "reason": RetiredLink.Reason.REMOVED,
                  "change_reason": reason[:100], "language": language},
    )


def retired_link(token: str) -> RetiredLink | None:
    """The `RetiredLink` of `token` (a link renewed since, or whose match a change upstream
    removed), looked up by its hash; None for a token no link ever carried."""
    return RetiredLink.objects.filter(token_hash=token_hash(token)).first()


def signed_alike_unchecked(table: MatchTable | None) -> bool:
    """Both players signed from one device or one address (`MatchTable.signed_alike`) and no
    organiser has approved the result since: the control room marks it."""
    return bool(table is not None and table.signed_alike and table.signed_a and table.signed_b
                and not table.approved_at)


def clear_sign_off_on_reopen(match: Match, by=None) -> None:
    """A match reopened, changed winner or changed score (an organiser's undo or correction,
    by user `by`, or an undo a signer allowed):
    the signatures, approval, dispute and any undo waiting for consent were for a result that
    is gone. When there were any, the history says they were cleared."""
    tables = MatchTable.objects.filter(match_id=match.pk)
    given = tables.filter(
        models.Q(signed_a__isnull=False) | models.Q(signed_b__isnull=False)
        | models.Q(approved_at__isnull=False) | ~models.Q(disputed_by="")
    ).exists()
    if not given:
        return
    tables.update(signed_a=None, signed_b=None, approved_at=None, disputed_by="", dispute="",
                  signed_alike="", undo_asked_by="", undo_number=None)
    _log(match, MatchEvent.Kind.CLEARED, user=by)
