"""The admin never changes an event's course (events/admin.py): a staff superuser who
posts a new format, status or house rules for a running event, adds or deletes its entries, or
reverts it to a version from before the start, changes nothing of that; matches and deals have
no admin (they change only through `scoring.services`)."""

import json

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from events import services
from events.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def change_url(tournament) -> str:
    return reverse("admin:events_tournament_change", args=[tournament.pk])


def form_data(response) -> dict:
    """What the admin's change form (the page in `response`) would post unchanged: each field
    it lets the user edit, with its initial value, and the entries inline's forms."""
    data = {}
    form = response.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        if name == "tie_breaks":  # JSON in a text area
            data[name] = value if isinstance(value, str) else json.dumps(value)
        elif isinstance(value, list):
            data[name] = [str(item) for item in value]
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    for inline in response.context.get("inline_admin_formsets", []):  # none on a revert
        formset = inline.formset
        for key, value in formset.management_form.initial.items():
            data[f"{formset.prefix}-{key}"] = value
        for form in formset.initial_forms:
            for name in form.fields:
                value = form[name].value()
                if value is not None and value is not False:
                    data[form.add_prefix(name)] = str(value) if value is not True else "on"
    return data


@pytest.fixture
def running(tournament):
    services.tournament_start(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_a_running_event_keeps_its_format_status_and_house_rules(admin_client, running):
    page = admin_client.get(change_url(running))
    assert page.status_code == 200
    data = form_data(page) | {
        "name": "Купа Пловдив 2026", "format": "knockout", "status": "draft",
        "game_target": "7", "schneider_below": "31", "third_place_match": "on",
    }
    response = admin_client.post(change_url(running), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    running.refresh_from_db()
    assert running.name == "Купа Пловдив 2026"  # the change form was saved...
    assert (running.format, running.status) == ("round_robin", "running")  # ...but not these
    assert (running.game_target, running.schneider_below, running.third_place_match) == (
        11, 33, False,
    )
    form = page.context["adminform"].form  # shown, not offered
    assert not {"format", "status", "game_target", "schneider_below"} & set(form.fields)


def test_a_running_event_takes_no_entry_and_loses_none(admin_client, running, players):
    page = admin_client.get(change_url(running))
    inline = page.context["inline_admin_formsets"][0]
    assert not inline.has_add_permission and not inline.has_delete_permission
    assert not inline.has_change_permission
    data = form_data(page)
    first = running.entries.order_by("number").first()
    data |= {
        "entries-TOTAL_FORMS": "6",
        "entries-5-player": str(players[5].pk), "entries-5-number": "6",
        "entries-5-tournament": str(running.pk),
        "entries-0-DELETE": "on", "entries-0-number": "9", "entries-0-withdrawn": "on",
    }
    response = admin_client.post(change_url(running), data)
    assert response.status_code == 302
    entries = list(running.entries.order_by("number").values_list("player", "number",
                                                                  "withdrawn"))
    assert entries == [(player.pk, number, False)
                       for number, player in enumerate(players[:5], start=1)]
    assert Entry.objects.get(pk=first.pk).number == 1


def test_a_revert_to_the_draft_keeps_the_running_event_running(admin_client, tournament):
    tournament.format = Tournament.Format.KNOCKOUT  # a change made before the start
    tournament.save()
    tournament.format = Tournament.Format.ROUND_ROBIN
    tournament.save()
    services.tournament_start(tournament=tournament)
    knockout_version = tournament.history.filter(format="knockout").get()  # a draft
    assert knockout_version.status == "draft"
    url = reverse("admin:events_tournament_simple_history",
                  args=[tournament.pk, knockout_version.history_id])
    page = admin_client.get(url)
    assert page.status_code == 200
    response = admin_client.post(url, form_data(page) | {"name": "Старо име"})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Старо име"
    assert (tournament.format, tournament.status) == ("round_robin", "running")


def test_before_the_start_the_admin_edits_the_format_and_the_entries(
    admin_client, tournament, players
):
    page = admin_client.get(change_url(tournament))
    form = page.context["adminform"].form
    assert {"format", "game_target"} <= set(form.fields)
    assert "status" not in form.fields  # only the services start an event
    data = form_data(page) | {
        "format": "knockout", "status": "running",
        "entries-TOTAL_FORMS": "6", "entries-5-player": str(players[5].pk),
        "entries-5-number": "6", "entries-5-tournament": str(tournament.pk),
    }
    response = admin_client.post(change_url(tournament), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.format, tournament.status) == ("knockout", "draft")
    assert tournament.entries.count() == 6


def test_matches_and_deals_have_no_admin(admin_client):
    for model in apps.get_app_config("scoring").get_models():
        assert not admin.site.is_registered(model), model
    assert admin_client.get("/admin/scoring/deal/").status_code == 404
    assert admin_client.get("/admin/scoring/match/").status_code == 404
