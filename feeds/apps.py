from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FeedsConfig(AppConfig):
    name = "feeds"
    verbose_name = _("Calendar and results feeds")
