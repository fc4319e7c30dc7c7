"""A finished paper scorecard entered at once (`matches:scorecard`, `scoring.scorecard_entry`,
`scoring.services.match_scorecard_record`). Scores worked out by hand under the default house
rules (target 11; legend: 1 a plain win = 1, 2 a schneider = 2, 3 a capot = 3, FC a false
claim = 3, CF a failed close = 3, OO going out after a close = 3, "=" a draw = 0)."""

import pytest
from django.urls import reverse

from events.models import Pairing
from events.services import tournament_start
from scoring import rules, services
from scoring.errors import RecordingError
from scoring.models import Deal, Match

pytestmark = pytest.mark.django_db

# A card of 8 deals: A 1, B 2, A 3 (=4), draw, B FC 3 (=5), A 2 (=6), A 3 (=9), A 2 (=11).
CARD = [
    ("A", "", "1"), ("B", "2", "2"), ("a", "3", "3"), ("", "", "="),
    ("B", "", "FC"), ("A", "2", "2"), ("A", "", "3"), ("A", "2", "2"),
]


@pytest.fixture
def match(tournament):
    tournament_start(tournament=tournament)
    return Pairing.objects.filter(match__isnull=False).order_by("round__number", "table")[0].match


def english(client):
    client.cookies["django_language"] = "en"
    return client


def grid_url(match):
    return reverse("matches:scorecard", args=[match.pk])


def grid(rows, count=24, **extra):
    data = {"rows": str(count), **extra}
    for number, (winner, points, code) in enumerate(rows, start=1):
        data.update({f"winner-{number}": winner, f"points-{number}": points,
                     f"code-{number}": code})
    return data


def test_a_whole_card_is_saved_at_once(organiser_client, organiser, match):
    response = organiser_client.post(grid_url(match), grid(CARD))
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:entry", args=[match.pk])
    match.refresh_from_db()
    assert (match.status, match.winner, match.game_points_a, match.game_points_b) == (
        Match.Status.FINISHED, "A", 11, 5)
    deals = list(match.deals.order_by("number").values_list("winner", "game_points", "reason"))
    assert deals == [
        ("A", 1, "won"), ("B", 2, "schneider"), ("A", 3, "capot"), ("", 0, "draw"),
        ("B", 3, "false_claim"), ("A", 2, "schneider"), ("A", 3, "capot"),
        ("A", 2, "schneider"),
    ]
    assert set(match.deals.values_list("entered_by", flat=True)) == {organiser.pk}
    assert set(Deal.history.values_list("history_change_reason", flat=True)) == {"scorecard"}
    page = english(organiser_client).get(reverse("matches:entry", args=[match.pk]))
    assert "won the match 11:5" in page.content.decode()


def test_the_legend_codes_of_either_language_are_read(organiser_client, match):
    # Bulgarian codes for a false claim (НО) and a failed close (ЗН), lower case, Cyrillic А/Б.
    card = [("а", "", "но"), ("б", "", "зн"), ("A", "", "НО"), ("A", "", "3"), ("A", "", "fc")]
    assert organiser_client.post(grid_url(match), grid(card)).status_code == 302
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (12, 3)  # 3+3+3+3 : 3


def test_each_bad_row_is_named_and_nothing_is_written(organiser_client, match):
    card = list(CARD)
    card[1] = ("B", "2", "XZ")   # no such code
    card[4] = ("A", "3", "1")    # a plain win scores 1
    card[5] = ("C", "", "2")     # no seat C
    response = english(organiser_client).post(grid_url(match), grid(card))
    assert response.status_code == 422
    html = response.content.decode()
    assert "3 rows need fixing; nothing was saved." in html
    assert "Deal 2: “XZ” is not a code of the legend (1, 2, 3, FC, CF, OO, =)." in html
    assert "Deal 5: A plain win scores 1 game point, not 3 game points." in html
    assert "Deal 6: the winner is A or B (the seat on the card), not “C”." in html
    assert 'id="row-error-2"' in html and 'id="row-error-1"' not in html
    assert 'value="XZ"' in html  # the grid comes back as typed
    assert not Deal.objects.exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_a_deal_after_the_end_is_named(organiser_client, match):
    response = english(organiser_client).post(grid_url(match), grid([*CARD, ("B", "", "1")]))
    assert response.status_code == 422
    assert ("Deal 9 comes after the match ended: player A had already reached 11 game points "
            "(11:5).") in response.content.decode()
    assert not Deal.objects.exists()


