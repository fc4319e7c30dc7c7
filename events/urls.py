"""The events: `events:` (the home page, an event's setup and its rounds).

Every other area has its own URL module and namespace, all included from `config/urls.py`.
Paths never change: they are printed on scorecards (the QR code of each match) and shared
as links (`tests/test_url_paths.py`); only the names may.
"""

from django.urls import path

from events.views import announcement, pages, rounds, setup

app_name = "events"

urlpatterns = [
    path("", pages.home, name="home"),
    path("t/new/", setup.tournament_create, name="create"),
    path("t/<id:pk>/", pages.tournament_detail, name="detail"),
    path("t/<id:pk>/edit/", setup.tournament_edit, name="edit"),
    path("t/<id:pk>/players/", setup.players, name="players"),
    path("t/<id:pk>/players/add/", setup.player_add, name="player_add"),
    path("t/<id:pk>/players/<id:entry_pk>/remove/", setup.player_remove, name="player_remove"),
    path("t/<id:pk>/players/<id:entry_pk>/withdraw/", setup.player_withdraw,
         name="player_withdraw"),
    path("t/<id:pk>/draw/", setup.draw_numbers, name="draw"),
    path("t/<id:pk>/draw/lot/", setup.draw_by_lot, name="draw_lot"),
    path("t/<id:pk>/seed-by-rating/", setup.seed_by_rating, name="seed_by_rating"),
    path("t/<id:pk>/seed-from/", setup.seed_from_standings, name="seed_from_standings"),
    path("t/<id:pk>/start/", setup.tournament_start, name="start"),
    path("t/<id:pk>/announcement/", announcement.announcement, name="announcement"),
    path("t/<id:pk>/rounds/<id:number>/", rounds.round_detail, name="round"),
    path("t/<id:pk>/rounds/next/", rounds.round_pair_next, name="round_pair_next"),
    path("t/<id:pk>/rounds/<id:number>/again/", rounds.round_pair_again,
         name="round_pair_again"),
]
