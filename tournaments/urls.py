"""The events: `tournaments:` (the home page, an event's setup, rounds, standings, bracket).

The site's other areas each have their own module and namespace, all included from the root
URLs (`club/urls.py`): `matches:` (urls_matches), `data:` (urls_data), `printing:`
(urls_printing), `nights:` (urls_nights), `clubs:` (urls_club). Paths never change: they are
printed on scorecards (the QR code of each match) and shared as links
(`tests/test_url_paths.py`); only the names may.
"""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import bracket, groups, pages, projector, rounds, setup, standings

app_name = "tournaments"

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
    path("t/<id:pk>/bracket/", bracket.bracket, name="bracket"),
    path("t/<id:pk>/groups/", groups.groups, name="groups"),
    path("t/<id:pk>/groups/knockout/", groups.knockout_start, name="knockout_start"),
    path("t/<id:pk>/rounds/<id:number>/", rounds.round_detail, name="round"),
    path("t/<id:pk>/rounds/next/", rounds.round_pair_next, name="round_pair_next"),
    path("t/<id:pk>/rounds/<id:number>/again/", rounds.round_pair_again,
         name="round_pair_again"),
    path("t/<id:pk>/standings/", standings.standings, name="standings"),
    path("t/<id:pk>/crosstable/", standings.cross_table, name="crosstable"),
    path("t/<id:pk>/projector/", projector.projector, name="projector"),
]
