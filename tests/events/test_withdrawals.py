"""Withdrawals from a running round robin under each policy: what happens to the player's
matches, how the standings treat them, that the event still finishes, and that a deal for a
closed match is refused (409, with the message in both languages).

The cast is conftest's five-player round robin (draw numbers 1-5): each player meets the other
four once, ten matches in all (five rounds of two matches and a bye). Every match played here
ends 11:0 (deals of 3, 3, 3 and 2 game points to the winner), so the game points follow from
who won. "Played" means decided over the board (status finished); a forfeit is not played.
"""

import csv
import datetime
import io
import random

import openpyxl
import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import translation

from club.models import Player
from events import services
from events.models import Entry, Pairing, Tournament
from formats.knockout import services as knockout
from printing import documents
from scoring import rules
from scoring import services as scoring_services
from scoring.errors import RecordingError
from scoring.models import Match
from standings import selectors
from tests.printing.helpers import html_text

pytestmark = pytest.mark.django_db

FIDE = Tournament.WithdrawalPolicy.FIDE
FORFEIT_REST = Tournament.WithdrawalPolicy.FORFEIT_REST
LEAVE_UNPLAYED = Tournament.WithdrawalPolicy.LEAVE_UNPLAYED
UNPLAYED_EN = (
    "This match will not be played: a player withdrew from the tournament. No deals can be "
    "entered."
)
UNPLAYED_BG = "Този мач няма да се играе: играч се отказа от турнира. Не се въвеждат раздавания."
FORFEITED_EN = "This match was forfeited; no deals can be entered."
FORFEITED_BG = "Този мач е присъден служебно; не се въвеждат раздавания."


def started(tournament: Tournament, policy: str) -> Tournament:
    tournament.withdrawal_policy = policy
    tournament.save(update_fields=["withdrawal_policy"])
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def entry(tournament, number: int) -> Entry:
    return tournament.entries.get(number=number)


def pairing_between(tournament, first: int, second: int) -> Pairing:
    return Pairing.objects.select_related("match", "entry_a", "entry_b").get(
        Q(entry_a__number=first, entry_b__number=second)
        | Q(entry_a__number=second, entry_b__number=first),
        round__tournament=tournament,
    )


def match_between(tournament, first: int, second: int) -> Match:
    return Match.objects.get(pk=pairing_between(tournament, first, second).match_id)