def test_an_unfinished_card_is_refused(organiser_client, match):
    response = english(organiser_client).post(grid_url(match), grid(CARD[:3]))
    assert response.status_code == 422
    assert ("The scorecard is not finished: after its 3 deals the score is 4:2 and nobody has "
            "11 game points.") in response.content.decode()
    assert not Deal.objects.exists()


def test_empty_rows(organiser_client, match):
    response = english(organiser_client).post(grid_url(match), grid([]))
    assert response.status_code == 422
    assert "The scorecard is empty" in response.content.decode()
    gap = [CARD[0], ("", "", ""), *CARD[1:]]
    response = english(organiser_client).post(grid_url(match), grid(gap))
    assert response.status_code == 422
    assert "Deal 2: the row is empty, but later rows are filled." in response.content.decode()
    assert not Deal.objects.exists()


def test_more_rows_keeps_what_was_typed(organiser_client, match):
    response = organiser_client.post(grid_url(match), grid(CARD[:2], more="1"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="winner-32"' in html and 'name="winner-33"' not in html
    assert 'name="rows" value="32"' in html
    assert 'name="code-2" value="2"' in html
    assert not Deal.objects.exists()


def test_the_page_carries_the_legend_from_the_rules(organiser_client, match):
    html = english(organiser_client).get(grid_url(match)).content.decode()
    assert 'data-target="11"' in html and 'data-carry="0"' in html
    # Each code with every language's spelling and the game points rules.py allows.
    assert 'data-codes="FC НО" data-points="3" data-reason="false_claim"' in html
    assert 'data-codes="=" data-points="0" data-reason="draw"' in html
    assert 'name="winner-24"' in html and 'name="winner-25"' not in html
    assert 'data-reason="last_trick"' not in html  # not under these house rules


def test_only_for_a_match_without_deals(organiser_client, organiser, match):
    html = english(organiser_client).get(reverse("matches:entry", args=[match.pk])).content
    assert grid_url(match) in html.decode()
    services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=organiser)
    html = english(organiser_client).get(reverse("matches:entry", args=[match.pk])).content
    assert grid_url(match) not in html.decode()
    assert organiser_client.get(grid_url(match)).status_code == 409
    response = english(organiser_client).post(grid_url(match), grid(CARD))
    assert response.status_code == 409
    assert "already has deals or a result" in response.content.decode()
    assert match.deals.count() == 1


def test_outsiders_and_visitors_are_refused(client, outsider_client, match):
    assert outsider_client.get(grid_url(match)).status_code == 403
    assert outsider_client.post(grid_url(match), grid(CARD)).status_code == 403
    response = client.post(grid_url(match), grid(CARD))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Deal.objects.exists()


def test_the_wrong_method_is_refused(organiser_client, match):
    assert organiser_client.put(grid_url(match)).status_code == 405


def test_the_service_checks_the_whole_card_again(organiser, match):
    """Straight to the service (as the simulation does): a list that breaks the rules or
    stops short writes nothing."""
    won = rules.quick_result("A", 3, "capot")
    with pytest.raises(RecordingError) as refused:
        services.match_scorecard_record(match=match, scores=[won, won], by=organiser)
    assert refused.value.code == "scorecard_not_finished"
    assert refused.value.params == {"points_a": 6, "points_b": 0, "target": 11, "count": 2}
    with pytest.raises(rules.InvalidDeal) as broken:
        services.match_scorecard_record(match=match, scores=[won] * 5, by=organiser)
    assert (broken.value.code, broken.value.params["deal_number"]) == ("match_finished", 5)
    assert not Deal.objects.exists()
    deals = services.match_scorecard_record(match=match, scores=[won] * 4, by=organiser)
    assert [deal.number for deal in deals] == [1, 2, 3, 4]
    with pytest.raises(RecordingError) as again:
        services.match_scorecard_record(match=match, scores=[won] * 4, by=organiser)
    assert again.value.code == "deal_already_entered"
