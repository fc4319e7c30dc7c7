"""Issuing, finding and renewing the players' passes; the personal code; the club nights'
arrivals.

A pass is one secret link per club player (`/pass/<token>/`): it names the player in every
event of their club. The token is `urlsafe-base64(HMAC-SHA256(pass key, "pass:" + nonce))`
(43 characters, 256 bits), `nonce` being 128 random bits stored on the row, and the pass key a
file of its own (`passes.keys`): the organiser can show or print the same pass again, while the
database alone reveals none. The database finds a token by its SHA-256 (`token_hash`). The
4-digit personal code is derived the same way (`"code:" + nonce`) and stored as a keyed hash
(`code_hash`: a bare SHA-256 of four digits would be undone in 10,000 tries).

Renewing writes a new nonce: the old token finds nothing, like a wrong one (404, counted as a
guess); revoking marks the row: its token finds nothing either. Each moves the pass's version
on, so its open page hears of it and says so.
"""

import base64
import hashlib
import hmac
import secrets

from django.db import connection, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from club.models import Club, Player
from core.site_address import site_url
from events import registry
from events.models import Tournament
from events.versions import CHANNEL, bump
from passes.errors import PassError
from passes.keys import pass_key
from passes.models import Arrival, PlayerPass

NONCE_BYTES = 16
"""128 random bits per pass (and per renewal)."""
CODE_DIGITS = 4
CODE_TRIES = 5
"""Wrong personal codes allowed at one match; then only the organiser settles it."""


def _mac(message: str) -> bytes:
    return hmac.new(pass_key(), message.encode(), hashlib.sha256).digest()


def token_of(player_pass: PlayerPass) -> str:
    """The token of `player_pass` (43 URL-safe characters), derived from its nonce and the
    pass key; never stored."""
    return base64.urlsafe_b64encode(_mac("pass:" + player_pass.nonce)).decode().rstrip("=")


def pass_url(player_pass: PlayerPass) -> str:
    """The pass's whole address as its QR code carries it (`SITE_URL`, as the scorecards')."""
    return site_url().rstrip("/") + reverse("passes:page", args=[token_of(player_pass)])


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of `token`: what the database finds a pass by."""
    return hashlib.sha256(token.encode()).hexdigest()


def code_of(player_pass: PlayerPass) -> str:
    """The pass's 4-digit personal code ("0000" to "9999"), derived like the token."""
    number = int.from_bytes(_mac("code:" + player_pass.nonce)[:8], "big") % 10**CODE_DIGITS
    return f"{number:0{CODE_DIGITS}d}"


def code_hash(player_pass: PlayerPass, code: str) -> str:
    """The keyed hash (hex) of `code` for `player_pass`: what the row keeps of its code."""
    return _mac(f"code-check:{player_pass.nonce}:{code}").hex()


def code_matches(player_pass: PlayerPass, code: str) -> bool:
    """Whether `code` (as typed; spaces around ignored) is the pass's personal code."""
    code = (code or "").strip()
    if len(code) != CODE_DIGITS or not code.isdigit():
        return False
    return hmac.compare_digest(code_hash(player_pass, code), player_pass.code_hash)


def _new_secret(player_pass: PlayerPass) -> None:
    player_pass.nonce = secrets.token_hex(NONCE_BYTES)
    player_pass.token_hash = token_hash(token_of(player_pass))
    player_pass.code_hash = code_hash(player_pass, code_of(player_pass))


def bump_pass(pass_pk: int) -> None:
    """Move the version of pass `pass_pk` on once the current transaction commits: its open
    page's stream (`live.views.streams.pass_stream`) then looks again."""
    def flush() -> None:
        PlayerPass.objects.filter(pk=pass_pk).update(version=F("version") + 1)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(f"NOTIFY {CHANNEL}")
    transaction.on_commit(flush, robust=True)


