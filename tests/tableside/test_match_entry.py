"""The deal-entry page and its write views (tableside.views.matches).

Each write view gets the four usual tests: it works; the wrong method is refused (405);
an outsider is refused (403) and an anonymous visitor is sent to log in (302); bad input writes
nothing and answers 422 with the message. Scores and dealers are worked out by hand from
docs/rules.md under the default house rules (target 11, the winner of a deal deals the next one).
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events.models import EntryMode, Pairing, Tournament
from events.services import tournament_start
from scoring import rules, services
from scoring.models import Deal
from scoring.rules import DealScore

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = {1: "won", 2: "schneider", 3: "capot"}


@pytest.fixture
def match(tournament):
    tournament_start(tournament=tournament)
    return Pairing.objects.filter(match__isnull=False).first().match


def english(client):
    client.cookies["django_language"] = "en"
    return client


def record(match, by, *wins):
    """Deals through the service, e.g. record(match, user, ("A", 3), ("B", 1))."""
    for seat, game_points in wins:
        services.deal_record(
            match=match, score=DealScore(seat, game_points, None, REASON[game_points]), by=by
        )
    match.refresh_from_db()
    return match


def entry_url(match):
    return reverse("matches:entry", args=[match.pk])


def add_url(match):
    return reverse("matches:deal_add", args=[match.pk])


def undo_url(match):
    return reverse("matches:deal_undo", args=[match.pk])


def correct_url(match, number):
    return reverse("matches:deal_correct", args=[match.pk, number])


def deals(match):
    return list(Deal.objects.filter(match=match).values_list("number", "winner", "game_points",
                                                             "reason"))


def post_htmx_deal(client, match, number, winner, reason="won", shown=None):
    """A quick-form deal as htmx posts it; `shown` is the fingerprint the page's form sends."""
    data = {"number": number, "winner": winner, "reason": reason}
    if shown is not None:
        data["shown"] = shown
    return client.post(add_url(match), data, **HTMX)


def whole_panel(response):
    """The html of an htmx answer that replaces the whole panel (not retargeted)."""
    assert response.status_code == 200
    assert "HX-Retarget" not in response
    html = response.content.decode()
    assert html.startswith('<div id="match-panel"')
    return html


def shown_on_page(client, match):
    """The digest of the deal list that the page's quick form sends back."""
    html = client.get(entry_url(match)).content.decode()
    return re.search(r'name="shown" value="([0-9a-f]+)"', html).group(1)


def assert_sent_to_login(response):
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --------------------------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------------------------


def test_anyone_may_read_a_public_match_but_only_organisers_get_the_form(
    client, outsider_client, organiser_client, match
):
    for reader in (client, outsider_client):
        response = reader.get(entry_url(match))
        assert response.status_code == 200
        html = response.content.decode()
        assert match.player_a.name in html and match.player_b.name in html
        assert 'name="reason"' not in html
        assert add_url(match) not in html
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'name="reason"' in html
    assert f'action="{add_url(match)}"' in html
    assert f'hx-post="{add_url(match)}"' in html


def test_a_private_tournaments_match_is_hidden_from_visitors(client, organiser_client,
                                                              tournament, match):
    tournament.is_public = False
    tournament.save()
    assert client.get(entry_url(match)).status_code == 404
    assert organiser_client.get(entry_url(match)).status_code == 200


def test_unknown_match_is_404(client):
    assert client.get(reverse("matches:entry", args=[987654])).status_code == 404


def test_the_page_links_back_to_the_round_and_the_standings(client, tournament, match):
    html = client.get(entry_url(match)).content.decode()
    assert f'href="/t/{tournament.pk}/rounds/1/"' in html
    assert f'href="/t/{tournament.pk}/standings/"' in html
    assert "/static/css/match.css" in html


def test_the_page_says_who_deals_next(client, organiser, match):
    english(client)
    name_a, name_b = match.player_a.name, match.player_b.name
    # Seat A is the first dealer.
    assert f"{name_a} deals deal 1" in client.get(entry_url(match)).content.decode()
    # B wins deal 1, so B deals deal 2.
    record(match, organiser, ("B", 1))
    assert f"{name_b} deals deal 2" in client.get(entry_url(match)).content.decode()
    # A draw keeps the dealer: B deals deal 3 as well.
    services.deal_record(match=match, score=DealScore(None, 0, None, "draw"), by=organiser)
    assert f"{name_b} deals deal 3" in client.get(entry_url(match)).content.decode()
    # A wins deal 3, so A deals deal 4.
    record(match, organiser, ("A", 2))
    html = client.get(entry_url(match)).content.decode()
    assert f"{name_a} deals deal 4" in html
    assert "Game to 11" in html


def test_the_deal_list_shows_dealer_winner_and_running_score(client, organiser, match):
    english(client)
    # Deal 1: A deals, B wins 2 (0:2). Deal 2: B deals, A wins 3 (3:2). Deal 3: A deals, A wins 1.
    record(match, organiser, ("B", 2), ("A", 3), ("A", 1))
    html = client.get(entry_url(match)).content.decode()
    name_a, name_b = match.player_a.name, match.player_b.name
    assert html.index(f"dealt by {name_a}") < html.index(f"dealt by {name_b}")
    assert [html.index(score) for score in ("0:2", "3:2", "4:2")] == sorted(
        html.index(score) for score in ("0:2", "3:2", "4:2")
    )
    assert "66, loser under 33" in html and "capot: loser took no trick" in html


