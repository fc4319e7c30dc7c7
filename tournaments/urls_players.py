"""The players' pages at the table: `players:`, `/p/<token>/` (a match's secret link).

The token is the only key: these views never take a match id, and no organiser page accepts a
token (`tournaments.table_entry`).
"""

from django.urls import path

from tournaments.views import table

app_name = "players"

urlpatterns = [
    path("p/<str:token>/", table.match_page, name="match"),
    path("p/<str:token>/seat/", table.seat_choose, name="seat"),
    path("p/<str:token>/deal/", table.deal_add, name="deal_add"),
    path("p/<str:token>/undo/", table.deal_undo, name="deal_undo"),
    path("p/<str:token>/confirm/", table.deal_confirm, name="deal_confirm"),
    path("p/<str:token>/sign/", table.result_sign, name="sign"),
    path("p/<str:token>/dispute/", table.result_dispute, name="dispute"),
]
