from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from club import checks  # noqa: F401  (registers the system checks)
        from club.auth import forget_user

        post_save.connect(forget_user, sender=get_user_model(), dispatch_uid="forget_user")
        post_delete.connect(forget_user, sender=get_user_model(),
                            dispatch_uid="forget_deleted_user")