def test_a_finished_match_shows_the_winner_and_no_form(organiser_client, organiser, match):
    english(organiser_client)
    record(match, organiser, ("B", 3), ("B", 3), ("A", 1), ("B", 3), ("B", 2))  # 1:11
    html = organiser_client.get(entry_url(match)).content.decode()
    assert f"{match.player_b.name} won the match 1:11." in html
    assert 'name="reason"' not in html
    assert "deals deal" not in html
    assert "The match is already won" in html


def test_the_match_page_query_count_does_not_grow_with_the_deals(
    organiser_client, organiser, match, django_assert_max_num_queries
):
    record(match, organiser, ("A", 1))
    organiser_client.get(entry_url(match))  # the first view makes the players' link
    with CaptureQueriesContext(connection) as one_deal:
        assert organiser_client.get(entry_url(match)).status_code == 200
    # 14 more deals: 7 each way, 8:7 after 15 deals, still playing.
    record(match, organiser, *[(seat, 1) for seat in "BA" * 7])
    assert (match.game_points_a, match.game_points_b, match.status) == (8, 7, "playing")
    with CaptureQueriesContext(connection) as fifteen_deals:
        response = organiser_client.get(entry_url(match))
    assert response.content.decode().count("correct/") == 15
    assert len(fifteen_deals) == len(one_deal)
    with django_assert_max_num_queries(9):  # 8, and the players' link (tableside.table_entry)
        organiser_client.get(entry_url(match))


# --------------------------------------------------------------------------------------------
# deal_add
# --------------------------------------------------------------------------------------------


def test_deal_add_records_the_deal_and_redirects(organiser_client, organiser, match):
    response = organiser_client.post(add_url(match),
                                     {"number": 1, "winner": "B", "reason": "schneider"})
    assert response.status_code == 302
    assert response["Location"] == entry_url(match)
    assert deals(match) == [(1, "B", 2, "schneider")]
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (0, 2, "playing")
    assert Deal.objects.get(match=match).entered_by == organiser


def test_deal_add_with_the_game_points_given(organiser_client, match):
    response = organiser_client.post(
        add_url(match), {"number": 1, "winner": "A", "reason": "capot", "game_points": 3}
    )
    assert response.status_code == 302
    assert deals(match) == [(1, "A", 3, "capot")]


def test_deal_add_a_draw_with_the_draw_button(organiser_client, match):
    response = organiser_client.post(add_url(match), {"number": 1, "draw": "1"})
    assert response.status_code == 302
    assert deals(match) == [(1, "", 0, "draw")]


def test_deal_add_from_the_details(organiser_client, match):
    # A claims with 70 card points in 5 tricks; B has 30 in 3 tricks: under 33 -> 2 (schneider).
    response = organiser_client.post(add_url(match), {
        "details-number": 1, "details-end": "claim", "details-claim_by": "A",
        "details-card_points_a": 70, "details-card_points_b": 30,
        "details-marriage_points_a": 0, "details-marriage_points_b": 0,
        "details-tricks_a": 5, "details-tricks_b": 3,
    })
    assert response.status_code == 302
    assert deals(match) == [(1, "A", 2, "schneider")]
    assert Deal.objects.get(match=match).details["tricks"] == {"A": 5, "B": 3}


def test_deal_add_refuses_get(organiser_client, match):
    assert organiser_client.get(add_url(match)).status_code == 405
    assert deals(match) == []


def test_deal_add_refuses_outsiders_and_sends_visitors_to_log_in(client, outsider_client, match):
    data = {"number": 1, "winner": "A", "reason": "won"}
    assert outsider_client.post(add_url(match), data).status_code == 403
    assert_sent_to_login(client.post(add_url(match), data))
    assert deals(match) == []


def test_staff_enter_a_deal_in_any_event_and_an_unknown_match_is_404(
    outsider, outsider_client, match
):
    """Staff organise every event (`core.access.sees_everything`): the locked read without
    the organiser column. An unknown match is 404 for them as for anyone."""
    outsider.is_staff = True
    outsider.save()
    data = {"number": 1, "winner": "B", "reason": "won"}
    assert outsider_client.post(add_url(match), data).status_code == 302
    assert deals(match) == [(1, "B", 1, "won")]
    unknown = reverse("matches:deal_add", args=[match.pk + 1000])
    assert outsider_client.post(unknown, {**data, "number": 2}).status_code == 404
    assert deals(match) == [(1, "B", 1, "won")]


def test_the_choices_of_a_field_in_error_are_marked_invalid(organiser_client, match):
    # A plain win with nobody chosen as the winner: the winner is the field in error.
    response = organiser_client.post(add_url(match), {"number": 1, "reason": "won"})
    assert response.status_code == 422
    html = response.content.decode()
    winner_radios = re.findall(r'<input type="radio" name="winner"[^>]*>', html)
    reason_radios = re.findall(r'<input type="radio" name="reason"[^>]*>', html)
    assert len(winner_radios) == 2 and reason_radios
    assert all('aria-invalid="true"' in radio for radio in winner_radios)
    assert not any("aria-invalid" in radio for radio in reason_radios)


