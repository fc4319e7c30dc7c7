"""Clubs, their seasons and the players' pages: `clubs:`."""

from django.urls import path

from club.views import players, seasons

app_name = "clubs"

urlpatterns = [
    path("club/<id:club_pk>/", seasons.club_detail, name="club"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/", seasons.season_detail, name="season"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/crosstable/", seasons.season_crosstable,
         name="season_crosstable"),
    path("players/<id:player_pk>/", players.player_detail, name="player"),
]
