from django.urls import include, path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import bracket, matches, pages, rounds, setup, standings

urlpatterns = [
    path("", pages.home, name="home"),
    path("t/new/", setup.tournament_create, name="tournament_create"),
    path("t/<id:pk>/", pages.tournament_detail, name="tournament_detail"),
    path("t/<id:pk>/edit/", setup.tournament_edit, name="tournament_edit"),
    path("t/<id:pk>/players/", setup.players, name="tournament_players"),
    path("t/<id:pk>/players/add/", setup.player_add, name="tournament_player_add"),
    path("t/<id:pk>/players/<id:entry_pk>/remove/", setup.player_remove,
         name="tournament_player_remove"),
    path("t/<id:pk>/players/<id:entry_pk>/withdraw/", setup.player_withdraw,
         name="tournament_player_withdraw"),
    path("t/<id:pk>/draw/", setup.draw_numbers, name="tournament_draw"),
    path("t/<id:pk>/draw/lot/", setup.draw_by_lot, name="tournament_draw_lot"),
    path("t/<id:pk>/seed-by-rating/", setup.seed_by_rating, name="tournament_seed_by_rating"),
    path("t/<id:pk>/seed-from/", setup.seed_from_standings,
         name="tournament_seed_from_standings"),
    path("t/<id:pk>/start/", setup.tournament_start, name="tournament_start"),
    path("t/<id:pk>/bracket/", bracket.bracket, name="tournament_bracket"),
    path("t/<id:pk>/rounds/<id:number>/", rounds.round_detail, name="round_detail"),
    path("t/<id:pk>/standings/", standings.standings, name="tournament_standings"),
    path("m/<id:match_pk>/", matches.match_entry, name="match_entry"),
    path("m/<id:match_pk>/deal/", matches.deal_add, name="match_deal_add"),
    path("m/<id:match_pk>/deal/details/", matches.deal_details_form,
         name="match_deal_details_form"),
    path("m/<id:match_pk>/undo/", matches.deal_undo, name="match_deal_undo"),
    path("m/<id:match_pk>/deals/<id:number>/correct/", matches.deal_correct,
         name="match_deal_correct"),
    path("", include("tournaments.urls_data")),
    path("", include("tournaments.urls_printing")),
    path("", include("tournaments.urls_club")),
]
