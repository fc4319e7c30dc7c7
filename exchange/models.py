"""The site's imports: each confirmed preview (`ImportClaim`) and each import job with its
status (`ImportJob`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Club
from events.models import Tournament


class ImportClaim(models.Model):
    """One confirmed import preview (`exchange.importing.import_plan_apply`): the preview's
    digest, which only one import may take (a unique key, so two confirms sent at once, a
    double click, make one tournament), and the tournament that import made, to which a second
    confirm of the same preview is sent. Written in the import's own transaction."""

    digest = models.CharField(_("preview digest"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="+", verbose_name=_("imported by"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        verbose_name=_("tournament"),
    )
    created_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return f"{self.digest[:12]} → {self.tournament_id}"


class ImportJob(models.Model):
    """One import of a deal log through the site (`exchange.import_jobs`): the file kept
    under MEDIA_ROOT/imports/ between the preview and the confirmation, what it becomes
    (name, date, house-rules preset, club, for `user`), and how it went.

    `previewed` (checked in the upload's request, waiting for the confirmation), then the
    task `run_import_job`: `queued`, `checking` (the file read again), `writing` (one
    transaction), `done` (`tournament` set) or `failed` (`errors`, sentences in `language`).
    The status page polls the row; the counts of a running import (rows checked, deals
    written) are in the cache (`import_jobs.import_job_progress`), because the writing
    transaction holds the database until it commits. The file is deleted once the job ends.
    """

    class Status(models.TextChoices):
        PREVIEWED = "previewed", _("waiting for confirmation")
        QUEUED = "queued", _("waiting")
        CHECKING = "checking", _("checking the file")
        WRITING = "writing", _("writing the deals")
        DONE = "done", _("imported")
        FAILED = "failed", _("not imported")

    ACTIVE = (Status.QUEUED, Status.CHECKING, Status.WRITING)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("imported by"),
    )
    file = models.FileField(_("file"), upload_to="imports/", blank=True)
    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    rules = models.CharField(_("house rules"), max_length=16)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("club"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PREVIEWED
    )
    lines = models.PositiveIntegerField(_("lines of the file"), default=0)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("tournament"),
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE
