"""The players' pages at the table: `players:`, `/p/<token>/` (a match's secret link).

The token is the only key: these views never take a match id, and no organiser page accepts a
token (`tableside.table_entry`).
"""

from django.urls import path

from tableside.views import players as table

app_name = "players"

urlpatterns = [
    path("p/<token:token>/", table.match_page, name="match"),
    path("p/<token:token>/seat/", table.seat_choose, name="seat"),
    path("p/<token:token>/deal/", table.deal_add, name="deal_add"),
    path("p/<token:token>/deal/sync/", table.deal_sync, name="deal_sync"),
    path("p/<token:token>/undo/", table.deal_undo, name="deal_undo"),
    path("p/<token:token>/confirm/", table.deal_confirm, name="deal_confirm"),
    path("p/<token:token>/sign/", table.result_sign, name="sign"),
    path("p/<token:token>/dispute/", table.result_dispute, name="dispute"),
    path("p/<token:token>/undo/ask/", table.undo_ask, name="undo_ask"),
    path("p/<token:token>/undo/answer/", table.undo_answer, name="undo_answer"),
    # The same match from a player's pass (`passes:page`): the seat is the pass's player's.
    path("pass/<token:token>/m/<id:match_pk>/", table.pass_match, name="pass_match"),
    path("pass/<token:token>/m/<id:match_pk>/deal/", table.pass_deal_add, name="pass_deal_add"),
    path("pass/<token:token>/m/<id:match_pk>/deal/sync/", table.pass_deal_sync,
         name="pass_deal_sync"),
    path("pass/<token:token>/m/<id:match_pk>/undo/", table.pass_deal_undo,
         name="pass_deal_undo"),
    path("pass/<token:token>/m/<id:match_pk>/confirm/", table.pass_deal_confirm,
         name="pass_deal_confirm"),
    path("pass/<token:token>/m/<id:match_pk>/sign/", table.pass_sign, name="pass_sign"),
    path("pass/<token:token>/m/<id:match_pk>/code/", table.pass_code_sign,
         name="pass_code_sign"),
    path("pass/<token:token>/m/<id:match_pk>/dispute/", table.pass_dispute,
         name="pass_dispute"),
    path("pass/<token:token>/m/<id:match_pk>/undo/ask/", table.pass_undo_ask,
         name="pass_undo_ask"),
    path("pass/<token:token>/m/<id:match_pk>/undo/answer/", table.pass_undo_answer,
         name="pass_undo_answer"),
    path("pass/<token:token>/m/<id:match_pk>/undo/code/", table.pass_undo_code,
         name="pass_undo_code"),
]
