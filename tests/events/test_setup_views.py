"""Organiser pages: create, players, draw, start, edit; each write view's four tests."""

import pytest
from django.urls import reverse

from club.models import Player
from events import services
from events.models import Tournament
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match

pytestmark = pytest.mark.django_db

NEW_TOURNAMENT = {
    "name": "Купа Варна", "date": "2026-12-12", "venue": "Варна", "format": "round_robin",
    "is_public": "on", "withdrawal_policy": "forfeit_rest",
    "game_target": "11", "first_trick_marriage": "forbidden", "last_trick": "bonus",
    "false_claim_points": "3", "failed_close": "flat", "opponent_out_after_close_points": "3",
    "schneider_below": "33", "capot_by": "tricks", "next_dealer": "winner",
    "close_when": "stock_over_two",
    "tie_break_1": "head_to_head", "tie_break_2": "game_point_difference",
    "tie_break_3": "game_points_scored", "tie_break_4": "sonneborn_berger", "tie_break_5": "lots",
}


def test_create_tournament_makes_the_user_its_organiser(organiser_client, organiser):
    response = organiser_client.post(reverse("events:create"), NEW_TOURNAMENT)
    tournament = Tournament.objects.get(name="Купа Варна")
    assert response.status_code == 302
    assert response.url == reverse("events:players", args=[tournament.pk])
    assert list(tournament.organisers.all()) == [organiser]
    assert tournament.house_rules() == rules.HouseRules()
    assert tournament.tie_breaks == [
        "head_to_head", "game_point_difference", "game_points_scored", "sonneborn_berger", "lots"
    ]


def test_close_when_is_a_house_rule_of_the_tournament_form(organiser_client):
    # Seed 002 closes "when on lead and the deck has cards": the form offers it, it is stored,
    # and the matches score under it.
    form = organiser_client.get(reverse("events:create")).context["form"]
    assert form["close_when"].value() == "stock_over_two"
    assert "close_when" in [field.name for field in form.house_rule_fields()]
    data = dict(NEW_TOURNAMENT, close_when="stock_not_empty")
    assert organiser_client.post(reverse("events:create"), data).status_code == 302
    tournament = Tournament.objects.get(name="Купа Варна")
    assert tournament.close_when == "stock_not_empty"
    assert tournament.house_rules() == rules.HouseRules(close_when="stock_not_empty")


def test_an_unknown_close_when_is_refused_and_writes_nothing(organiser_client):
    data = dict(NEW_TOURNAMENT, close_when="never")
    response = organiser_client.post(reverse("events:create"), data)
    assert response.status_code == 422
    assert not Tournament.objects.exists()


def test_create_requires_login(client):
    response = client.post(reverse("events:create"), NEW_TOURNAMENT)
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not Tournament.objects.exists()


def test_create_with_bad_input_writes_nothing(organiser_client):
    data = dict(NEW_TOURNAMENT, date="31.02.2026", tie_break_2="head_to_head")
    response = organiser_client.post(reverse("events:create"), data)
    assert response.status_code == 422
    assert not Tournament.objects.exists()
    html = response.content.decode()
    assert "Изберете всеки показател най-много веднъж." in html
    assert "Въведете валидна дата." in html


def test_pagat_preset_is_one_click_and_saves_nothing(organiser_client):
    response = organiser_client.post(
        reverse("events:create"), dict(NEW_TOURNAMENT, apply_preset="pagat")
    )
    assert response.status_code == 200
    assert not Tournament.objects.exists()
    form = response.context["form"]
    assert form["failed_close"].value() == "tricks_at_close"
    assert form["false_claim_points"].value() == "2"
    assert form["first_trick_marriage"].value() == "pending"
    assert form["opponent_out_after_close_points"].value() == "2"


def test_add_new_and_registered_players(organiser_client, tournament, home_club):
    url = reverse("events:player_add", args=[tournament.pk])
    organiser_client.post(url, {"new_name": "  Радка   Пенева "})
    registered = Player.objects.create(name="Стоян Колев", club=home_club)
    organiser_client.post(url, {"player": registered.pk})
    names = list(tournament.entries.order_by("number").values_list("player__name", flat=True))
    assert names[-2:] == ["Радка Пенева", "Стоян Колев"]
    assert tournament.entries.get(player=registered).number == 7


