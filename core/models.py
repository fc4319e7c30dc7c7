"""A model mixin the live pages rely on."""

from django.db import models


class Versioned(models.Model):
    """A row with a `version` that only `UPDATE ... SET version = version + 1` moves on
    (`events.versions.bump`), right after each change commits. A plain `save()` of an
    instance read earlier writes every other column but never `version`, so it cannot set the
    version back to what that instance read."""

    version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [field.name for field in self._meta.concrete_fields
                                       if not field.primary_key and field.name != "version"]
        super().save(*args, **kwargs)
