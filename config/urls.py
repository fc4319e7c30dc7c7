"""Root URLs: language switch, auth, admin, and each area's pages (one namespace each)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    # Each area of the site has its namespace (`events:home`, `matches:entry`, ...); the
    # paths themselves never change (printed on scorecards): tests/test_url_paths.py.
    path("", include("events.urls")),
    path("", include("standings.urls")),
    path("", include("formats.knockout.urls")),
    path("", include("formats.groups.urls")),
    path("", include("live.urls")),
    path("", include("tableside.urls_matches")),
    path("", include("exchange.urls")),
    path("", include("printing.urls")),
    path("", include("formats.club_night.urls")),
    path("", include("club.urls")),
    path("", include("feeds.urls")),
    path("", include("tableside.urls_players")),
    path("", include("passes.urls")),
    path("", include("core.urls")),
    path("", include("tableside.urls_control")),
]

# An unreachable database met outside a view is a 503 too (with DEBUG off).
handler500 = "config.middleware.server_error"
