from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Core")

    def ready(self) -> None:
        from core import checks, converters  # noqa: F401  (the system checks; <id:...>)
