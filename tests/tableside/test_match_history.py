"""The history of a match's changes on its page (tableside/match_history.py,
tableside/templates/tableside/partials/match_history.html): for its organisers only, newest first,
with when (local time, Europe/Sofia: UTC+2 in December), who, what changed and why.

The deals are worked out by hand under the default house rules: seat A winning with the loser
under 33 scores 2 game points ("66, loser under 33"), seat B winning with the loser at 33 or
more scores 1 ("66, loser 33 or more")."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from events.models import Pairing
from events.services import tournament_start
from scoring import services
from scoring.models import Deal
from scoring.rules import DealScore
from tableside.match_history import CORRECTED, ENTERED, FORFEITED, match_history

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
UTC = datetime.UTC


@pytest.fixture
def match(tournament):
    tournament_start(tournament=tournament)
    return Pairing.objects.filter(match__isnull=False).select_related(
        "match__player_a", "match__player_b").first().match


def language(client, code):
    client.cookies["django_language"] = code
    return client


def page(client, match) -> str:
    response = client.get(reverse("matches:entry", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def at(*steps: datetime.datetime) -> None:
    """Date the deal history rows, in the order they were written, at `steps` (UTC)."""
    rows = Deal.history.order_by("history_id")
    assert rows.count() == len(steps)
    for row, when in zip(rows, steps, strict=True):
        Deal.history.filter(history_id=row.history_id).update(history_date=when)


@pytest.fixture
def entered_corrected_undone(organiser_client, match):
    """Deal 1 entered (A, 2: schneider), corrected (B, 1: won, "wrong seat"), then undone,
    each through the match page, at 17:05, 17:20 and 17:31 UTC on 5 December 2026."""
    entry = reverse("matches:deal_add", args=[match.pk])
    assert organiser_client.post(entry, {"number": 1, "winner": "A", "reason": "schneider"},
                                 ).status_code == 302
    correct = reverse("matches:deal_correct", args=[match.pk, 1])
    assert organiser_client.post(correct, {
        "winner": "B", "reason": "won", "correction_reason": "wrong seat",
    }).status_code == 302
    undo = reverse("matches:deal_undo", args=[match.pk])
    assert organiser_client.post(undo, {"number": 1}).status_code == 302
    at(datetime.datetime(2026, 12, 5, 17, 5, tzinfo=UTC),
       datetime.datetime(2026, 12, 5, 17, 20, tzinfo=UTC),
       datetime.datetime(2026, 12, 5, 17, 31, tzinfo=UTC))
    return match


def history_items(html: str) -> list[str]:
    """The text of each entry of the history section, tags removed, spaces squeezed."""
    section = html.split('id="match-history"', 1)[1].split("</details>", 1)[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", section, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_the_organiser_sees_each_step_newest_first(organiser_client, entered_corrected_undone):
    match = entered_corrected_undone
    a, b = match.player_a.name, match.player_b.name
    html = page(language(organiser_client, "en"), match)
    assert "History of changes (<span id=\"history-count\">3</span>)" in html
    assert history_items(html) == [
        f"05.12.2026 19:31 · organiser Deal 1 undone (it was “{b} +1 (66, loser 33 or more)”)",
        f"05.12.2026 19:20 · organiser Deal 1 corrected from “{a} +2 (66, loser under 33)” "
        f"to “{b} +1 (66, loser 33 or more)” Reason: wrong seat",
        f"05.12.2026 19:05 · organiser Deal 1 entered: {a} +2 (66, loser under 33)",
    ]


def test_the_history_in_bulgarian(organiser_client, entered_corrected_undone):
    match = entered_corrected_undone
    a, b = match.player_a.name, match.player_b.name
    html = page(language(organiser_client, "bg"), match)
    assert "История на промените (<span id=\"history-count\">3</span>)" in html
    assert history_items(html)[1] == (
        f"05.12.2026 19:20 · organiser Раздаване 1 е поправено от "
        f"„{a} +2 (66, загубилият има под 33)“ на „{b} +1 (66, загубилият има 33 или повече)“ "
        "Причина: wrong seat"
    )


def test_the_public_and_other_organisers_do_not_see_it(client, outsider_client,
                                                        entered_corrected_undone):
    for visitor in (client, outsider_client):
        html = page(language(visitor, "en"), entered_corrected_undone)
        assert "match-history" not in html
        assert "History of changes" not in html and "wrong seat" not in html


def test_the_selector_reads_the_deal_history_in_one_query_and_the_table_log_in_another(
    organiser, match, django_assert_num_queries
):
    for winner in "ABAB":
        services.deal_record(match=match, score=DealScore(winner, 1, None, "won"), by=organiser)
    services.deal_record(match=match, score=DealScore("A", 1, None, "won"), by=None)
    services.deal_correct(deal=match.deals.get(number=2), score=DealScore("A", 3, None, "capot"),
                          by=organiser, reason="capot, not 1")
    with django_assert_num_queries(2), translation.override("en"):  # the deals' history;
        changes = match_history(match)  # the players' steps (MatchEvent)
    assert [(change.kind, change.number) for change in changes] == [
        (CORRECTED, 2), (ENTERED, 5), (ENTERED, 4), (ENTERED, 3), (ENTERED, 2), (ENTERED, 1),
    ]
    assert changes[0].before == f"{match.player_b.name} +1 (66, loser 33 or more)"
    assert changes[0].after == f"{match.player_a.name} +3 (capot: loser took no trick)"
    assert changes[0].reason == "capot, not 1"
    assert [change.who for change in changes] == ["organiser", "", *["organiser"] * 4]
    assert all(change.reason == "" for change in changes[1:])


def test_a_forfeit_is_listed_with_its_winner(organiser, match):
    services.deal_record(match=match, score=DealScore("A", 2, None, "schneider"), by=organiser)
    services.match_forfeit(match=match, winner="B", by=organiser)
    match.refresh_from_db()
    with translation.override("en"):
        changes = match_history(match)
    assert [(change.kind, change.after, change.who) for change in changes] == [
        (FORFEITED, match.player_b.name, "organiser"),
        (ENTERED, f"{match.player_a.name} +2 (66, loser under 33)", "organiser"),
    ]


def test_a_deal_saved_by_htmx_updates_the_history(organiser_client, organiser, match):
    """Deal 2 saved from a page that lists deal 1: only the new row is sent, and only its
    own change, out of band, first in the page's history list (whose count
    static/js/match.js then makes 2)."""
    services.deal_record(match=match, score=DealScore("A", 1, None, "won"), by=organiser)
    html = page(language(organiser_client, "en"), match)
    shown = re.search(r'name="shown" value="([0-9a-f]+)"', html).group(1)
    assert '<ol id="history-list" class="history-list">' in html
    assert history_items(html)[0].endswith(
        f"· organiser Deal 1 entered: {match.player_a.name} +1 (66, loser 33 or more)")
    response = organiser_client.post(
        reverse("matches:deal_add", args=[match.pk]),
        {"number": 2, "winner": "B", "reason": "won", "shown": shown}, **HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="match-panel"' not in html and 'id="match-history"' not in html
    added = html.split('<ol hx-swap-oob="afterbegin:#history-list">', 1)[1].split("</ol>")[0]
    items = re.findall(r"<li[^>]*>(.*?)</li>", added, flags=re.S)
    assert [" ".join(re.sub(r"<[^>]+>", " ", item).split()).split(" · ", 1)[1]
            for item in items] == [
        f"organiser Deal 2 entered: {match.player_b.name} +1 (66, loser 33 or more)",
    ]
