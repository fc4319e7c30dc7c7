from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesideConfig(AppConfig):
    name = "tableside"
    verbose_name = _("Table side")

    def ready(self) -> None:
        from tableside import receivers  # noqa: F401  (connects the signal receivers)
