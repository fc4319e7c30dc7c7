"""What lets the site work offline and install as an app: `offline:` (`/sw.js`, the service
worker, at the root so its scope covers every page; `/manifest.webmanifest`)."""

from django.urls import path

from core import views as offline

app_name = "offline"

urlpatterns = [
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
]
