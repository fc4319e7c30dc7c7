"""Print jobs: a PDF of a tournament or of a club season, asked for, built and kept."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from club.models import Season
from events.models import Tournament


class PrintJob(models.Model):
    """One PDF build (pretix `CachedFile`): what to print, how far the build is, the file.

    A job prints a tournament's document or a club season's (the season's cross-table): exactly
    one of `tournament` and `season` is set (a check constraint). Built by the task
    `build_print_job` of `printing.jobs`; the status page polls the row, so it works
    the same with eager tasks and with a worker. `data_version` fingerprints the data the file
    was built from: a request for the same key and version reuses the file instead of building
    it again.
    """

    class Kind(models.TextChoices):
        SCORECARDS = "scorecards", _("scorecards")
        ROUND = "round", _("round sheet and scorecards")
        STANDINGS = "standings", _("standings")
        BRACKET = "bracket", _("bracket")
        CROSSTABLE = "crosstable", _("cross-table")
        GROUP_SHEETS = "group_sheets", _("round sheets of every group")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("being built")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="print_jobs",
        verbose_name=_("tournament"), null=True, blank=True,
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="print_jobs", verbose_name=_("season"),
        null=True, blank=True,
    )
    kind = models.CharField(_("what"), max_length=16, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    filled = models.BooleanField(_("with the entered deals"), default=False)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    file = models.FileField(_("file"), upload_to="print/", blank=True)
    error = models.TextField(_("error"), blank=True)
    data_version = models.CharField(_("data version"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        constraints = [
            # Two organisers asking at once get one build: one waiting or running job per key.
            # Coalesce: NULL round numbers (standings) would otherwise never be equal.
            models.UniqueConstraint(
                "tournament", "kind", Coalesce("round_number", models.Value(0)), "language",
                "filled", condition=models.Q(status__in=["queued", "running"]),
                name="printjob_one_active_per_key",
            ),
            models.UniqueConstraint(
                fields=["season", "kind", "language"], condition=models.Q(
                    season__isnull=False, status__in=["queued", "running"]
                ), name="printjob_one_active_per_season_key",
            ),
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False, season__isnull=True)
                | models.Q(tournament__isnull=True, season__isnull=False),
                name="printjob_of_a_tournament_or_a_season",
            ),
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="printjob_progress_0_to_100"
            ),
        ]

    def __str__(self) -> str:
        owner = self.tournament or self.season
        return f"{owner} · {self.kind} {self.round_number or ''} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE
