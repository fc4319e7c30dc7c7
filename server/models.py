"""The worker's heartbeat: a row written by a task, proof that a worker runs."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Heartbeat(models.Model):
    """A row written by the `server.tasks.record_heartbeat` task: proof that a worker runs."""

    created_at = models.DateTimeField(auto_now_add=True)
    hostname = models.CharField(max_length=200)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.hostname} {self.created_at:%Y-%m-%d %H:%M:%S}"
