"""Self check-in: a player with no slip gets their pass on their own phone, with one tap of the
organiser.

1. **The club's join code** (`JoinCode`): `CODE_LENGTH` characters of `ALPHABET` (no
   look-alikes: no 0/O/Q, 1/I/L, 2/Z, 5/S, 8/B), made when first needed (`join_code_of`) and
   renewed by the organiser (`join_code_renew`: the old code then finds nothing). The
   projector shows it to the room, with `/join/<code>/` as a QR code; it opens no pass by
   itself, so it is kept as it is. Typed by hand it is read in capitals, Cyrillic look-alikes
   as their Latin letters (`normal_code`).
2. **A claim** (`CheckInClaim`, `claim_make`): the phone picks a name on the join page; the
   claim's secret (256 random bits) goes to the phone, the row keeps its SHA-256. At most
   `PENDING_PER_ADDRESS` claims wait from one address and `PENDING_PER_PLAYER` for one player;
   a claim waits `CLAIM_SECONDS` at most. A new claim from a phone withdraws the one it held.
3. **The organiser decides** (`claim_approve`, `claim_refuse`) from the control room. Approving
   makes the player's pass if they have none (`services.pass_make`), else gives the same
   pass; the claim then hands it over once (`claim_hand_over`) within `HANDOVER_SECONDS`.
   The claim never hands a pass over without the organiser.

Every step is recorded (`CheckInRecord`) with its address. A claim's version moves on when it
is decided (`bump_claim`): the waiting page's stream follows it. The club's events not
finished move on too when a claim is made or decided, so their control rooms show it.
"""

import datetime
import hashlib
import secrets

from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.utils import timezone

from club.models import Club, Player
from events.models import Tournament
from events.versions import CHANNEL, bump
from passes import services
from passes.errors import PassError
from passes.models import CheckInClaim, CheckInRecord, JoinCode, PlayerPass

ALPHABET = "ACDEFGHJKMNPRTUVWXY34679"
"""24 characters none of which a room reading from afar mistakes for another."""
CODE_LENGTH = 6
"""24**6: some 191 million codes; a wrong one counts toward the wrong-link limit."""
LOOK_ALIKES = str.maketrans("АВЕКМНОРСТУХ", "ABEKMHOPCTYX")
"""Cyrillic capitals typed for the Latin letters they look like."""
CLAIM_SECONDS = 2 * 3600
HANDOVER_SECONDS = 10 * 60
PENDING_PER_ADDRESS = 3
PENDING_PER_PLAYER = 2
SECRET_BYTES = 32
CLAIM_COOKIE = "check_in_claim"
CLAIM_COOKIE_PATH = "/join/"
"""The phone keeps its claim's secret in this cookie, sent only to the join pages and the
waiting page's stream (`passes.views_join` says why a cookie)."""
OPEN_STATES = (CheckInClaim.State.PENDING, CheckInClaim.State.APPROVED,
               CheckInClaim.State.REFUSED)
"""The states in which a claim's page opens (until `expires_at`)."""


def new_code() -> str:
    """A random join code: `CODE_LENGTH` characters of `ALPHABET`."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """`text` as a join code (capitals, Cyrillic look-alikes made Latin, spaces around
    dropped), or None when it cannot be one (wrong length or characters)."""
    code = (text or "").strip().upper().translate(LOOK_ALIKES)
    if len(code) != CODE_LENGTH or any(char not in ALPHABET for char in code):
        return None
    return code


def _store_new_code(club: Club, existing: JoinCode | None) -> JoinCode:
    for _attempt in range(5):  # a clash of two random codes is a one-in-millions event
        try:
            with transaction.atomic():
                if existing is None:
                    return JoinCode.objects.create(club=club, code=new_code(),
                                                   made_at=timezone.now())
                existing.code, existing.made_at = new_code(), timezone.now()
                existing.save(update_fields=["code", "made_at"])
                return existing
        except IntegrityError:
            found = JoinCode.objects.filter(club=club).first()
            if existing is None and found is not None:
                return found  # made at once by another request
    raise RuntimeError("no free join code after 5 tries")


def join_code_of(club: Club) -> str:
    """`club`'s join code, made if it has none yet."""
    found = JoinCode.objects.filter(club=club).values_list("code", flat=True).first()
    return found if found is not None else _store_new_code(club, None).code