def beats(tournament, winner: int, loser: int) -> None:
    """`winner` wins their match with `loser` 11:0."""
    pairing = pairing_between(tournament, winner, loser)
    seat = "A" if pairing.entry_a.number == winner else "B"
    for points, reason in [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")]:
        scoring_services.deal_record(
            match=pairing.match, score=rules.quick_result(seat, points, reason), by=None
        )


def withdraw(tournament, number: int) -> None:
    services.entry_withdraw(entry=entry(tournament, number), by=None)


def status_with(tournament, number: int) -> dict[int, str]:
    """The status of each match of player `number`, by opponent's number."""
    statuses = {}
    for other in range(1, 6):
        if other != number:
            statuses[other] = match_between(tournament, number, other).status
    return statuses


def ranked(tournament) -> list[tuple[int, int, int]]:
    """(draw number, played, won) of each ranked player, best first."""
    return [(e.number, row.played, row.won) for e, row in selectors.standings(tournament)]


def tournament_status(tournament) -> str:
    return Tournament.objects.get(pk=tournament.pk).status


# --- FIDE: under half played ------------------------------------------------------------------


def test_fide_a_forfeit_win_is_not_a_played_match(tournament):
    """1 beats 3 and 4 (2 of 4 played: half) and withdraws: 1-2 and 1-5 are forfeited to 2 and 5.
    Then 2 loses to 3 and withdraws with one match played and one forfeit win: under half
    played, so all of 2's results are cancelled, 2-4 and 2-5 are closed unplayed (no forfeit
    win for 4 and 5 that the standings would then drop), and 2 is listed apart, not ranked.

    Counted: 1-3 (1), 1-4 (1), 1-5 forfeit (5), 3-4 (3), 3-5 (5), 4-5 (4). Wins: 1 two, 5 two,
    3 one, 4 one, three matches each. 5 beat 1 (head-to-head), 3 beat 4."""
    started(tournament, FIDE)
    beats(tournament, 1, 3)
    beats(tournament, 1, 4)
    withdraw(tournament, 1)
    assert status_with(tournament, 1) == {
        2: "forfeited", 3: "finished", 4: "finished", 5: "forfeited",
    }
    beats(tournament, 3, 2)
    withdraw(tournament, 2)

    assert status_with(tournament, 2) == {
        1: "forfeited", 3: "finished", 4: "unplayed", 5: "unplayed",
    }
    assert not Match.objects.filter(status="unplayed").exclude(winner="").exists()
    beats(tournament, 3, 4)
    beats(tournament, 5, 3)
    beats(tournament, 4, 5)

    table = selectors.standings_with_withdrawn(tournament)
    assert [e.number for e in table.withdrawn] == [2]
    assert ranked(tournament) == [(5, 3, 2), (1, 3, 2), (3, 3, 1), (4, 3, 1)]
    assert tournament_status(tournament) == Tournament.Status.FINISHED


def test_fide_under_half_is_listed_apart_the_event_finishes_and_seeds_a_knockout(
    tournament, organiser
):
    """2 beats 1 (1 of 4 played) and withdraws: the win is cancelled, 2-3, 2-4, 2-5 are
    closed unplayed. The other six matches: 1 beats 3, 4 and 5; 3 beats 4 and 5; 4 beats 5.
    Ranked: 1 (3 wins of 3), 3 (2), 4 (1), 5 (0); 2, with one win, is not ranked above
    anyone. The round robin is finished, so a knockout can take its top four."""
    started(tournament, FIDE)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    assert status_with(tournament, 2) == {
        1: "finished", 3: "unplayed", 4: "unplayed", 5: "unplayed",
    }
    for winner, loser in [(1, 3), (1, 4), (1, 5), (3, 4), (3, 5), (4, 5)]:
        assert tournament_status(tournament) == Tournament.Status.RUNNING
        beats(tournament, winner, loser)

    assert tournament_status(tournament) == Tournament.Status.FINISHED
    assert ranked(tournament) == [(1, 3, 3), (3, 3, 2), (4, 3, 1), (5, 3, 0)]
    assert [e.number for e in selectors.standings_with_withdrawn(tournament).withdrawn] == [2]

    cup = Tournament.objects.create(
        name="Купа финал", date=datetime.date(2026, 12, 6), format=Tournament.Format.KNOCKOUT,
    )
    source = Tournament.objects.get(pk=tournament.pk)
    seeded = knockout.seeds_from_standings(tournament=cup, source=source, count=4)
    names = {e.number: e.player.name for e in tournament.entries.select_related("player")}
    assert [e.player.name for e in seeded] == [names[1], names[3], names[4], names[5]]


def test_the_standings_page_lists_a_cancelled_player_apart_in_both_languages(
    client, tournament
):
    started(tournament, FIDE)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    name = entry(tournament, 2).player.name
    url = reverse("standings:standings", args=[tournament.pk])

    client.cookies["django_language"] = "en"
    html = client.get(url).content.decode()
    table, _sep, below = html.partition("</table>")
    assert name not in table
    assert "Withdrawn" in below and name in below
    assert "all their results are cancelled and they are not ranked" in below

    client.cookies["django_language"] = "bg"
    html = client.get(url).content.decode()
    table, _sep, below = html.partition("</table>")
    assert name not in table
    assert "Отказали се" in below and name in below


def test_fide_half_played_keeps_the_results_and_forfeits_the_rest(tournament):
    """2 beats 1 and 3 (2 of 4: half) and withdraws: 2-4 and 2-5 go to 4 and 5 by forfeit,
    11:0, and 2 stays ranked with two wins of four."""
    started(tournament, FIDE)
    beats(tournament, 2, 1)
    beats(tournament, 2, 3)
    withdraw(tournament, 2)
    assert status_with(tournament, 2) == {
        1: "finished", 3: "finished", 4: "forfeited", 5: "forfeited",
    }
    rows = {number: (played, won) for number, played, won in ranked(tournament)}
    assert rows == {1: (1, 0), 2: (4, 2), 3: (1, 0), 4: (1, 1), 5: (1, 1)}
    assert selectors.standings_with_withdrawn(tournament).withdrawn == []


# --- leave_unplayed ------------------------------------------------------------------------------


def test_leave_unplayed_closes_the_rest_as_not_played_and_the_event_finishes(
    client, tournament
):
    """2 beats 1 and withdraws: 2-3, 2-4, 2-5 are closed unplayed (shown "not played" on their
    round), 2's win stands. With the six other matches played the event is finished."""
    started(tournament, LEAVE_UNPLAYED)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    assert status_with(tournament, 2) == {
        1: "finished", 3: "unplayed", 4: "unplayed", 5: "unplayed",
    }
    pairing = pairing_between(tournament, 2, 3)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("events:round", args=[tournament.pk, pairing.round.number]))
    assert "not played" in page.content.decode()
    match_page = client.get(reverse("matches:entry", args=[pairing.match_id])).content.decode()
    assert "Not played: a player withdrew from the tournament." in match_page

    for winner, loser in [(1, 3), (1, 4), (1, 5), (3, 4), (3, 5), (4, 5)]:
        beats(tournament, winner, loser)
    assert tournament_status(tournament) == Tournament.Status.FINISHED
    rows = {number: (played, won) for number, played, won in ranked(tournament)}
    assert rows == {1: (4, 3), 2: (1, 1), 3: (3, 2), 4: (3, 1), 5: (3, 0)}


