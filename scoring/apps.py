from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from core.messages import speak_for
        from scoring.messages import rule_message
        from scoring.rules import InvalidDeal

        speak_for(InvalidDeal, rule_message)
