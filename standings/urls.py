"""An event's standings and cross-table: `standings:`."""

from django.urls import path

from standings import views

app_name = "standings"

urlpatterns = [
    path("t/<id:pk>/standings/", views.standings, name="standings"),
    path("t/<id:pk>/crosstable/", views.cross_table, name="crosstable"),
]
