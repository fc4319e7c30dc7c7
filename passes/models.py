"""A player's pass (`PlayerPass`: one secret link per club player, for every event of the club),
the wrong personal codes tried at a match (`CodeTries`), the club nights' arrivals
(`Arrival`: "I'm here") and self check-in (`JoinCode`, `CheckInClaim`, `CheckInRecord`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player
from core.models import Versioned
from events.models import Tournament
from scoring.models import Match


class PlayerPass(Versioned):
    """A player's pass. The token is never stored: it is derived from `nonce` and the pass key
    (`passes.services.token_of`), and looked up by its SHA-256 (`token_hash`, unique), so the
    database alone reveals no working pass. `code_hash`: the keyed hash of the 4-digit personal
    code (`passes.services.code_hash`). A revoked pass (`revoked_at`) opens nothing; renewing
    writes a new nonce (the old token then finds nothing). `version` moves on when the pass is
    renewed or revoked, or its player enters an event: its open page's stream follows it."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="player_pass",
                                  verbose_name=_("player"))
    nonce = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    code_hash = models.CharField(max_length=64)
    made_at = models.DateTimeField(auto_now_add=True)
    renewed_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("player's pass")
        verbose_name_plural = _("players' passes")

    def __str__(self) -> str:
        return f"pass of player {self.player_id}"

    @property
    def is_valid(self) -> bool:
        return self.revoked_at is None


class CodeTries(models.Model):
    """The wrong personal codes tried at `match` (a one-phone table, `passes.services.
    code_confirm`): after `passes.services.CODE_TRIES` only the organiser settles it."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="code_tries")
    wrong = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.wrong} wrong codes at match {self.match_id}"


class Arrival(models.Model):
    """A player said "I'm here" at a club night (from their pass), at `at`: the night's page
    lists the arrived players for the organiser to pair."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="arrivals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="arrivals")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "player"],
                                               name="arrival_once_per_night")]

    def __str__(self) -> str:
        return f"player {self.player_id} at night {self.tournament_id}"


class JoinCode(models.Model):
    """A club's join code (`passes.check_in`): six characters the projector shows the room,
    leading to `/join/<code>/`, where a player asks for their pass on their own phone. Kept as
    it is (the room sees it; it opens no pass by itself). Renewing writes a new `code`: the old
    one then finds nothing."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="join_code")
    code = models.CharField(max_length=12, unique=True)
    made_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"join code of club {self.club_id}"


class CheckInClaim(Versioned):
    """A phone asks for `player`'s pass (`passes.check_in.claim_make`). The phone holds the
    claim's secret (256 random bits, in a cookie); the row keeps its SHA-256 (`secret_hash`).
    `number`: three digits the phone and the control room both show, so the organiser knows
    which phone they confirm. `version` moves on when the organiser decides (the waiting page's
    stream follows it). Open until `expires_at`; an approved claim hands its pass over once
    (`handed_at`)."""

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for the organiser")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        HANDED = "handed", _("pass handed over")
        WITHDRAWN = "withdrawn", _("withdrawn")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="check_in_claims")
    player = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="check_in_claims")
    secret_hash = models.CharField(max_length=64, unique=True)
    number = models.CharField(max_length=3)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    address = models.GenericIPAddressField(null=True, blank=True)
    made_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    player_pass = models.ForeignKey(PlayerPass, on_delete=models.SET_NULL, null=True,
                                    blank=True, related_name="+")
    handed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["made_at", "pk"]
        indexes = [models.Index(fields=["club", "state"]),
                   models.Index(fields=["address", "state"])]

    def __str__(self) -> str:
        return f"claim of player {self.player_id} ({self.state})"


class CheckInRecord(models.Model):
    """What happened to a claim, by whom and from which address: `made` (the phone),
    `approved` and `refused` (the organiser), `handed` (the phone followed it to the pass),
    `withdrawn` (the phone chose another name)."""

    claim = models.ForeignKey(CheckInClaim, on_delete=models.CASCADE, related_name="records")
    action = models.CharField(max_length=10)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                           blank=True, related_name="+")
    address = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.action} claim {self.claim_id}"
