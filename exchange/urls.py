"""Import and export (`exchange.views`): `data:`."""

from django.urls import path

from exchange import views as data

app_name = "data"

urlpatterns = [
    path("t/import/", data.import_upload, name="import"),
    path("t/import/preview/", data.import_preview, name="import_preview"),
    path("t/import/confirm/", data.import_confirm, name="import_confirm"),
    path("t/import/<id:pk>/", data.import_job, name="import_job"),
    path("t/import/<id:pk>/live/", data.import_job_stream, name="import_job_stream"),
    path("t/<id:pk>/standings.csv", data.standings_csv, name="standings_csv"),
    path("t/<id:pk>/standings.xlsx", data.standings_xlsx, name="standings_xlsx"),
    path("t/<id:pk>/deals.csv", data.deals_csv, name="deals_csv"),
]