def test_deal_add_bad_input_writes_nothing_and_says_why(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(
        add_url(match), {"number": 1, "winner": "A", "reason": "won", "game_points": 3}
    )
    assert response.status_code == 422
    assert "A plain win scores 1 game point, not 3 game points." in response.content.decode()
    assert deals(match) == []


@pytest.mark.parametrize("data", [
    {"winner": "A", "reason": "won"},  # no deal number
    {"number": "x", "winner": "A", "reason": "won"},
    {"number": 1, "winner": "C", "reason": "won"},
    {"number": 1, "winner": "A", "reason": "no such reason"},
    {"number": 1, "winner": "A", "reason": "won", "game_points": "9"},
    {"number": 1, "reason": "capot"},  # nobody won
    {"number": 1, "winner": "A", "reason": "last_trick", "game_points": 2},  # not these rules
    {"number": 1, "winner": "A", "reason": "draw", "game_points": 0},  # a draw has no winner
    {"number": 1, "details-end": "claim"},
])
def test_deal_add_every_bad_quick_input_is_422(organiser_client, match, data):
    response = organiser_client.post(add_url(match), data)
    assert response.status_code == 422
    assert 'class="errorlist' in response.content.decode()
    assert deals(match) == []


def test_deal_add_details_that_break_the_rules_are_422(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(add_url(match), {
        "details-number": 1, "details-end": "exhausted", "details-last_trick_by": "A",
        "details-card_points_a": 90, "details-card_points_b": 40,  # 130 > 120
        "details-marriage_points_a": 0, "details-marriage_points_b": 0,
        "details-tricks_a": 8, "details-tricks_b": 4,
    })
    assert response.status_code == 422
    html = response.content.decode()
    assert "The card points of both players add up to 130" in html
    assert "<details class=\"details-entry\" open>" in html
    assert deals(match) == []


def test_deal_add_a_deal_someone_else_entered_first_is_409(organiser_client, organiser, match):
    english(organiser_client)
    record(match, organiser, ("A", 1))
    response = organiser_client.post(add_url(match), {"number": 1, "winner": "B", "reason": "won"})
    assert response.status_code == 409
    assert (
        "Deal 1 was already entered by someone else; the match is now at deal 2."
        in response.content.decode()
    )
    assert deals(match) == [(1, "A", 1, "won")]


def test_deal_add_to_a_finished_match_is_refused(organiser_client, organiser, match):
    english(organiser_client)
    record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 3))  # 12:0
    response = organiser_client.post(add_url(match), {"number": 5, "winner": "B", "reason": "won"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "The match is already won" in html
    assert 'name="reason"' not in html
    assert len(deals(match)) == 4


def test_deal_add_to_a_forfeited_match_is_refused(organiser_client, organiser, match):
    english(organiser_client)
    services.match_forfeit(match=match, winner="A", by=organiser)
    response = organiser_client.post(add_url(match), {"number": 1, "winner": "B", "reason": "won"})
    assert response.status_code == 409
    assert deals(match) == []


def test_deal_add_with_htmx_returns_the_partial(organiser_client, match):
    english(organiser_client)
    # Deal 1: the page says "No deals yet", so the deal list comes whole, out of band, with
    # the deal's row and the undo form for it; the head as for any later deal.
    page = organiser_client.get(entry_url(match)).content.decode()
    assert "No deals yet." in page and '<ol id="history-list" class="history-list"></ol>' in page
    shown = shown_on_page(organiser_client, match)
    response = post_htmx_deal(organiser_client, match, 1, "A", "capot", shown=shown)
    assert response.status_code == 200
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#match-head", "outerHTML")
    html = response.content.decode()
    assert "<html" not in html and 'id="match-panel"' not in html
    assert '<span class="points">3</span>' in html
    assert f"{match.player_a.name} deals deal 2" in html
    assert 'name="number" value="2"' in html  # a fresh form for the next deal
    assert '<section id="match-deals" class="deals" aria-labelledby="deals-heading" ' \
           'hx-swap-oob="true">' in html
    assert '<tbody id="deal-rows">' in html and html.count("<tr>") == 2  # heading, deal 1
    assert "No deals yet." not in html and "deal-rows\"" not in html.split("<section")[0]
    assert html.count('id="deal-undo"') == 1 and 'id="deal-undo" hx-swap-oob' not in html
    assert 'name="number" value="1"' in html  # the undo form undoes deal 1
    assert '<ol hx-swap-oob="afterbegin:#history-list">' in html
    assert deals(match) == [(1, "A", 3, "capot")]


def test_a_later_htmx_deal_is_answered_with_the_score_form_and_only_the_new_row(
    organiser_client, organiser, match
):
    english(organiser_client)
    name_a, name_b = match.player_a.name, match.player_b.name
    # Deal 1: A deals, B wins 2 (0:2). Deal 2: B deals, A wins 3 (3:2). A deals deal 3.
    record(match, organiser, ("B", 2), ("A", 3))
    shown = shown_on_page(organiser_client, match)
    response = post_htmx_deal(organiser_client, match, 3, "B", shown=shown)
    assert response.status_code == 200
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#match-head", "outerHTML")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="match-head"')
    # The head: B won deal 3 (3:3) and deals deal 4; a fresh form for deal 4.
    assert '<span class="points">3</span>' in html
    assert "<span class=\"points\">2</span>" not in html
    assert "Deal 3 saved." in html
    assert f"{name_b} deals deal 4" in html
    assert 'name="number" value="4"' in html
    # One row, appended out of band: deal 3, won by B, dealt by A, 3:3.
    assert '<tbody hx-swap-oob="beforeend:#deal-rows">' in html
    assert html.count("<tr>") == 1
    assert f"dealt by {name_a}" in html and f"dealt by {name_b}" not in html
    assert ">3:3<" in html and ">0:2<" not in html and ">3:2<" not in html
    assert correct_url(match, 3) in html and correct_url(match, 2) not in html
    # The undo form now undoes deal 3.
    assert '<div id="deal-undo" hx-swap-oob="true">' in html
    # The running-score picture is replaced out of band, three deals wide: x = 40 + 100·deal;
    # game points (target 11) y = 192 − points·160/11: 2 → 162.9, 3 → 148.4. Each line goes
    # across to a deal and up by what it scored there: A 0, +3, 0; B +2, 0, +1.
    assert '<div id="match-race" hx-swap-oob="true">' in html
    assert 'points="40,192 140,192 240,192 240,148.4 340,148.4"' in html
    assert 'points="40,192 140,192 140,162.9 240,162.9 340,162.9 340,148.4"' in html
    assert '<input type="hidden" name="number" value="3">' in html
    assert deals(match)[-1] == (3, "B", 1, "won")
    # Its form says which list the page now shows, for the deal after.
    assert f'name="shown" value="{shown_on_page(organiser_client, match)}"' in html


def test_a_page_that_missed_a_correction_gets_the_whole_list_back(
    organiser_client, organiser, match
):
    english(organiser_client)
    # Deal 1: A deals, B wins 2 (0:2). Deal 2: B deals, A wins 3 (3:2). A deals deal 3.
    record(match, organiser, ("B", 2), ("A", 3))
    shown = shown_on_page(organiser_client, match)
    # Meanwhile another organiser corrects deal 1: A won it, 1 game point (1:0, then 4:0).
    services.deal_correct(deal=match.deals.get(number=1), score=DealScore("A", 1, None, "won"),
                          by=organiser, reason="wrong winner")
    response = post_htmx_deal(organiser_client, match, 3, "B", shown=shown)
    html = whole_panel(response)
    assert [score for score in ("1:0", "4:0", "4:1") if f">{score}<" in html] == [
        "1:0", "4:0", "4:1"
    ]
    assert ">0:2<" not in html
    # A form without the list it showed (the card-points form) gets the whole panel too.
    whole_panel(post_htmx_deal(organiser_client, match, 4, "B"))
    assert deals(match)[-2:] == [(3, "B", 1, "won"), (4, "B", 1, "won")]


def test_the_deal_that_ends_the_match_with_htmx_returns_the_result_and_its_row(
    organiser_client, organiser, match
):
    english(organiser_client)
    record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 1))  # 10:0
    shown = shown_on_page(organiser_client, match)
    response = post_htmx_deal(organiser_client, match, 5, "A", shown=shown)
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#match-head", "outerHTML")
    html = response.content.decode()
    assert f"{match.player_a.name} won the match 11:0." in html
    assert "The match is already won" in html  # no form for another deal
    assert 'name="reason"' not in html and 'name="shown"' not in html
    assert '<tbody hx-swap-oob="beforeend:#deal-rows">' in html
    assert html.count("<tr>") == 1 and ">11:0<" in html  # only deal 5's row
    assert 'Yes, undo deal 5' in html  # a round robin's result can still be undone
    # The players sign (the event's default): their section, out of band, says the result,
    # entered by the organiser, is final as it stands: no signature is waited for.
    assert '<section id="players-link" class="players-link" hx-swap-oob="true">' in html
    assert "waits for the players' signatures" not in html
    assert deals(match)[-1] == (5, "A", 1, "won")


