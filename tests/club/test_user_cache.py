"""The signed-in user read from the cache (club.auth.CachedModelBackend): no query for the
user after the first request, and a password change or a deactivation still ends the user's
other sessions at their next request."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db

HOME = "/"


def user_queries(client: Client) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(HOME).status_code == 200
    return [q["sql"] for q in queries.captured_queries if '"auth_user"' in q["sql"]]


def logged_in(django_user_model, password="pass-organiser-1") -> tuple[Client, object]:
    user = django_user_model.objects.create_user("organiser", password=password)
    client = Client()
    response = client.post(reverse("login"), {"username": "organiser", "password": password})
    assert response.status_code == 302  # signed in through the site's login form
    return client, user


def signed_in(client: Client) -> bool:
    """Whether a page that needs a login opens (200) rather than sending to log in."""
    response = client.get(reverse("tournaments:create"))
    return response.status_code == 200


def test_the_user_row_is_read_once_then_comes_from_the_cache(django_user_model):
    client, _user = logged_in(django_user_model)
    assert signed_in(client)  # the first request after the login reads it (and caches it)
    assert user_queries(client) == []
    assert user_queries(client) == []


def test_a_password_changed_elsewhere_ends_this_session(django_user_model):
    client, user = logged_in(django_user_model)
    assert signed_in(client)
    user.set_password("a-new-pass-66-organiser")
    user.save()  # e.g. in the admin, or the password form of another session
    assert not signed_in(client)


def test_a_deactivated_account_is_signed_out_at_once(django_user_model):
    client, user = logged_in(django_user_model)
    assert signed_in(client)
    user.is_active = False
    user.save()
    assert not signed_in(client)


def test_staff_rights_taken_away_apply_at_the_next_request(django_user_model):
    client, user = logged_in(django_user_model)
    user.is_staff = True
    user.save()
    assert client.get(reverse("admin:index")).status_code == 200
    user.is_staff = False
    user.save()
    assert client.get(reverse("admin:index")).status_code == 302  # the admin's login