# --- a deal for a withdrawn player's match is refused --------------------------------------------


@pytest.mark.parametrize("policy, played_first, english, bulgarian", [
    (FORFEIT_REST, 1, FORFEITED_EN, FORFEITED_BG),
    (FIDE, 1, UNPLAYED_EN, UNPLAYED_BG),
    (FIDE, 2, FORFEITED_EN, FORFEITED_BG),
    (LEAVE_UNPLAYED, 1, UNPLAYED_EN, UNPLAYED_BG),
])
def test_a_deal_for_a_withdrawn_players_match_is_refused_with_a_message(
    organiser_client, organiser, tournament, policy, played_first, english, bulgarian
):
    """2 beats 1 (and 3, for FIDE with half played) and withdraws; a deal posted for 2-5, from
    a page drawn before the withdrawal, is refused: 409, the message, nothing written."""
    tournament.organisers.add(organiser)
    started(tournament, policy)
    for loser in [1, 3][:played_first]:
        beats(tournament, 2, loser)
    match = match_between(tournament, 2, 5)
    withdraw(tournament, 2)
    url = reverse("matches:deal_add", args=[match.pk])
    deal = {"winner": "A", "reason": "won", "number": 1}

    for language, message in [("en", english), ("bg", bulgarian)]:
        organiser_client.cookies["django_language"] = language
        response = organiser_client.post(url, deal)
        assert response.status_code == 409
        assert message in response.content.decode()
    assert match.deals.count() == 0


def test_a_deal_for_a_knockout_match_removed_by_a_withdrawal_is_refused(organiser_client,
                                                                         organiser, home_club):
    """Four-player knockout, semifinals 1 v 4 and 2 v 3; 4 withdraws before playing: the
    semifinal 1 v 4 becomes a walkover and its match is removed. A deal posted for it from the
    page drawn before: 409 with the withdrawal message, in both languages."""
    cup = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    cup.organisers.add(organiser)
    for seed in range(1, 5):
        player = Player.objects.create(name=f"Играч {seed}", club=home_club)
        Entry.objects.create(tournament=cup, player=player, number=seed)
    knockout.knockout_start(tournament=cup, rng=random.Random(1))
    semifinal = Pairing.objects.get(round__tournament=cup, round__number=1, bracket_index=0)
    match_pk = semifinal.match_id
    knockout.knockout_withdraw(entry=cup.entries.get(number=4), by=None)
    assert not Match.objects.filter(pk=match_pk).exists()

    url = reverse("matches:deal_add", args=[match_pk])
    for language, message in [("en", UNPLAYED_EN), ("bg", UNPLAYED_BG)]:
        organiser_client.cookies["django_language"] = language
        response = organiser_client.post(url, {"winner": "A", "reason": "won", "number": 1})
        assert response.status_code == 409
        assert message in response.content.decode()