def test_the_deal_that_ends_a_match_its_players_enter_replaces_their_section(
    organiser_client, organiser, tournament, match
):
    """The organisers alone enter: the page has no players' section, the answer none."""
    english(organiser_client)
    Tournament.objects.filter(pk=tournament.pk).update(entry_mode=EntryMode.ORGANISER)
    record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 1))  # 10:0
    shown = shown_on_page(organiser_client, match)
    html = post_htmx_deal(organiser_client, match, 5, "A", shown=shown).content.decode()
    assert f"{match.player_a.name} won the match 11:0." in html
    assert 'id="players-link"' not in html


def test_a_deal_entered_right_after_this_one_is_refused_from_the_form_it_brought(
    organiser_client, organiser, match
):
    """The answer shows the match as this deal left it (the service returns its deals: they
    are not read again after the commit); another organiser's deal 4 entered right after is
    not overwritten by the form for deal 4 it brought: that post is refused (409) with the
    whole list."""
    english(organiser_client)
    record(match, organiser, ("B", 2), ("A", 3))
    shown = shown_on_page(organiser_client, match)
    response = post_htmx_deal(organiser_client, match, 3, "B", shown=shown)
    assert response["HX-Retarget"] == "#match-head"
    html = response.content.decode()
    assert 'name="number" value="4"' in html and ">3:3<" in html
    record(match, organiser, ("A", 1))  # the other organiser's deal 4: 4:3
    next_shown = re.search(r'name="shown" value="([0-9a-f]+)"', html).group(1)
    refused = organiser_client.post(add_url(match), {
        "number": 4, "winner": "B", "reason": "won", "shown": next_shown}, **HTMX)
    assert refused.status_code == 409
    panel = refused.content.decode()
    # 0:2, 3:2, then B 3:3 (this deal) and A 4:3 (the other organiser's): all four rows.
    assert [f">{score}<" in panel for score in ("0:2", "3:2", "3:3", "4:3")] == [True] * 4
    assert deals(match)[-2:] == [(3, "B", 1, "won"), (4, "A", 1, "won")]


