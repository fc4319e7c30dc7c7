"""A player's pass (`PlayerPass`: one secret link per club player, for every event of the club),
the wrong personal codes tried at a match (`CodeTries`) and the club nights' arrivals
(`Arrival`: "I'm here")."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player
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