def test_the_printed_standings_list_a_cancelled_player_apart(tournament):
    started(tournament, FIDE)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    name = entry(tournament, 2).player.name
    with translation.override("en"):
        document = documents.standings_document(tournament, "en")
    assert name not in [row["player"] for row in document.rows] and document.withdrawn == [name]
    table, _sep, below = html_text(document).partition("Withdrawn")
    assert name not in table and name in below


# --- a withdrawn player's finished match cannot reopen -------------------------------------------

REOPEN_EN = "A player of this match has withdrawn; its result can no longer be reopened."
REOPEN_BG = "Играч от този мач се е отказал; резултатът му вече не може да се отваря отново."


def withdrawn_after_a_win(tournament, policy) -> Match:
    """2 beats 1 11:0 (deals 3, 3, 3, 2 to 2) and withdraws: 1 of 4 played, so under `fide` all
    of 2's results are cancelled, and under `leave_unplayed` the win stands; 2's other three
    matches are closed unplayed either way. The other six matches are then played, so the
    event is finished. Returns the match 2-1."""
    started(tournament, policy)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    for winner, loser in [(1, 3), (1, 4), (1, 5), (3, 4), (3, 5), (4, 5)]:
        beats(tournament, winner, loser)
    assert tournament_status(tournament) == Tournament.Status.FINISHED
    return match_between(tournament, 2, 1)


def reopen_request(client, match, action: str):
    """Undo deal 4 (the last), or correct deal 4 (2 points to 2) to a capot for 1: 9:3, so the
    match would be playing again."""
    winner_seat = "A" if match.player_a.name == PLAYER_NAMES_BY_NUMBER[2] else "B"
    loser_seat = "B" if winner_seat == "A" else "A"
    if action == "undo":
        return client.post(reverse("matches:deal_undo", args=[match.pk]), {"number": 4})
    return client.post(
        reverse("matches:deal_correct", args=[match.pk, 4]),
        {"winner": loser_seat, "reason": "capot", "correction_reason": "грешен играч"},
    )


PLAYER_NAMES_BY_NUMBER = {2: "Мария Георгиева"}  # conftest's second player, draw number 2


@pytest.mark.parametrize("policy", [FIDE, LEAVE_UNPLAYED])
@pytest.mark.parametrize("action", ["undo", "correct"])
def test_a_withdrawn_players_finished_match_cannot_be_reopened(
    organiser_client, organiser, tournament, policy, action
):
    """An undo of the last deal, or a correction that changes the winner, of 2's finished
    match with 1 is refused after 2 withdrew: 409 with the message in both languages, the
    deals and the match as they were, and the event stays finished."""
    tournament.organisers.add(organiser)
    match = withdrawn_after_a_win(tournament, policy)
    assert entry(tournament, 2).player.name == PLAYER_NAMES_BY_NUMBER[2]
    for language, message in [("en", REOPEN_EN), ("bg", REOPEN_BG)]:
        organiser_client.cookies["django_language"] = language
        response = reopen_request(organiser_client, match, action)
        assert response.status_code == 409
        assert message in response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.deals.count()) == (Match.Status.FINISHED, 4)
    assert sorted([match.game_points_a, match.game_points_b]) == [0, 11]
    assert [d.game_points for d in match.deals.order_by("number")] == [3, 3, 3, 2]
    assert tournament_status(tournament) == Tournament.Status.FINISHED


