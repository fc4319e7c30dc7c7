"""Import and export URLs (`tournaments.views.data`); included from `tournaments.urls`."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import data

urlpatterns = [
    path("t/import/", data.import_upload, name="tournament_import"),
    path("t/import/preview/", data.import_preview, name="tournament_import_preview"),
    path("t/import/confirm/", data.import_confirm, name="tournament_import_confirm"),
    path("t/<id:pk>/standings.csv", data.standings_csv, name="tournament_standings_csv"),
    path("t/<id:pk>/standings.xlsx", data.standings_xlsx, name="tournament_standings_xlsx"),
    path("t/<id:pk>/deals.csv", data.deals_csv, name="tournament_deals_csv"),
]