@transaction.atomic
def join_code_renew(club: Club) -> str:
    """A new join code for `club`: the old one finds nothing from now on (claims already made
    stay as they are). The club's events not finished move on (their projectors show it)."""
    existing = JoinCode.objects.select_for_update().filter(club=club).first()
    code = _store_new_code(club, existing).code
    _bump_events(club.pk)
    return code


def club_for_code(text: str) -> Club | None:
    """The club whose join code is `text` (`normal_code`), or None."""
    code = normal_code(text)
    if code is None:
        return None
    join = JoinCode.objects.select_related("club").filter(code=code).first()
    return join.club if join is not None else None


def secret_hash(secret: str) -> str:
    """The SHA-256 (hex) of a claim's secret: what the row keeps."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _bump_events(club_pk: int) -> None:
    for pk in Tournament.objects.filter(club_id=club_pk).exclude(
            status=Tournament.Status.FINISHED).values_list("pk", flat=True):
        bump(event_id=pk)


def bump_claim(claim_pk: int) -> None:
    """Move the version of claim `claim_pk` on once the current transaction commits: its
    waiting page's stream (`live.views.streams.claim_stream`) then says `changed`."""
    def flush() -> None:
        CheckInClaim.objects.filter(pk=claim_pk).update(version=F("version") + 1)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"NOTIFY {CHANNEL}")
    transaction.on_commit(flush, robust=True)


def _record(claim: CheckInClaim, action: str, address: str | None, by=None) -> None:
    CheckInRecord.objects.create(claim=claim, action=action, address=address, by=by)


def _pending(now: datetime.datetime):
    return CheckInClaim.objects.filter(state=CheckInClaim.State.PENDING, expires_at__gt=now)


@transaction.atomic
def claim_make(*, club: Club, player_pk, address: str | None,
               held: CheckInClaim | None = None) -> tuple[CheckInClaim, str]:
    """A phone at `address` asks for the pass of player `player_pk` (as posted: anything) of
    `club`; `held`: the open claim this phone holds already, withdrawn first if it still waits.
    Returns (the claim, its secret: 43 URL-safe characters, for the phone only). Raises
    `PassError`: `claim_player_missing` (no such player of the club), `claims_from_address`,
    `claims_of_player` (too many claims waiting); nothing is written then."""
    player_pk = str(player_pk or "")
    player = (Player.objects.filter(club=club, pk=int(player_pk)).first()
              if player_pk.isascii() and player_pk.isdigit() and len(player_pk) < 19
              else None)
    if player is None:
        raise PassError("claim_player_missing")
    now = timezone.now()
    waiting = _pending(now).select_for_update()
    if held is not None:
        waiting = waiting.exclude(pk=held.pk)
    if address and waiting.filter(address=address).count() >= PENDING_PER_ADDRESS:
        raise PassError("claims_from_address", count=PENDING_PER_ADDRESS)
    if waiting.filter(player=player).count() >= PENDING_PER_PLAYER:
        raise PassError("claims_of_player", name=player.name)
    if held is not None and held.state == CheckInClaim.State.PENDING:
        CheckInClaim.objects.filter(pk=held.pk).update(state=CheckInClaim.State.WITHDRAWN)
        _record(held, "withdrawn", address)
        bump_claim(held.pk)
    secret = secrets.token_urlsafe(SECRET_BYTES)
    claim = CheckInClaim.objects.create(
        club=club, player=player, secret_hash=secret_hash(secret),
        number=f"{secrets.randbelow(900) + 100}", address=address, made_at=now,
        expires_at=now + datetime.timedelta(seconds=CLAIM_SECONDS))
    _record(claim, "made", address)
    _bump_events(club.pk)
    return claim, secret


