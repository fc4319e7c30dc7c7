"""URLs of the print pages; `tournaments/urls.py` includes them: path("", include(...))."""

from django.urls import path

from tournaments.views import printing

urlpatterns = [
    path("t/<int:pk>/print/", printing.print_request, name="print_request"),
    path("t/<int:pk>/print/<int:job_pk>/", printing.print_status, name="print_status"),
    path("t/<int:pk>/print/<int:job_pk>/file/", printing.print_download, name="print_download"),
]