def test_a_page_drawn_in_another_language_gets_the_whole_list_back(
    organiser_client, organiser, match
):
    english(organiser_client)
    record(match, organiser, ("B", 2), ("A", 3))
    shown = shown_on_page(organiser_client, match)  # the list written in English
    organiser_client.cookies["django_language"] = "bg"  # switched in another tab
    html = whole_panel(post_htmx_deal(organiser_client, match, 3, "B", shown=shown))
    assert html.count(f"раздава {match.player_a.name}") == 2  # deals 1 and 3, now in Bulgarian


def test_the_htmx_partial_loads_the_card_points_form_when_opened(organiser_client, match):
    html = organiser_client.post(
        add_url(match), {"number": 1, "winner": "A", "reason": "capot"}, **HTMX
    ).content.decode()
    details_url = reverse("matches:deal_details_form", args=[match.pk])
    assert f'hx-get="{details_url}" hx-trigger="toggle once"' in html
    assert "details-card_points_a" not in html
    form = organiser_client.get(details_url).content.decode()
    assert 'name="details-number" value="2"' in form  # deal 1 is in, so the form is for deal 2
    assert 'name="details-card_points_a"' in form
    # Its answer replaces the whole panel, not the section it was loaded into.
    assert 'hx-target="#match-panel" hx-swap="outerHTML"' in form


def test_the_full_page_has_the_card_points_form_inline(organiser_client, match):
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'name="details-card_points_a"' in html
    assert 'hx-trigger="toggle once"' not in html


def test_the_card_points_form_is_for_organisers_and_open_matches(
    client, outsider_client, organiser_client, organiser, match
):
    details_url = reverse("matches:deal_details_form", args=[match.pk])
    assert outsider_client.get(details_url).status_code == 403
    assert client.get(details_url).status_code == 302
    assert organiser_client.post(details_url).status_code == 405
    record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 2))  # 11:0, over
    english(organiser_client)
    response = organiser_client.get(details_url, **HTMX)
    # Someone else ended the match meanwhile: the whole panel comes back and says so.
    assert response.status_code == 409
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("#match-panel", "outerHTML")
    html = response.content.decode()
    assert html.startswith('<div id="match-panel"')
    assert f"{match.player_a.name} won the match 11:0." in html