def claim_for_secret(secret: str | None) -> CheckInClaim | None:
    """The open claim (waiting, approved or refused, not expired) whose secret is `secret`,
    its player and club read along; None for anything else (one query)."""
    if not secret or len(secret) > 100:
        return None
    return (CheckInClaim.objects.select_related("player", "club")
            .filter(secret_hash=secret_hash(secret), state__in=OPEN_STATES,
                    expires_at__gt=timezone.now()).first())


def pending_claims(club: Club) -> list[CheckInClaim]:
    """The claims waiting for `club`'s organiser, oldest first, each with `has_pass` (the
    player has a pass that opens). Two queries."""
    claims = list(_pending(timezone.now()).filter(club=club).select_related("player"))
    with_pass = set(PlayerPass.objects.filter(
        player_id__in=[claim.player_id for claim in claims], revoked_at__isnull=True)
        .values_list("player_id", flat=True))
    for claim in claims:
        claim.has_pass = claim.player_id in with_pass
    return claims


def _decidable(claim_pk: int, club: Club) -> CheckInClaim:
    claim = CheckInClaim.objects.select_for_update().select_related("player").get(
        pk=claim_pk, club=club)
    if claim.state != CheckInClaim.State.PENDING or claim.expires_at <= timezone.now():
        raise PassError("claim_decided", name=claim.player.name)
    return claim


@transaction.atomic
def claim_approve(*, claim_pk: int, club: Club, by, address: str | None) -> CheckInClaim:
    """The organiser `by` (at `address`) approves claim `claim_pk` of `club`: the player's
    pass (made if none, `services.pass_make`) is the claim's to hand over within
    `HANDOVER_SECONDS`. Raises `CheckInClaim.DoesNotExist` for a claim of another club,
    `PassError`: `claim_decided` (not waiting any more), `claim_pass_revoked` (the player's pass
    is revoked: the organiser renews it first)."""
    claim = _decidable(claim_pk, club)
    player_pass = services.pass_make(claim.player)
    if not player_pass.is_valid:
        raise PassError("claim_pass_revoked", name=claim.player.name)
    now = timezone.now()
    claim.state, claim.decided_at, claim.decided_by = CheckInClaim.State.APPROVED, now, by
    claim.player_pass = player_pass
    claim.expires_at = now + datetime.timedelta(seconds=HANDOVER_SECONDS)
    claim.save(update_fields=["state", "decided_at", "decided_by", "player_pass",
                              "expires_at"])
    _record(claim, "approved", address, by)
    bump_claim(claim.pk)
    _bump_events(club.pk)
    return claim


@transaction.atomic
def claim_refuse(*, claim_pk: int, club: Club, by, address: str | None) -> CheckInClaim:
    """The organiser `by` (at `address`) refuses claim `claim_pk` of `club`: its phone says so
    until the claim expires. Raises as `claim_approve` (`claim_decided`)."""
    claim = _decidable(claim_pk, club)
    claim.state, claim.decided_at, claim.decided_by = (CheckInClaim.State.REFUSED,
                                                       timezone.now(), by)
    claim.save(update_fields=["state", "decided_at", "decided_by"])
    _record(claim, "refused", address, by)
    bump_claim(claim.pk)
    _bump_events(club.pk)
    return claim


@transaction.atomic
def claim_hand_over(claim: CheckInClaim, address: str | None) -> str | None:
    """The pass's token for the phone holding approved claim `claim`, once: the claim is then
    `HANDED` and opens nothing more. None when it is not approved (or no longer: handed
    already, expired) or its pass no longer opens (revoked since)."""
    locked = CheckInClaim.objects.select_for_update().filter(
        pk=claim.pk, state=CheckInClaim.State.APPROVED, expires_at__gt=timezone.now()).first()
    if locked is None or locked.player_pass_id is None:
        return None
    player_pass = PlayerPass.objects.filter(pk=locked.player_pass_id,
                                            revoked_at__isnull=True).first()
    if player_pass is None:
        return None
    locked.state, locked.handed_at = CheckInClaim.State.HANDED, timezone.now()
    locked.save(update_fields=["state", "handed_at"])
    _record(locked, "handed", address)
    bump_claim(locked.pk)
    return services.token_of(player_pass)
