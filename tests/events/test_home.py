"""Home page, tournament page, language switch and log-in (foundation pages)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments_in_bulgarian_by_default(client, tournament):
    response = client.get(reverse("events:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="bg">' in html
    assert "Турнири" in html
    assert "Купа Пловдив" in html


def test_home_in_english_after_switching_language(client, tournament):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Tournaments" in html
    assert "Купа Пловдив" in html


def test_private_tournament_hidden_from_visitors_but_not_its_organiser(
    client, organiser_client, tournament
):
    tournament.is_public = False
    tournament.save()
    assert "Купа Пловдив" not in client.get(reverse("events:home")).content.decode()
    assert client.get(tournament.get_absolute_url()).status_code == 404
    assert organiser_client.get(tournament.get_absolute_url()).status_code == 200


def test_tournament_page_lists_players_by_draw_number(client, tournament):
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert html.index("Иван Петров") < html.index("Мария Георгиева") < html.index("Димитър Николов")


def test_unknown_tournament_is_404_not_500(client):
    assert client.get("/t/999999/").status_code == 404


def test_organiser_logs_in_and_out(client, organiser):
    response = client.post(
        reverse("login"), {"username": "organiser", "password": "pass-organiser-1"}, follow=True
    )
    assert response.context["user"].is_authenticated
    response = client.post(reverse("logout"), follow=True)
    assert not response.context["user"].is_authenticated


def test_wrong_password_gets_a_message_not_a_session(client, organiser):
    response = client.post(reverse("login"), {"username": "organiser", "password": "nope"})
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated
    assert "errorlist" in response.content.decode() or "errors" in response.content.decode()


def test_admin_requires_staff(client, admin_client):
    assert client.get("/admin/").status_code == 302
    assert admin_client.get("/admin/").status_code == 200


def test_static_files_are_local_no_cdn(client, tournament):
    html = client.get(reverse("events:home")).content.decode()
    assert "/static/css/site.css" in html
    assert "/static/vendor/htmx.min.js" in html
    assert "https://" not in html and "http://" not in html


def test_browser_language_does_not_override_the_site_language(client, tournament):
    response = client.get(reverse("events:home"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert '<html lang="bg">' in response.content.decode()
    assert response["Content-Language"] == "bg"


def test_login_is_throttled_after_five_wrong_passwords(client, organiser):
    for _ in range(5):
        client.post(reverse("login"), {"username": "organiser", "password": "wrong"})
    right = {"username": "organiser", "password": "pass-organiser-1"}
    response = client.post(reverse("login"), right)
    assert response.status_code == 429
    assert not response.wsgi_request.user.is_authenticated
