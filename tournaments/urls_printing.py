"""URLs of the print pages; `tournaments/urls.py` includes them: path("", include(...))."""

from django.urls import path

import club.converters  # noqa: F401  (registers <id:...>: 1 .. 2**63 - 1, else 404)
from tournaments.views import printing

urlpatterns = [
    path("t/<id:pk>/print/", printing.print_request, name="print_request"),
    path("t/<id:pk>/print/<id:job_pk>/", printing.print_status, name="print_status"),
    path("t/<id:pk>/print/<id:job_pk>/file/", printing.print_download, name="print_download"),
]
