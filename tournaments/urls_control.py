"""The organiser's control room of an event or club night (`tournaments.views.control_room`):
`control:`."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import control_room

app_name = "control"

urlpatterns = [
    path("t/<id:pk>/control/", control_room.control, name="room"),
    path("t/<id:pk>/control/links/", control_room.links, name="links"),
    path("t/<id:pk>/control/m/<id:match_pk>/approve/", control_room.approve, name="approve"),
    path("t/<id:pk>/control/m/<id:match_pk>/renew/", control_room.renew, name="renew"),
    path("t/<id:pk>/control/m/<id:match_pk>/card/", control_room.card, name="card"),
]
