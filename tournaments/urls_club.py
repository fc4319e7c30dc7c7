"""Clubs, their seasons and the players' pages: `clubs:`."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import players, seasons

app_name = "clubs"

urlpatterns = [
    path("club/<id:club_pk>/", seasons.club_detail, name="club"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/", seasons.season_detail, name="season"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/crosstable/", seasons.season_crosstable,
         name="season_crosstable"),
    path("players/<id:player_pk>/", players.player_detail, name="player"),
]