def test_add_player_needs_exactly_one_of_register_or_name(organiser_client, tournament):
    url = reverse("events:player_add", args=[tournament.pk])
    response = organiser_client.post(url, {"new_name": ""})
    assert response.status_code == 422
    assert tournament.entries.count() == 5


def test_add_player_get_is_405_and_outsider_403(organiser_client, outsider_client, tournament):
    url = reverse("events:player_add", args=[tournament.pk])
    assert organiser_client.get(url).status_code == 405
    assert outsider_client.post(url, {"new_name": "Натрапник"}).status_code == 403
    assert not Player.objects.filter(name="Натрапник").exists()


def test_draw_numbers_by_hand_must_be_a_permutation(organiser_client, tournament):
    entries = list(tournament.entries.order_by("number"))
    url = reverse("events:draw", args=[tournament.pk])
    bad = {f"entry_{e.pk}": 1 for e in entries}
    assert organiser_client.post(url, bad).status_code == 422
    assert [e.number for e in tournament.entries.order_by("pk")] == [1, 2, 3, 4, 5]
    good = {f"entry_{e.pk}": 5 - i for i, e in enumerate(entries)}
    assert organiser_client.post(url, good).status_code == 302
    assert [e.number for e in tournament.entries.order_by("pk")] == [5, 4, 3, 2, 1]


def test_draw_by_lot_keeps_numbers_one_to_n(organiser_client, tournament):
    organiser_client.post(reverse("events:draw_lot", args=[tournament.pk]))
    assert sorted(tournament.entries.values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_start_then_players_are_fixed(organiser_client, tournament):
    response = organiser_client.post(reverse("events:start", args=[tournament.pk]))
    assert response.url == reverse("events:round", args=[tournament.pk, 1])
    response = organiser_client.post(
        reverse("events:player_add", args=[tournament.pk]), {"new_name": "Късен"}, follow=True
    )
    assert tournament.entries.count() == 5
    assert any("started" in str(m) or "започнал" in str(m) for m in response.context["messages"])


def test_start_refused_says_why_and_writes_nothing(organiser_client, tournament):
    """Two players cannot make a round robin (at least 3): the players page again, 409, with
    the reason, as for a knockout; nothing is drawn."""
    tournament.entries.filter(number__gt=2).delete()
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(reverse("events:start", args=[tournament.pk]))
    assert response.status_code == 409
    assert "A round robin needs at least 3 players." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT and not tournament.rounds.exists()


def test_start_refused_for_outsider_and_anonymous(client, outsider_client, tournament):
    url = reverse("events:start", args=[tournament.pk])
    assert outsider_client.post(url).status_code == 403
    assert client.post(url).status_code == 302
    assert client.get(url).status_code in (302, 405)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.DRAFT


def test_house_rules_freeze_after_the_first_deal(organiser_client, tournament):
    services.tournament_start(tournament=tournament)
    url = reverse("events:edit", args=[tournament.pk])
    data = dict(NEW_TOURNAMENT, name=tournament.name, game_target="7")
    assert organiser_client.post(url, data).status_code == 302
    assert {m.house_rules().game_target for m in Match.objects.all()} == {7}
    match = Match.objects.first()
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=None)
    organiser_client.post(url, dict(data, game_target="11"))
    tournament.refresh_from_db()
    assert tournament.game_target == 7  # disabled field keeps its value
    assert {m.house_rules().game_target for m in Match.objects.all()} == {7}


def test_round_and_standings_pages_are_public(client, tournament):
    services.tournament_start(tournament=tournament)
    round_page = client.get(reverse("events:round", args=[tournament.pk, 1]))
    assert round_page.status_code == 200
    html = round_page.content.decode()
    assert "Иван Петров" in html  # number 1 rests in round 1 of five
    standings = client.get(reverse("standings:standings", args=[tournament.pk]))
    assert standings.status_code == 200
    assert client.get(reverse("events:round", args=[tournament.pk, 99])).status_code == 404


def test_edit_page_refused_to_outsider(outsider_client, tournament):
    assert outsider_client.get(reverse("events:edit", args=[tournament.pk])).status_code == 403