@transaction.atomic
def pass_make(player: Player) -> PlayerPass:
    """`player`'s pass, made if they have none (a revoked one stays revoked: `pass_renew`
    gives it a new token). Raises `PassError` (`no_club`: a player of no club)."""
    if player.club_id is None:
        raise PassError("no_club", name=player.name)
    existing = PlayerPass.objects.select_for_update().filter(player=player).first()
    if existing is not None:
        return existing
    player_pass = PlayerPass(player=player)
    _new_secret(player_pass)
    player_pass.save()
    return player_pass


@transaction.atomic
def pass_renew(player: Player) -> PlayerPass:
    """A new token and code for `player`'s pass (made if none; a revoked one works again
    with the new token): the old token finds nothing from now on. Raises `PassError`
    (`no_club`)."""
    player_pass = PlayerPass.objects.select_for_update().filter(player=player).first()
    if player_pass is None:
        return pass_make(player)
    _new_secret(player_pass)
    player_pass.renewed_at = timezone.now()
    player_pass.revoked_at = None
    player_pass.save(update_fields=["nonce", "token_hash", "code_hash", "renewed_at",
                                    "revoked_at"])
    bump_pass(player_pass.pk)
    return player_pass


@transaction.atomic
def pass_revoke(player: Player) -> PlayerPass | None:
    """Revoke `player`'s pass: its token finds nothing until the organiser renews it. None
    when the player has no pass."""
    player_pass = PlayerPass.objects.select_for_update().filter(player=player).first()
    if player_pass is None or player_pass.revoked_at is not None:
        return player_pass
    player_pass.revoked_at = timezone.now()
    player_pass.save(update_fields=["revoked_at"])
    bump_pass(player_pass.pk)
    return player_pass


def pass_for_token(token: str) -> PlayerPass | None:
    """The valid pass whose token is `token`, its player and club read along; None for a
    wrong, renewed or revoked token (one query)."""
    return (PlayerPass.objects.select_related("player__club")
            .filter(token_hash=token_hash(token), revoked_at__isnull=True).first())


def pass_is_valid(pass_pk: int, hashed: str) -> bool:
    """Whether pass `pass_pk` still opens with the token of SHA-256 `hashed` (not renewed nor
    revoked since)."""
    return PlayerPass.objects.filter(pk=pass_pk, token_hash=hashed,
                                     revoked_at__isnull=True).exists()


def valid_pass_of(player_pk: int) -> PlayerPass | None:
    """Player `player_pk`'s pass if it opens (not revoked), else None."""
    return PlayerPass.objects.filter(player_id=player_pk, revoked_at__isnull=True).first()


def pass_device(player_pass: PlayerPass) -> str:
    """What a step taken from `player_pass` names as its device (a hash of the pass's token
    hash: the history keeps its first characters, so two passes' steps are told apart, and
    nothing leads back to the token)."""
    return hashlib.sha256(("pass-device:" + player_pass.token_hash).encode()).hexdigest()


def passes_of_club(club: Club) -> list[tuple[Player, PlayerPass | None]]:
    """Every player of `club` by name, with their pass (None: none made yet; a revoked one as
    it is). Two queries."""
    players = list(Player.objects.filter(club=club).order_by("name", "pk"))
    passes = {p.player_id: p for p in PlayerPass.objects.filter(player__club=club)}
    return [(player, passes.get(player.pk)) for player in players]


def players_have_passes(player_ids) -> bool:
    """Whether any of the players `player_ids` has a pass that opens (passes are in use at
    their match: the table's link then no longer signs)."""
    return PlayerPass.objects.filter(player_id__in=[pk for pk in player_ids if pk],
                                     revoked_at__isnull=True).exists()


@transaction.atomic
def arrival_record(*, tournament: Tournament, player: Player) -> Arrival:
    """`player` says "I'm here" at club night `tournament` (once: again changes nothing).
    Raises `PassError` (`not_a_club_night`, `night_over`)."""
    if not registry.for_tournament(tournament).pairs_on_the_spot:
        raise PassError("not_a_club_night")
    if tournament.status == Tournament.Status.FINISHED:
        raise PassError("night_over")
    arrival, created = Arrival.objects.get_or_create(tournament=tournament, player=player)
    if created:
        bump(event_id=tournament.pk)
    return arrival
