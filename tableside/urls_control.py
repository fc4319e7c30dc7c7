"""The organiser's control room of an event or club night (`tableside.views.control_room`):
`control:`."""

from django.urls import path

from tableside.views import control_room

app_name = "control"

urlpatterns = [
    path("t/<id:pk>/control/", control_room.control, name="room"),
    path("t/<id:pk>/control/links/", control_room.links, name="links"),
    path("t/<id:pk>/control/m/<id:match_pk>/approve/", control_room.approve, name="approve"),
    path("t/<id:pk>/control/m/<id:match_pk>/renew/", control_room.renew, name="renew"),
    path("t/<id:pk>/control/m/<id:match_pk>/free/<str:seat>/", control_room.seat_free,
         name="seat_free"),
    path("t/<id:pk>/control/m/<id:match_pk>/card/", control_room.card, name="card"),
    path("t/<id:pk>/control/claims/<id:claim_pk>/approve/", control_room.claim_approve,
         name="claim_approve"),
    path("t/<id:pk>/control/claims/<id:claim_pk>/refuse/", control_room.claim_refuse,
         name="claim_refuse"),
]
