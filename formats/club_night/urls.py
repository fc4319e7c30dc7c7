"""Club nights (`formats.club_night.views`): `nights:`."""

from django.urls import path

from formats.club_night import views as club_nights

app_name = "nights"

urlpatterns = [
    path("night/new/", club_nights.club_night_create, name="create"),
    path("t/<id:pk>/night/", club_nights.club_night_detail, name="detail"),
    path("t/<id:pk>/night/pair/", club_nights.club_night_pair, name="pair"),
    path("t/<id:pk>/night/close/", club_nights.club_night_close, name="close"),
    path("t/<id:pk>/night/m/<id:match_pk>/take-back/", club_nights.club_night_unpair,
         name="unpair"),
]
