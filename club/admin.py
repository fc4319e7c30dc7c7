from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from club.models import Club, Player, Season


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    filter_horizontal = ["organisers"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    list_display = ["name", "name_latin", "club"]
    list_filter = ["club"]
    search_fields = ["name", "name_latin"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts", "ends", "min_matches"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts"
