"""A URL configuration of its own for tests/club/test_url_memo.py."""

from django.urls import include, path

from tests.club import test_url_memo

urlpatterns = [path("", include(test_url_memo))]
