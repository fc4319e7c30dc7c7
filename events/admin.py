"""The admin: what staff fix by hand (a name, a venue, the organisers, an entry before the
start). An event's course changes only through `events.services` (and its deals only
through `scoring.services`, which has no admin at all), so the admin never changes it:

- `status` is always read-only: only the services start and finish an event; so is the
  announcement and its time (the control room sets them: `events.announcements`);
- once an event has started, its format, third-place match, seeding source and house rules
  are read-only too (the matches carry a snapshot of the house rules; the rounds follow the
  format), and its entries are read-only, none added or deleted (withdrawals go through
  the players page, `services.entry_withdraw`);
- what is saved takes those fields from the stored row, locked (`services.tournament_lock`):
  a form posted anyway, a page drawn before the start, or a revert to an old version of the
  history (which offers the old status and format) leaves them as they are.
"""

from django.contrib import admin
from django.db import transaction
from simple_history.admin import SimpleHistoryAdmin

from events import services
from events.models import Entry, Tournament
from scoring.models import HouseRulesFields

ALWAYS_READ_ONLY = ("status", "announcement", "announced_at")
READ_ONLY_AFTER_START = (
    "format", "third_place_match", "seeded_from", *HouseRulesFields.HOUSE_RULE_FIELDS,
)


def has_started(tournament: Tournament | None) -> bool:
    """Whether the STORED row of `tournament` (None or unsaved: a new one) has started
    (`Tournament.has_started`): not the object the admin holds, which for a revert is an old
    version of the history. A tournament deleted meanwhile has not."""
    if tournament is None or tournament.pk is None:
        return False
    stored = Tournament.objects.only("status").filter(pk=tournament.pk).first()
    return stored is not None and stored.has_started


class EntryInline(admin.TabularInline):
    """The players of the event; view-only once it has started (no add, change or delete)."""

    model = Entry
    extra = 0
    autocomplete_fields = ["player"]

    def has_add_permission(self, request, obj=None) -> bool:
        return not has_started(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None) -> bool:
        return not has_started(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return not has_started(obj) and super().has_delete_permission(request, obj)


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "date", "format", "status", "is_public"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [EntryInline]

    def get_readonly_fields(self, request, obj=None):
        fields = [*super().get_readonly_fields(request, obj), *ALWAYS_READ_ONLY]
        if has_started(obj):
            fields += READ_ONLY_AFTER_START
        return fields

    def save_model(self, request, obj, form, change) -> None:
        """Save under the tournament's lock, with its status (and, once started, the fields
        `READ_ONLY_AFTER_START`) as stored, whatever the form or the history version held."""
        if not change:
            return super().save_model(request, obj, form, change)
        with transaction.atomic():
            stored = services.tournament_lock(obj)
            kept = ALWAYS_READ_ONLY + (READ_ONLY_AFTER_START if stored.has_started else ())
            for name in kept:
                attname = Tournament._meta.get_field(name).attname  # seeded_from_id
                setattr(obj, attname, getattr(stored, attname))
            super().save_model(request, obj, form, change)
