"""The clubs' and players' feeds: `feeds:`. Calendar programs and club websites keep these
addresses: they never move (tests/test_url_paths.py)."""

from django.urls import path

from feeds import views

app_name = "feeds"

urlpatterns = [
    path("club/<id:club_pk>/calendar.ics", views.club_calendar, name="club_calendar"),
    path("club/<id:club_pk>/results.atom", views.club_results, name="club_results"),
    path("players/<id:player_pk>/calendar.ics", views.player_calendar, name="player_calendar"),
]
