"""Clubs, players and seasons: the register every event draws from."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.access import sees_everything
from core.text import validate_plain_text


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True,
                            validators=[validate_plain_text])
    city = models.CharField(_("city"), max_length=80, blank=True,
                            validators=[validate_plain_text])
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_clubs",
        verbose_name=_("organisers"),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class PlayerQuerySet(models.QuerySet):
    def visible_to(self, user) -> "PlayerQuerySet":
        """The players `user` may see: on player and club pages and in the lists an organiser
        picks players from. The one place that decides it.

        A player who has entered events is seen through them, by the rule of
        `TournamentQuerySet.visible_to`: anyone sees the players of a public event, an
        organiser also those of the events they organise. A player in private events only is
        hidden from everyone else; a player in no event yet is seen by all. Organisers also
        see every player of a club they organise; staff see everyone. (The events are found
        through the reverse relation `entries` of `events.Entry`, so this app imports
        nothing from `events`, which stands above it.)
        """
        if sees_everything(user):
            return self
        seen = models.Q(entries__tournament__is_public=True)
        if user.is_authenticated:
            seen |= models.Q(entries__tournament__organisers=user) | models.Q(
                club__organisers=user
            )
        players = Player.objects.values("pk")
        return self.filter(
            models.Q(pk__in=players.filter(seen))
            | ~models.Q(pk__in=players.filter(entries__isnull=False))
        )


class Player(models.Model):
    """A person who plays. Kept forever once they have a match (matches protect it)."""

    name = models.CharField(
        _("name"), max_length=120, help_text=_("As the player writes it."),
        validators=[validate_plain_text],
    )
    name_latin = models.CharField(
        _("name in Latin letters"), max_length=120, blank=True, validators=[validate_plain_text],
        help_text=_("Optional, for foreign guests and printed lists."),
    )
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="players",
        verbose_name=_("club"),
    )
    contact = models.CharField(_("contact"), max_length=200, blank=True,
                               validators=[validate_plain_text])
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)
    history = HistoricalRecords()

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_per_club"),
            # NULLs are distinct in a unique index (SQLite, PostgreSQL by default), so players
            # of no club need their own (partial) index; both backends support it.
            models.UniqueConstraint(
                fields=["name"], condition=models.Q(club__isnull=True),
                name="player_unique_name_without_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A stretch of a club's calendar whose events make one ladder (`standings.ladder`)."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_text])
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"), help_text=_("Events on this day still count."))
    min_matches = models.PositiveSmallIntegerField(
        _("matches to be ranked"), default=5,
        help_text=_("Players with fewer matches are listed below the ranking."),
    )

    class Meta:
        ordering = ["club", "-starts"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club"),
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} · {self.name}"

    def clean(self) -> None:
        if self.starts and self.ends and self.ends < self.starts:
            raise ValidationError({"ends": _("A season cannot end before it starts.")})
