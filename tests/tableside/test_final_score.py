"""Events that keep only match results (`Tournament.records` = final score only): the match
page asks the final score alone, checked by `rules.final_score_valid` (to 11 the winner ends
at 11-13, the other at 0-10), stored on the match without deals; the standings and their
export say so. Write views: works, wrong method, outsider, bad input writes nothing."""

import csv
import io

import pytest
from django.urls import reverse

from events.forms import TournamentForm
from events.models import EntryMode, Pairing, Records, Tournament
from events.services import tournament_start
from scoring import rules, services
from scoring.models import Deal, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_only(tournament):
    tournament.records = Records.FINAL_SCORE
    tournament.entry_mode = EntryMode.ORGANISER
    tournament.save()
    tournament_start(tournament=tournament)
    return tournament


@pytest.fixture
def match(final_only):
    return Pairing.objects.filter(match__isnull=False).order_by("round__number", "table")[0].match


def english(client):
    client.cookies["django_language"] = "en"
    return client


def final_url(match):
    return reverse("matches:final_score", args=[match.pk])


def test_the_match_page_asks_only_the_final_score(organiser_client, match):
    html = english(organiser_client).get(reverse("matches:entry", args=[match.pk])).content
    html = html.decode()
    assert final_url(match) in html
    assert reverse("matches:deal_add", args=[match.pk]) not in html
    assert reverse("matches:scorecard", args=[match.pk]) not in html


def test_a_final_score_finishes_the_match_without_deals(organiser_client, organiser, match):
    response = organiser_client.post(final_url(match), {"game_points_a": "7",
                                                        "game_points_b": "11"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.game_points_a, match.game_points_b) == (
        Match.Status.FINISHED, "B", 7, 11)
    assert not match.deals.exists()
    last = match.history.latest()
    assert (last.history_change_reason, last.history_user_id) == ("final score", organiser.pk)
    html = english(organiser_client).get(reverse("matches:entry", args=[match.pk])).content
    assert "Final score only: this event keeps the result of each match" in html.decode()


@pytest.mark.parametrize(("a", "b", "message"), [
    ("14", "3", "A match cannot end 14:3: the winner has 11 to 13 game points"),
    ("11", "11", "A match cannot end 11:11"),
    ("9", "10", "A match cannot end 9:10"),
])
def test_a_score_no_match_can_end_with_is_refused(organiser_client, match, a, b, message):
    response = english(organiser_client).post(final_url(match), {"game_points_a": a,
                                                                 "game_points_b": b})
    assert response.status_code == 422
    assert message in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_not_a_number_is_refused(organiser_client, match):
    response = organiser_client.post(final_url(match), {"game_points_a": "x",
                                                        "game_points_b": "3"})
    assert response.status_code == 422
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_deals_are_refused_in_such_an_event(organiser_client, match):
    response = english(organiser_client).post(
        reverse("matches:deal_add", args=[match.pk]),
        {"number": "1", "winner": "A", "reason": "won"},
    )
    assert response.status_code == 409
    assert "keeps only the final score" in response.content.decode()
    assert not Deal.objects.exists()
    assert organiser_client.get(reverse("matches:scorecard", args=[match.pk])).status_code == 409


def test_a_final_score_is_refused_where_deals_are_kept(organiser_client, tournament):
    tournament_start(tournament=tournament)
    match = Pairing.objects.filter(match__isnull=False).first().match
    response = organiser_client.post(final_url(match), {"game_points_a": "11",
                                                        "game_points_b": "2"})
    assert response.status_code == 409
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_taken_back_and_entered_again(organiser_client, match):
    organiser_client.post(final_url(match), {"game_points_a": "11", "game_points_b": "9"})
    undo = reverse("matches:final_score_undo", args=[match.pk])
    assert organiser_client.post(undo).status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner, match.game_points_a, match.game_points_b) == (
        Match.Status.SCHEDULED, "", 0, 0)
    assert organiser_client.post(undo).status_code == 409  # nothing left to take back
    organiser_client.post(final_url(match), {"game_points_a": "12", "game_points_b": "9"})
    match.refresh_from_db()
    assert (match.winner, match.game_points_a) == ("A", 12)


def test_outsiders_visitors_and_the_wrong_method(client, outsider_client, organiser_client,
                                                 match):
    data = {"game_points_a": "11", "game_points_b": "0"}
    assert outsider_client.post(final_url(match), data).status_code == 403
    assert client.post(final_url(match), data).status_code == 302  # to log in
    assert organiser_client.get(final_url(match)).status_code == 405
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_the_standings_and_their_export_say_final_scores_only(organiser_client, match,
                                                              final_only):
    organiser_client.post(final_url(match), {"game_points_a": "11", "game_points_b": "7"})
    page = english(organiser_client).get(reverse("standings:standings",
                                                 args=[final_only.pk]))
    assert "Final scores only" in page.content.decode()
    exported = organiser_client.get(reverse("data:standings_csv", args=[final_only.pk]))
    rows = list(csv.DictReader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert {row["final_score_only"] for row in rows} == {"yes"}
    assert len(rows) == 5


def test_a_knockout_winner_moves_on_from_a_final_score(organiser, home_club, players):
    import datetime

    knockout = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), format="knockout",
        records=Records.FINAL_SCORE, entry_mode=EntryMode.ORGANISER,
    )
    for seed, player in enumerate(players[:4], start=1):
        knockout.entries.create(player=player, number=seed)
    knockout.event_format.start()
    first = list(Pairing.objects.filter(round__tournament=knockout, round__number=1)
                 .order_by("bracket_index"))
    services.match_final_score_record(match=first[0].match, game_points_a=11,
                                      game_points_b=4, by=organiser)
    final = Pairing.objects.get(round__tournament=knockout, round__number=2)
    assert final.entry_a == first[0].entry_a


def test_the_form_asks_organisers_to_enter_final_scores(organiser):
    data = {"name": "Купа", "date": "2026-12-05", "format": "round_robin",
            "withdrawal_policy": "forfeit_rest", "records": "final_score",
            "entry_mode": "players_sign", **rules.HouseRules().to_dict()}
    form = TournamentForm(data, user=organiser)
    assert not form.is_valid()
    assert "records" in form.errors
    form = TournamentForm({**data, "entry_mode": "organiser"}, user=organiser)
    assert form.is_valid(), form.errors


def test_the_setting_is_fixed_once_a_result_is_in(organiser, organiser_client, match,
                                                  final_only):
    assert not TournamentForm(instance=final_only, user=organiser).fields["records"].disabled
    organiser_client.post(final_url(match), {"game_points_a": "11", "game_points_b": "7"})
    assert TournamentForm(instance=final_only, user=organiser).fields["records"].disabled


def test_the_history_lists_the_final_scores(organiser_client, match):
    organiser_client.post(final_url(match), {"game_points_a": "11", "game_points_b": "9"})
    organiser_client.post(reverse("matches:final_score_undo", args=[match.pk]))
    organiser_client.post(final_url(match), {"game_points_a": "11", "game_points_b": "8"})
    html = english(organiser_client).get(reverse("matches:entry", args=[match.pk]))
    html = html.content.decode()
    assert "History of changes (<span id=\"history-count\">3</span>)" in html
    assert "Final score entered: 11:8" in html
    assert "Final score taken back (it was 11:9)" in html
    assert "Final score entered: 11:9" in html
