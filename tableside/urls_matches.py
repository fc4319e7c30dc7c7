"""A match's page and what it posts (deals, undo, corrections): `matches:`.

`/m/<id>/` is printed as the QR code of every scorecard (`matches:entry`): it never moves.
"""

from django.urls import path

from tableside.views import final_score, matches, offline, scorecard

app_name = "matches"

urlpatterns = [
    path("m/<id:match_pk>/", matches.match_entry, name="entry"),
    path("m/<id:match_pk>/deal/", matches.deal_add, name="deal_add"),
    path("m/<id:match_pk>/deal/sync/", offline.deal_sync, name="deal_sync"),
    path("m/<id:match_pk>/deal/details/", matches.deal_details_form, name="deal_details_form"),
    path("m/<id:match_pk>/undo/", matches.deal_undo, name="deal_undo"),
    path("m/<id:match_pk>/deals/<id:number>/correct/", matches.deal_correct,
         name="deal_correct"),
    path("m/<id:match_pk>/scorecard/", scorecard.scorecard, name="scorecard"),
    path("m/<id:match_pk>/final/", final_score.final_score, name="final_score"),
    path("m/<id:match_pk>/final/undo/", final_score.final_score_undo, name="final_score_undo"),
    path("m/<id:match_pk>/players/renew/", matches.link_renew, name="link_renew"),
    path("m/<id:match_pk>/players/approve/", matches.result_approve, name="result_approve"),
    path("m/<id:match_pk>/players/free/<str:seat>/", matches.seat_free, name="seat_free"),
]
