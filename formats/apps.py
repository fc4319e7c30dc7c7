from importlib import import_module

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

FORMATS = ("round_robin", "knockout", "club_night", "swiss", "groups")
"""The format packages, in the order the event form offers them."""


class FormatsConfig(AppConfig):
    name = "formats"
    verbose_name = _("Formats")

    def ready(self) -> None:
        for name in FORMATS:  # each registers its class with `events.registry` as it loads
            import_module(f"formats.{name}.format")