def test_deal_add_bad_input_with_htmx_returns_the_partial_with_422(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(add_url(match), {"number": 1, "winner": "A"}, **HTMX)
    assert response.status_code == 422
    html = response.content.decode()
    assert "<html" not in html
    assert "This field is required." in html
    assert deals(match) == []


def test_bad_input_messages_come_in_bulgarian_and_in_english(organiser_client, match):
    data = {"number": 1, "winner": "A"}  # no reason
    response = organiser_client.post(add_url(match), data)
    assert response.status_code == 422
    assert "Това поле е задължително." in response.content.decode()  # the default: Bulgarian
    organiser_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = organiser_client.post(add_url(match), data)
    assert response.status_code == 422
    html = response.content.decode()
    assert "This field is required." in html
    assert "Това поле е задължително." not in html
    assert deals(match) == []


def test_the_deal_form_follows_renames_language_and_house_rules(organiser_client, match):
    # The form's choices are kept rendered per players, house rules and language: each change
    # must show at once.
    html = organiser_client.get(entry_url(match)).content.decode()
    assert "Кой спечели раздаването" in html and "Who won the deal" not in html
    english(organiser_client)
    html = organiser_client.get(entry_url(match)).content.decode()
    assert "Who won the deal" in html and "Кой спечели раздаването" not in html
    old_name = match.player_a.name
    match.player_a.name = "Преименуван Играч"
    match.player_a.save()
    html = organiser_client.get(entry_url(match)).content.decode()
    assert "<span>Преименуван Играч</span>" in html and f"<span>{old_name}</span>" not in html
    # Pagat's rules (docs/rules.md §7): a failed close scores 2 or 3, so game points are chosen.
    assert 'name="game_points"' not in html
    match.house_rules_snapshot = rules.HouseRules.preset("pagat").to_dict()
    match.save()
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'name="game_points"' in html


def details(**changes):
    data = {
        "details-number": 1, "details-end": "claim", "details-claim_by": "A",
        "details-card_points_a": 66, "details-card_points_b": 10,
        "details-marriage_points_a": 0, "details-marriage_points_b": 0,
        "details-tricks_a": 6, "details-tricks_b": 1,
    }
    data.update({f"details-{name}": value for name, value in changes.items()})
    return data


def test_sixty_marriage_points_with_one_trick_are_422_in_bulgarian(organiser_client, match):
    # 60 = 40 + 20: two marriages need two leads after won tricks; B won one trick.
    response = organiser_client.post(add_url(match), details(marriage_points_b=60))
    assert response.status_code == 422
    html = response.content.decode()
    assert ("60 точки от обявявания са поне 2 обявявания, а всяко се обявява на отделен ход "
            "след взета ръка; играч B има взети ръце: 1") in html
    assert deals(match) == []


def test_a_claim_with_all_twelve_tricks_is_422_in_english(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(add_url(match), details(
        card_points_a=20, card_points_b=20, tricks_a=6, tricks_b=6,
    ))
    assert response.status_code == 422
    html = response.content.decode()
    assert "all 12 tricks were taken (6 + 6)" in html and "(entered: 40)" in html
    assert deals(match) == []


def test_a_rule_message_follows_the_language(organiser_client, match):
    data = {"number": 1, "winner": "A", "reason": "won", "game_points": 3}
    bulgarian = organiser_client.post(add_url(match), data).content.decode()
    english_html = english(organiser_client).post(add_url(match), data).content.decode()
    sentence = "A plain win scores 1 game point, not 3 game points."
    assert sentence in english_html
    assert sentence not in bulgarian
    assert '<html lang="bg">' in bulgarian


# --------------------------------------------------------------------------------------------
# deal_undo
# --------------------------------------------------------------------------------------------


def test_deal_undo_removes_the_last_deal(organiser_client, organiser, match):
    record(match, organiser, ("A", 2), ("B", 3))
    response = organiser_client.post(undo_url(match), {"number": 2})
    assert response.status_code == 302
    assert response["Location"] == entry_url(match)
    assert deals(match) == [(1, "A", 2, "schneider")]
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (2, 0)


def test_deal_undo_reopens_a_finished_match_with_htmx(organiser_client, organiser, match):
    english(organiser_client)
    record(match, organiser, ("B", 3), ("B", 3), ("B", 3), ("B", 2))  # 0:11
    response = organiser_client.post(undo_url(match), {"number": 4}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert '<span class="points">9</span>' in html
    assert f"{match.player_b.name} deals deal 4" in html  # B won deal 3
    assert 'name="reason"' in html


def test_deal_undo_refuses_get(organiser_client, organiser, match):
    record(match, organiser, ("A", 1))
    assert organiser_client.get(undo_url(match)).status_code == 405
    assert len(deals(match)) == 1


def test_deal_undo_refuses_outsiders_and_sends_visitors_to_log_in(
    client, outsider_client, organiser, match
):
    record(match, organiser, ("A", 1))
    assert outsider_client.post(undo_url(match)).status_code == 403
    assert_sent_to_login(client.post(undo_url(match)))
    assert len(deals(match)) == 1


def test_deal_undo_with_nothing_to_undo_is_409(organiser_client, match):
    english(organiser_client)
    response = organiser_client.post(undo_url(match), {"number": 1})
    assert response.status_code == 409
    assert "This match has no deal to undo." in response.content.decode()
    match.refresh_from_db()
    assert match.status == "scheduled"


def test_deal_undo_of_a_forfeited_match_is_409(organiser_client, organiser, match):
    record(match, organiser, ("A", 1))
    services.match_forfeit(match=match, winner="B", by=organiser)
    assert organiser_client.post(undo_url(match), {"number": 1}).status_code == 409
    assert len(deals(match)) == 1


# --------------------------------------------------------------------------------------------
# deal_correct
# --------------------------------------------------------------------------------------------


def test_deal_correct_shows_the_form_with_the_deal_as_recorded(organiser_client, organiser,
                                                               match):
    english(organiser_client)
    record(match, organiser, ("B", 2))
    response = organiser_client.get(correct_url(match, 1))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Correct deal 1" in html
    assert 'value="B" id="id_winner_1" checked' in html
    assert 'value="schneider" id="id_reason_schneider" checked' in html
    assert 'name="correction_reason"' in html


def test_deal_correct_rescores_and_keeps_the_reason(organiser_client, organiser, match):
    record(match, organiser, ("B", 2), ("A", 1))  # 1:2
    response = organiser_client.post(correct_url(match, 1), {
        "winner": "B", "reason": "capot", "correction_reason": "scorecard misread",
    })
    assert response.status_code == 302
    assert response["Location"] == entry_url(match)
    assert deals(match) == [(1, "B", 3, "capot"), (2, "A", 1, "won")]
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b) == (1, 3)
    deal = Deal.objects.get(match=match, number=1)
    assert deal.history.first().history_change_reason == "scorecard misread"


def test_deal_correct_to_a_draw(organiser_client, organiser, match):
    record(match, organiser, ("B", 2))
    response = organiser_client.post(correct_url(match, 1),
                                     {"draw": "1", "correction_reason": "it was 65:65"})
    assert response.status_code == 302
    assert deals(match) == [(1, "", 0, "draw")]


def test_deal_correct_refuses_other_methods(organiser_client, organiser, match):
    record(match, organiser, ("B", 2))
    assert organiser_client.put(correct_url(match, 1)).status_code == 405
    assert organiser_client.delete(correct_url(match, 1)).status_code == 405
    assert deals(match) == [(1, "B", 2, "schneider")]


def test_deal_correct_refuses_outsiders_and_sends_visitors_to_log_in(
    client, outsider_client, organiser, match
):
    record(match, organiser, ("B", 2))
    data = {"winner": "A", "reason": "won", "correction_reason": "mine now"}
    assert outsider_client.get(correct_url(match, 1)).status_code == 403
    assert outsider_client.post(correct_url(match, 1), data).status_code == 403
    assert_sent_to_login(client.get(correct_url(match, 1)))
    assert_sent_to_login(client.post(correct_url(match, 1), data))
    assert deals(match) == [(1, "B", 2, "schneider")]


def test_deal_correct_of_an_unknown_deal_is_404(organiser_client, match):
    assert organiser_client.get(correct_url(match, 1)).status_code == 404


def test_deal_correct_bad_input_writes_nothing_and_says_why(organiser_client, organiser, match):
    english(organiser_client)
    record(match, organiser, ("B", 2))
    response = organiser_client.post(correct_url(match, 1), {"winner": "A", "reason": "won"})
    assert response.status_code == 422
    assert "This field is required." in response.content.decode()  # the correction's reason
    response = organiser_client.post(correct_url(match, 1), {
        "winner": "A", "reason": "schneider", "game_points": 1, "correction_reason": "typo",
    })
    assert response.status_code == 422
    assert "A schneider scores 2 game points, not 1." in response.content.decode()
    assert deals(match) == [(1, "B", 2, "schneider")]
    assert Deal.objects.get(match=match).history.count() == 1


def test_deal_correct_that_would_end_the_match_before_a_later_deal_is_refused(
    organiser_client, organiser, match
):
    english(organiser_client)
    # A: 3 + 3 + 3 = 9, B: 1, A: 1 -> 10:1. Deal 4 as A's schneider would make A 11 at deal 4.
    record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("B", 1), ("A", 1))
    response = organiser_client.post(correct_url(match, 4), {
        "winner": "A", "reason": "schneider", "correction_reason": "typo",
    })
    assert response.status_code == 422
    assert "the match would be won before deal 5" in response.content.decode()
    assert deals(match)[3] == (4, "B", 1, "won")
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status) == (10, 1, "playing")


