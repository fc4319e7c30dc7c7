from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PassesConfig(AppConfig):
    name = "passes"
    verbose_name = _("Players' passes")

    def ready(self) -> None:
        from passes import receivers  # noqa: F401  (connects the signal receivers)
