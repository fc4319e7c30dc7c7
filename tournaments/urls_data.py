"""Import and export (`tournaments.views.data`): `data:`."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import data

app_name = "data"

urlpatterns = [
    path("t/import/", data.import_upload, name="import"),
    path("t/import/preview/", data.import_preview, name="import_preview"),
    path("t/import/confirm/", data.import_confirm, name="import_confirm"),
    path("t/import/<id:pk>/", data.import_job, name="import_job"),
    path("t/<id:pk>/standings.csv", data.standings_csv, name="standings_csv"),
    path("t/<id:pk>/standings.xlsx", data.standings_xlsx, name="standings_xlsx"),
    path("t/<id:pk>/deals.csv", data.deals_csv, name="deals_csv"),
]
