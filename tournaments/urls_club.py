"""Club nights, clubs and their seasons, players (issue 7)."""

from django.urls import path

from tournaments.views import players, seasons

urlpatterns = [
    path("club/<int:club_pk>/", seasons.club_detail, name="club_detail"),
    path("club/<int:club_pk>/seasons/<int:season_pk>/", seasons.season_detail,
         name="season_detail"),
    path("players/<int:player_pk>/", players.player_detail, name="player_detail"),
]
