"""A knockout's bracket page: `knockout:`."""

from django.urls import path

from formats.knockout import views

app_name = "knockout"

urlpatterns = [
    path("t/<id:pk>/bracket/", views.bracket, name="bracket"),
]
