"""The projector: `live:`."""

from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("t/<id:pk>/projector/", views.projector, name="projector"),
]
