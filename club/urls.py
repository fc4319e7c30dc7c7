"""Root URLs: language switch, auth, admin, and each app's pages."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("tournaments.urls")),
]

# An unreachable database met outside a view is a 503 too (with DEBUG off).
handler500 = "club.middleware.server_error"
