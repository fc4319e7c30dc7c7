from django.urls import include, path

from tournaments.views import bracket, matches, pages, rounds, setup, standings

urlpatterns = [
    path("", pages.home, name="home"),
    path("t/new/", setup.tournament_create, name="tournament_create"),
    path("t/<int:pk>/", pages.tournament_detail, name="tournament_detail"),
    path("t/<int:pk>/edit/", setup.tournament_edit, name="tournament_edit"),
    path("t/<int:pk>/players/", setup.players, name="tournament_players"),
    path("t/<int:pk>/players/add/", setup.player_add, name="tournament_player_add"),
    path("t/<int:pk>/players/<int:entry_pk>/remove/", setup.player_remove,
         name="tournament_player_remove"),
    path("t/<int:pk>/players/<int:entry_pk>/withdraw/", setup.player_withdraw,
         name="tournament_player_withdraw"),
    path("t/<int:pk>/draw/", setup.draw_numbers, name="tournament_draw"),
    path("t/<int:pk>/draw/lot/", setup.draw_by_lot, name="tournament_draw_lot"),
    path("t/<int:pk>/seed-from/", setup.seed_from_standings,
         name="tournament_seed_from_standings"),
    path("t/<int:pk>/start/", setup.tournament_start, name="tournament_start"),
    path("t/<int:pk>/bracket/", bracket.bracket, name="tournament_bracket"),
    path("t/<int:pk>/rounds/<int:number>/", rounds.round_detail, name="round_detail"),
    path("t/<int:pk>/standings/", standings.standings, name="tournament_standings"),
    path("m/<int:match_pk>/", matches.match_entry, name="match_entry"),
    path("m/<int:match_pk>/deal/", matches.deal_add, name="match_deal_add"),
    path("m/<int:match_pk>/deal/details/", matches.deal_details_form,
         name="match_deal_details_form"),
    path("m/<int:match_pk>/undo/", matches.deal_undo, name="match_deal_undo"),
    path("m/<int:match_pk>/deals/<int:number>/correct/", matches.deal_correct,
         name="match_deal_correct"),
    path("", include("tournaments.urls_data")),
    path("", include("tournaments.urls_printing")),
    path("", include("tournaments.urls_club")),
]
