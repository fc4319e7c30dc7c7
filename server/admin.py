from django.contrib import admin

from server.models import Heartbeat


@admin.register(Heartbeat)
class HeartbeatAdmin(admin.ModelAdmin):
    list_display = ["created_at", "hostname", "note"]
    readonly_fields = ["created_at", "hostname", "note"]
