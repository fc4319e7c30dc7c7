"""Root URLs: language switch, auth, admin, and each area's pages (one namespace each)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    # Each area of the site has its namespace (`tournaments:home`, `matches:entry`, ...); the
    # paths themselves are fixed (printed on scorecards), see tournaments/urls.py.
    path("", include("tournaments.urls")),
    path("", include("tournaments.urls_matches")),
    path("", include("tournaments.urls_data")),
    path("", include("tournaments.urls_printing")),
    path("", include("tournaments.urls_nights")),
    path("", include("tournaments.urls_club")),
    path("", include("tournaments.urls_players")),
    path("", include("tournaments.urls_offline")),
    path("", include("tournaments.urls_control")),
]

# An unreachable database met outside a view is a 503 too (with DEBUG off).
handler500 = "club.middleware.server_error"