@pytest.mark.parametrize("policy", [FIDE, LEAVE_UNPLAYED])
def test_a_withdrawn_players_match_refuses_reopening_in_the_service_too(tournament, policy):
    """The refusal sits on the reopening path, whatever calls it: the service raises the
    `RecordingError` `player_withdrawn` and writes nothing."""
    match = withdrawn_after_a_win(tournament, policy)
    with pytest.raises(RecordingError) as error:
        scoring_services.deal_undo_last(match=match, by=None, number=4)
    assert error.value.code == "player_withdrawn"
    assert match.deals.count() == 4
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_correction_that_keeps_the_winner_still_goes_through(organiser_client, organiser,
                                                                tournament):
    """Deal 4 of 2-1 (2 game points to 2) corrected to a capot for 2: 12:0, still finished,
    still 2's win: saved, though 2 has withdrawn."""
    tournament.organisers.add(organiser)
    match = withdrawn_after_a_win(tournament, FIDE)
    seat = "A" if match.player_a.name == PLAYER_NAMES_BY_NUMBER[2] else "B"
    response = organiser_client.post(
        reverse("matches:deal_correct", args=[match.pk, 4]),
        {"winner": seat, "reason": "capot", "correction_reason": "капо, не шнайдер"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, seat)
    assert sorted([match.game_points_a, match.game_points_b]) == [0, 12]
    assert tournament_status(tournament) == Tournament.Status.FINISHED


# --- no withdrawal once the event is finished ----------------------------------------------------

FINISHED_EN = "The tournament has finished; its results are final and nobody can withdraw any more."
FINISHED_BG = (
    "Турнирът е завършил; резултатите му са окончателни и никой вече не може да се откаже."
)


def test_a_withdrawal_after_the_round_robin_finished_is_refused(organiser_client, organiser,
                                                                 tournament):
    """All ten matches played (1 beats everyone, 2 beats 3, 4, 5, ...): the event is finished.
    Withdrawing 5 then: 409 with the message in both languages, nothing changes; and the
    standings page offers no withdraw form any more."""
    tournament.organisers.add(organiser)
    started(tournament, FIDE)
    for winner in range(1, 6):
        for loser in range(winner + 1, 6):
            beats(tournament, winner, loser)
    assert tournament_status(tournament) == Tournament.Status.FINISHED
    url = reverse("events:player_withdraw", args=[tournament.pk, entry(tournament, 5).pk])
    for language, message in [("en", FINISHED_EN), ("bg", FINISHED_BG)]:
        organiser_client.cookies["django_language"] = language
        response = organiser_client.post(url)
        assert response.status_code == 409
        assert message in response.content.decode()
    assert not tournament.entries.filter(withdrawn=True).exists()
    assert tournament_status(tournament) == Tournament.Status.FINISHED

    page = organiser_client.get(reverse("standings:standings", args=[tournament.pk]))
    assert page.status_code == 200
    assert url not in page.content.decode()


def test_a_finished_knockout_offers_no_withdrawal_and_refuses_one(organiser_client, organiser,
                                                                  home_club):
    """Two players, one final: seed 1 wins it 11:0, the knockout is finished. The bracket page
    has no withdraw form; a withdrawal posted anyway is refused with 409."""
    cup = Tournament.objects.create(
        name="Купа", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.KNOCKOUT,
    )
    cup.organisers.add(organiser)
    for seed in (1, 2):
        player = Player.objects.create(name=f"Играч {seed}", club=home_club)
        Entry.objects.create(tournament=cup, player=player, number=seed)
    knockout.knockout_start(tournament=cup, rng=random.Random(1))
    final = Pairing.objects.select_related("match", "entry_a").get(round__tournament=cup)
    seat = "A" if final.entry_a.number == 1 else "B"
    for points, reason in [(3, "capot"), (3, "capot"), (3, "capot"), (2, "schneider")]:
        scoring_services.deal_record(
            match=final.match, score=rules.quick_result(seat, points, reason), by=None
        )
    assert tournament_status(cup) == Tournament.Status.FINISHED

    url = reverse("events:player_withdraw", args=[cup.pk, cup.entries.get(number=2).pk])
    organiser_client.cookies["django_language"] = "en"
    page = organiser_client.get(reverse("knockout:bracket", args=[cup.pk])).content.decode()
    assert url not in page and "Withdraw a player" not in page
    response = organiser_client.post(url)
    assert response.status_code == 409 and FINISHED_EN in response.content.decode()
    assert not cup.entries.filter(withdrawn=True).exists()


# --- the standings exports list withdrawals ------------------------------------------------------


def csv_rows(client, tournament) -> list[dict[str, str]]:
    response = client.get(reverse("data:standings_csv", args=[tournament.pk]))
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    header = text.splitlines()[0].split(",")
    assert len(header) == len(set(header)), header  # no column twice
    assert "gp_diff" not in header and "game_point_difference" in header
    return list(csv.DictReader(io.StringIO(text)))


def test_the_standings_export_lists_a_cancelled_player_after_the_ranked_ones(client, tournament):
    """FIDE, 2 beats 1 and withdraws (1 of 4 played: cancelled). The others: 1 beats 3, 4, 5;
    3 beats 4, 5; 4 beats 5. Ranked 1 (3 wins), 3 (2), 4 (1), 5 (0), none withdrawn; then 2
    with no rank, no results, withdrawn = yes. The XLSX has the same rows."""
    started(tournament, FIDE)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    for winner, loser in [(1, 3), (1, 4), (1, 5), (3, 4), (3, 5), (4, 5)]:
        beats(tournament, winner, loser)
    name = {number: entry(tournament, number).player.name for number in range(1, 6)}

    rows = csv_rows(client, tournament)
    assert [(r["rank"], r["player"], r["withdrawn"], r["played"], r["won"]) for r in rows] == [
        ("1", name[1], "", "3", "3"), ("2", name[3], "", "3", "2"),
        ("3", name[4], "", "3", "1"), ("4", name[5], "", "3", "0"),
        ("", name[2], "yes", "", ""),
    ]
    assert rows[0]["game_point_difference"] == "33"  # three 11:0 wins

    response = client.get(reverse("data:standings_xlsx", args=[tournament.pk]))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = [list(row) for row in sheet.iter_rows(values_only=True)]
    header = values[0]
    assert [(r[header.index("rank")], r[1], r[header.index("withdrawn")]) for r in values[1:]] == [
        (1, name[1], None), (2, name[3], None), (3, name[4], None), (4, name[5], None),
        (None, name[2], "yes"),
    ]


@pytest.mark.parametrize("policy", [FORFEIT_REST, LEAVE_UNPLAYED])
def test_the_standings_export_marks_a_ranked_withdrawn_player(client, tournament, policy):
    """2 beats 1 and withdraws; under these policies 2 stays ranked (the win stands), and the
    export says they withdrew."""
    started(tournament, policy)
    beats(tournament, 2, 1)
    withdraw(tournament, 2)
    rows = csv_rows(client, tournament)
    withdrawn = {r["player"]: r["withdrawn"] for r in rows}
    assert len(rows) == 5
    assert withdrawn.pop(entry(tournament, 2).player.name) == "yes"
    assert set(withdrawn.values()) == {""}


@pytest.mark.parametrize("policy", [FIDE, LEAVE_UNPLAYED])
def test_the_page_of_a_withdrawn_players_finished_match_offers_no_undo(
    organiser_client, organiser, tournament, policy
):
    """The match page does not offer what would be refused: no undo form, and a note (in
    both languages) instead of "undo or correct a deal to reopen it"; the correction links
    stay (a correction that keeps the winner goes through)."""
    tournament.organisers.add(organiser)
    match = withdrawn_after_a_win(tournament, policy)
    url = reverse("matches:entry", args=[match.pk])
    for language, note in [
        ("en", "A player of this match has withdrawn: its result is final. A deal can still "
               "be corrected if the match keeps its winner."),
        ("bg", "Играч от този мач се е отказал: резултатът му е окончателен. Раздаване може "
               "още да се поправи, ако победителят в мача остане същият."),
    ]:
        organiser_client.cookies["django_language"] = language
        page = organiser_client.get(url).content.decode()
        assert note in page
        assert reverse("matches:deal_undo", args=[match.pk]) not in page
        assert reverse("matches:deal_correct", args=[match.pk, 4]) in page
