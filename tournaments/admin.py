from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "date", "format", "status", "is_public"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [EntryInline]