def test_an_impossibly_large_deal_number_is_404_not_500(organiser_client, match):
    assert organiser_client.get(correct_url(match, 2**40)).status_code == 404


# --------------------------------------------------------------------------------------------
# Other house rules: the game points the form asks for
# --------------------------------------------------------------------------------------------


def play_by(match, **house_rules):
    match.house_rules_snapshot = {**match.house_rules_snapshot, **house_rules}
    match.save(update_fields=["house_rules_snapshot"])
    return match


def test_pagat_rules_ask_for_the_game_points_of_a_failed_close(organiser_client, match):
    english(organiser_client)
    # pagat: a failed close scores 2, or 3 if the opponent had no trick at the close; a false
    # claim scores 2 (docs/rules.md §7).
    play_by(match, failed_close="tricks_at_close", false_claim_points=2,
            opponent_out_after_close_points=2, first_trick_marriage="pending")
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'value="closer_failed" id="id_reason_closer_failed" data-choose-points' in html
    assert 'name="game_points" value="2"' in html and 'name="game_points" value="3"' in html
    response = organiser_client.post(add_url(match),
                                     {"number": 1, "winner": "B", "reason": "closer_failed"})
    assert response.status_code == 422
    assert "Choose the game points: 2, 3." in response.content.decode()
    assert deals(match) == []
    organiser_client.post(add_url(match), {
        "number": 1, "winner": "B", "reason": "closer_failed", "game_points": 2,
    })
    organiser_client.post(add_url(match), {"number": 2, "winner": "A", "reason": "false_claim"})
    assert deals(match) == [(1, "B", 2, "closer_failed"), (2, "A", 2, "false_claim")]


def test_when_the_last_trick_wins_the_deal_there_is_no_draw(organiser_client, match):
    english(organiser_client)
    play_by(match, last_trick="wins_deal")
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'name="draw"' not in html
    assert 'value="last_trick"' in html
    response = organiser_client.post(add_url(match), {"number": 1, "draw": "1"})
    assert response.status_code == 422
    assert deals(match) == []
    response = organiser_client.post(add_url(match), {
        "number": 1, "winner": "A", "reason": "last_trick", "game_points": 3,
    })
    assert response.status_code == 302
    assert deals(match) == [(1, "A", 3, "last_trick")]


def test_the_default_rules_offer_a_draw_but_no_last_trick_reason(organiser_client, match):
    html = organiser_client.get(entry_url(match)).content.decode()
    assert 'name="draw"' in html
    assert 'value="last_trick"' not in html
    assert 'name="game_points"' not in html  # every reason fixes its game points


def test_undo_double_tap_undoes_one_deal_and_the_second_is_409(organiser_client, organiser, match):
    record(match, organiser, ("A", 1), ("B", 2))
    first = organiser_client.post(undo_url(match), {"number": 2})
    second = organiser_client.post(undo_url(match), {"number": 2})
    assert first.status_code == 302
    assert second.status_code == 409
    assert deals(match) == [(1, "A", 1, "won")]


# --------------------------------------------------------------------------------------------
# The deal number the forms send: missing, malformed or out of range is 422, never an undo
# without the double-tap guard, never "already entered by someone else"
# --------------------------------------------------------------------------------------------

NUMBER_MISSING = {
    "en": "The form did not say which deal it is for, so nothing was changed. Reload the page "
          "and try again.",
    "bg": "Формулярът не посочи за кое раздаване се отнася, затова нищо не е променено. "
          "Презаредете страницата и опитайте отново.",
}


def page_text(response) -> str:
    """The answer's text with the html's line breaks and entities undone."""
    html = response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    return re.sub(r"\s+", " ", html)


