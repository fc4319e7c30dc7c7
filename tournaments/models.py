"""Events built from matches: tournaments and their entries (DESIGN.md "The record")."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.models import Club, Player


class TournamentQuerySet(models.QuerySet):
    def visible_to(self, user) -> "TournamentQuerySet":
        """Public tournaments for everyone; staff and the organisers also see private ones."""
        if user.is_staff:
            return self
        if user.is_authenticated:
            return self.filter(models.Q(is_public=True) | models.Q(organisers=user)).distinct()
        return self.filter(is_public=True)


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        KNOCKOUT = "knockout", _("Knockout")
        CLUB_NIGHT = "club_night", _("Club night")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Registration")
        RUNNING = "running", _("In progress")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True)
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments",
        verbose_name=_("club"),
    )
    format = models.CharField(_("format"), max_length=24, choices=Format.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone may read the schedule and standings.")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments",
        verbose_name=_("organisers"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["created_at"])

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])


class Entry(models.Model):
    """A player taking part in a tournament, with their draw number (round robin) or seed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    number = models.PositiveSmallIntegerField(
        _("draw number"), null=True, blank=True,
        help_text=_("Berger table number in a round robin, seed in a knockout."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_unique_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="entry_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number or '–'}. {self.player}"
