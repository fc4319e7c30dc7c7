"""The projector and the live pages' streams: `live:`."""

from django.urls import path

from live.views import projector, streams

app_name = "live"

urlpatterns = [
    path("t/<id:pk>/projector/", projector.projector, name="projector"),
    path("t/<id:pk>/live/", streams.event_stream, name="event_stream"),
    path("m/<id:match_pk>/live/", streams.match_stream, name="match_stream"),
    path("p/<token:token>/live/", streams.link_stream, name="link_stream"),
    path("pass/<token:token>/live/", streams.pass_stream, name="pass_stream"),
    path("join/claim/live/", streams.claim_stream, name="claim_stream"),
    path("pass/<token:token>/m/<id:match_pk>/live/", streams.pass_match_stream,
         name="pass_match_stream"),
]
