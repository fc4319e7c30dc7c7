"""Club nights, clubs and their seasons, players (issue 7)."""

from django.urls import path

from tournaments.views import club_nights, players, seasons

urlpatterns = [
    path("night/new/", club_nights.club_night_create, name="club_night_create"),
    path("t/<int:pk>/night/", club_nights.club_night_detail, name="club_night_detail"),
    path("t/<int:pk>/night/pair/", club_nights.club_night_pair, name="club_night_pair"),
    path("t/<int:pk>/night/close/", club_nights.club_night_close, name="club_night_close"),
    path("t/<int:pk>/night/m/<int:match_pk>/take-back/", club_nights.club_night_unpair,
         name="club_night_unpair"),
    path("club/<int:club_pk>/", seasons.club_detail, name="club_detail"),
    path("club/<int:club_pk>/seasons/<int:season_pk>/", seasons.season_detail,
         name="season_detail"),
    path("players/<int:player_pk>/", players.player_detail, name="player_detail"),
]
