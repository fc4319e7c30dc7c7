"""Club nights, clubs and their seasons, players (issue 7)."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import club_nights, players, seasons

urlpatterns = [
    path("night/new/", club_nights.club_night_create, name="club_night_create"),
    path("t/<id:pk>/night/", club_nights.club_night_detail, name="club_night_detail"),
    path("t/<id:pk>/night/pair/", club_nights.club_night_pair, name="club_night_pair"),
    path("t/<id:pk>/night/close/", club_nights.club_night_close, name="club_night_close"),
    path("t/<id:pk>/night/m/<id:match_pk>/take-back/", club_nights.club_night_unpair,
         name="club_night_unpair"),
    path("club/<id:club_pk>/", seasons.club_detail, name="club_detail"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/", seasons.season_detail,
         name="season_detail"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/crosstable/", seasons.season_crosstable,
         name="season_crosstable"),
    path("players/<id:player_pk>/", players.player_detail, name="player_detail"),
]
