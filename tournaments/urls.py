from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<int:pk>/", views.tournament_detail, name="tournament_detail"),
]
