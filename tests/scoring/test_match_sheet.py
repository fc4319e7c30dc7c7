"""The one deal list (`scoring.match_sheet`): dealers and running score worked out once,
shown on the match page, the scorecard and the export."""

import pytest
from django.urls import reverse
from django.utils import translation

from events.models import Pairing, Tournament
from events.services import tournament_start
from scoring import rules, services
from scoring.match_sheet import sheet_of
from scoring.models import Deal, Match, reason_label
from tests.tableside.test_match_entry import english


def deals_of(*results):
    return [
        Deal(number=number, winner=winner or "", game_points=points, reason=reason)
        for number, (winner, points, reason) in enumerate(results, start=1)
    ]


def test_rows_carry_the_dealer_and_the_running_score_in_game_points():
    # Seed 000: the winner deals next, a draw keeps the dealer. A deals first.
    # 1: A deals, A capot 3 -> 3:0, A deals next; 2: A deals, draw -> 3:0;
    # 3: A deals, B schneider 2 -> 3:2, B deals next; 4: B deals, B plain 1 -> 3:3.
    match = Match(first_dealer="A", house_rules_snapshot={}, status=Match.Status.PLAYING)
    sheet = sheet_of(match, deals_of(
        ("A", 3, "capot"), (None, 0, "draw"), ("B", 2, "schneider"), ("B", 1, "won"),
    ), names=False)
    assert [(r.number, r.dealer, r.winner, r.game_points, r.game_points_a, r.game_points_b)
            for r in sheet.rows] == [
        (1, "A", "A", 3, 3, 0), (2, "A", None, 0, 3, 0), (3, "A", "B", 2, 3, 2),
        (4, "B", "B", 1, 3, 3),
    ]
    assert (sheet.game_points_a, sheet.game_points_b, sheet.finished) == (3, 3, False)
    assert (sheet.next_dealer, sheet.next_number, sheet.last_number) == ("B", 5, 4)


def test_an_empty_sheet_names_the_first_dealer():
    match = Match(first_dealer="B", house_rules_snapshot={}, status=Match.Status.PLAYING)
    sheet = sheet_of(match, [], names=False)
    assert sheet.rows == () and sheet.next_dealer == "B" and sheet.last_number is None


def test_reason_labels_name_the_schneider_threshold_of_the_house_rules():
    with translation.override("en"):
        assert reason_label("schneider", rules.HouseRules()) == "66, loser under 33"
        assert reason_label("won", rules.HouseRules(schneider_below=31)) == (
            "66, loser 31 or more"
        )
        assert reason_label("schneider", rules.HouseRules(schneider_below=31)) == (
            "66, loser under 31"
        )
    with translation.override("bg"):
        assert reason_label("schneider", rules.HouseRules(schneider_below=31)) == (
            "66, загубилият има под 31"
        )
    match = Match(first_dealer="A", house_rules_snapshot={"schneider_below": 31},
                  status=Match.Status.PLAYING)
    with translation.override("en"):
        row = sheet_of(match, deals_of(("A", 2, "schneider")), names=False).rows[0]
    assert row.reason_label == "66, loser under 31"


@pytest.mark.django_db
def test_the_match_page_says_under_31_when_the_house_rule_does(client, organiser, tournament):
    tournament_start(tournament=tournament)
    match = Pairing.objects.filter(match__isnull=False).first().match
    match.house_rules_snapshot = {**match.house_rules_snapshot, "schneider_below": 31}
    match.save(update_fields=["house_rules_snapshot"])
    services.deal_record(match=match, score=rules.quick_result("A", 2, "schneider"), by=None)
    client.force_login(organiser)
    page = english(client).get(reverse("matches:entry", args=[match.pk])).content.decode()
    assert "66, loser under 31" in page  # the deal's row and the form's reason button
    assert "loser under 33" not in page and "loser 31 or more" in page


def test_house_rule_choices_are_the_values_the_rules_allow():
    for name, allowed in rules.ALLOWED_HOUSE_RULE_VALUES.items():
        field = Tournament._meta.get_field(name)
        if field.choices:
            assert tuple(value for value, _label in field.choices) == allowed
