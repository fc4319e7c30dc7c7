"""The print pages (`printing.views`): `printing:`."""

from django.urls import path

from printing import views as printing

app_name = "printing"

urlpatterns = [
    path("t/<id:pk>/print/", printing.print_request, name="request"),
    path("t/<id:pk>/print/<id:job_pk>/", printing.print_status, name="status"),
    path("t/<id:pk>/print/<id:job_pk>/live/", printing.print_status_stream,
         name="status_stream"),
    path("t/<id:pk>/print/<id:job_pk>/file/", printing.print_download, name="download"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/print/", printing.season_print_request,
         name="season_request"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/print/<id:job_pk>/",
         printing.season_print_status, name="season_status"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/print/<id:job_pk>/live/",
         printing.season_print_status_stream, name="season_status_stream"),
    path("club/<id:club_pk>/seasons/<id:season_pk>/print/<id:job_pk>/file/",
         printing.season_print_download, name="season_download"),
]
