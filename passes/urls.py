"""The players' passes: `passes:`. `/pass/<token>/` is a player's own page (the token is the
only key); `/join/<code>/` and `/join/claim/` self check-in (`views_join`); the organiser's
pages hang under the player and the club."""

from django.urls import path

from passes import views, views_join

app_name = "passes"

urlpatterns = [
    path("pass/<token:token>/", views.pass_page, name="page"),
    path("pass/<token:token>/here/<id:pk>/", views.arrive, name="arrive"),
    # Before `join/<code>/`: "claim" is no join code (its I and L are not in the alphabet).
    path("join/claim/", views_join.claim, name="claim"),
    path("join/<str:code>/", views_join.join, name="join"),
    path("club/<id:club_pk>/join-code/renew/", views_join.join_code_renew,
         name="join_code_renew"),
    path("players/<id:player_pk>/pass/", views.player_pass, name="player"),
    path("club/<id:club_pk>/passes/", views.slips, name="slips"),
    path("club/<id:club_pk>/passes/make/", views.slips_make, name="slips_make"),
    path("club/<id:club_pk>/passes.pdf", views.slips_pdf, name="slips_pdf"),
]
