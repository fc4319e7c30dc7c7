"""The players' ratings as stored: the latest of each player, and each player's rating
after each event."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Player
from events.models import Tournament
from ratings.periods import PROVISIONAL_MATCHES


class Glicko2Fields(models.Model):
    """A Glicko-2 state: `rating` and `deviation` in rating points, `volatility` the sigma of
    Glickman's paper, `matches` the rated matches counted into it."""

    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("volatility"))
    matches = models.PositiveIntegerField(_("rated matches"))

    class Meta:
        abstract = True


class PlayerRating(Glicko2Fields):
    """A player's Glicko-2 rating over every public event, as last computed
    (`ratings.services.player_ratings_recompute`, from `ratings.periods`).

    `rating` and `deviation` are rating points (1500 and 350 for a newcomer), `volatility` the
    Glicko-2 sigma; `matches`, `won` and `lost` count the rated matches (finished, not
    forfeited). The rows are replaced as a whole on each recomputation.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="rating", verbose_name=_("player")
    )
    won = models.PositiveIntegerField(_("won"))
    lost = models.PositiveIntegerField(_("lost"))
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["-rating", "deviation", "player_id"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.1f} ± {self.deviation:.1f}"

    @property
    def provisional(self) -> bool:
        """Fewer than `ratings.periods.PROVISIONAL_MATCHES` rated matches."""
        return self.matches < PROVISIONAL_MATCHES


class RatingHistory(Glicko2Fields):
    """A player's rating at the end of an event they played (`rating`, `deviation`: rating
    points; `matches`: their rated matches up to and including it). Replaced with
    `PlayerRating`."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_history",
        verbose_name=_("player"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_history",
        verbose_name=_("tournament"),
    )

    class Meta:
        ordering = ["player", "tournament__date", "tournament_id"]
        verbose_name = _("rating after an event")
        verbose_name_plural = _("rating history")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tournament"], name="ratinghistory_unique_player_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.tournament_id}: {self.rating:.1f}"