@pytest.mark.parametrize("data", [{}, {"number": ""}, {"number": "x"}, {"number": "2.5"}])
@pytest.mark.parametrize("language", ["en", "bg"])
def test_an_undo_without_a_deal_number_undoes_nothing(organiser_client, organiser, match, data,
                                                     language):
    organiser_client.cookies["django_language"] = language
    record(match, organiser, ("A", 1), ("B", 2))
    for headers in ({}, HTMX):
        response = organiser_client.post(undo_url(match), data, **headers)
        assert response.status_code == 422
        assert NUMBER_MISSING[language] in page_text(response)
    assert deals(match) == [(1, "A", 1, "won"), (2, "B", 2, "schneider")]


@pytest.mark.parametrize("number", ["0", "-1", "4", "99999999999999999999"])
def test_an_undo_of_a_deal_number_no_page_showed_is_422(organiser_client, organiser, match,
                                                         number):
    # Two deals: the undo button shows 2, or 3 on a page drawn before deal 3 was undone
    # (409, test_undo_double_tap_...); 4 and up, or below 1, no page of this match showed.
    record(match, organiser, ("A", 1), ("B", 2))
    response = organiser_client.post(undo_url(match), {"number": number})
    assert response.status_code == 422
    assert (
        f"Няма раздаване {number} за отмяна (въведени раздавания в този мач: 2); нищо не е "
        "отменено." in page_text(response)
    )
    response = english(organiser_client).post(undo_url(match), {"number": number}, **HTMX)
    assert response.status_code == 422
    assert (
        f"There is no deal {number} to undo (deals entered in this match: 2); nothing was "
        "undone." in page_text(response)
    )
    assert deals(match) == [(1, "A", 1, "won"), (2, "B", 2, "schneider")]


@pytest.mark.parametrize("number", ["0", "-1", "4", "99999999999999999999"])
@pytest.mark.parametrize("form", ["quick", "details"])
def test_a_deal_number_no_page_showed_is_422_not_already_entered(organiser_client, organiser,
                                                                  match, number, form):
    # Two deals, so the next is deal 3: 1 and 2 were entered by someone else (409); 4 and up,
    # or below 1, no page of this match showed.
    record(match, organiser, ("A", 1), ("B", 2))
    data = {"number": number, "winner": "A", "reason": "won"} if form == "quick" else {
        # A claims with 70 card points in 5 tricks; B has 30 in 3 tricks.
        "details-number": number, "details-end": "claim", "details-claim_by": "A",
        "details-card_points_a": 70, "details-card_points_b": 30,
        "details-marriage_points_a": 0, "details-marriage_points_b": 0,
        "details-tricks_a": 5, "details-tricks_b": 3,
    }
    response = organiser_client.post(add_url(match), data, **HTMX)
    assert response.status_code == 422
    text = page_text(response)
    assert (
        f"Няма раздаване {number} за въвеждане (въведени раздавания в този мач: 2, така че "
        "следващото е раздаване 3); нищо не е записано." in text
    )
    assert "вече е въведено от друг" not in text
    response = english(organiser_client).post(add_url(match), data)
    assert response.status_code == 422
    text = page_text(response)
    assert (
        f"There is no deal {number} to enter (deals entered in this match: 2, so the next is "
        "deal 3); nothing was saved." in text
    )
    assert "already entered by someone else" not in text
    assert deals(match) == [(1, "A", 1, "won"), (2, "B", 2, "schneider")]


@pytest.mark.parametrize("number", [None, "", "x"])
@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_deal_without_a_deal_number_says_so(organiser_client, match, number, language):
    organiser_client.cookies["django_language"] = language
    data = {"winner": "A", "reason": "won"}
    if number is not None:
        data["number"] = number
    response = organiser_client.post(add_url(match), data)
    assert response.status_code == 422
    assert NUMBER_MISSING[language] in page_text(response)
    assert deals(match) == []


# --------------------------------------------------------------------------------------------
# The draw button with a winner chosen too
# --------------------------------------------------------------------------------------------


def winner_fieldset(html: str) -> str:
    return re.search(r'<fieldset class="pick pick-winner">.*?</fieldset>', html, re.S).group(0)


def test_a_draw_with_a_winner_is_refused_beside_the_winner(organiser_client, match):
    data = {"number": 1, "winner": "A", "reason": "won", "draw": "1"}
    response = organiser_client.post(add_url(match), data, **HTMX)
    assert response.status_code == 422
    fieldset = re.sub(r"\s+", " ", winner_fieldset(response.content.decode()))
    assert (
        f"Равенството няма победител, а е избран и победител: {match.player_a.name}; нищо не "
        "е записано." in fieldset
    )
    assert " checked" not in fieldset  # the draw button works the second time
    response = english(organiser_client).post(add_url(match), data)
    assert response.status_code == 422
    fieldset = re.sub(r"\s+", " ", winner_fieldset(response.content.decode()))
    assert (
        f"A draw has no winner, but {match.player_a.name} was chosen as the winner too; "
        "nothing was saved." in fieldset
    )
    assert deals(match) == []
    assert organiser_client.post(add_url(match), {"number": 1, "draw": "1"}).status_code == 302
    assert deals(match) == [(1, "", 0, "draw")]


def test_make_it_a_draw_replaces_the_winner_the_correction_form_was_filled_with(
    organiser_client, organiser, match
):
    record(match, organiser, ("B", 2))
    response = organiser_client.post(correct_url(match, 1), {
        "winner": "B", "reason": "schneider", "draw": "1", "correction_reason": "it was 65:65",
    })
    assert response.status_code == 302
    assert deals(match) == [(1, "", 0, "draw")]
