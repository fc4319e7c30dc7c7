"""The group stage's page and the start of its knockout: `groups:`."""

from django.urls import path

from formats.groups import views

app_name = "groups"

urlpatterns = [
    path("t/<id:pk>/groups/", views.groups, name="detail"),
    path("t/<id:pk>/groups/knockout/", views.knockout_start, name="knockout_start"),
]
