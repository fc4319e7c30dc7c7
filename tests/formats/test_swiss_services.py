"""The Swiss's writes (formats.swiss.services through its format object): start, next round, a
round paired again, late entries, withdrawals; and the bad input each refuses with a code and
nothing written.

The cast: nine players with pairing numbers 1-9, four rounds. Every match played here ends
11:0 for its winner (deals of 3, 3, 3 and 2 game points).
"""

import datetime

import pytest

from club.models import Player
from events import registry, services
from events.errors import TournamentError
from events.models import Entry, Pairing, Round, Tournament
from formats.swiss import services as swiss
from scoring import services as scoring_services
from scoring.errors import RecordingError
from scoring.models import Match
from tests.playing import play

pytestmark = pytest.mark.django_db

NAMES = ["Анна", "Борис", "Валя", "Галя", "Дими", "Ели", "Жоро", "Зори", "Ива", "Краси"]


@pytest.fixture
def event(organiser, home_club) -> Tournament:
    tournament = Tournament.objects.create(
        name="Швейцарска купа", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.SWISS, swiss_rounds=4,
    )
    tournament.organisers.add(organiser)
    for number, name in enumerate(NAMES[:9], start=1):
        player = Player.objects.create(name=name, club=home_club)
        Entry.objects.create(tournament=tournament, player=player, number=number)
    return tournament


def started(event) -> Tournament:
    registry.for_tournament(event).start()
    event.refresh_from_db()
    return event


def table(event, number):
    """{table: (seat A's pairing number, seat B's)} and the bye's number, for round `number`."""
    round_ = event.rounds.get(number=number)
    pairs, bye = {}, None
    for pairing in round_.pairings.select_related("entry_a", "entry_b"):
        if pairing.entry_b is None:
            bye = pairing.entry_a.number
        else:
            pairs[pairing.table] = (pairing.entry_a.number, pairing.entry_b.number)
    return pairs, bye


def finish_round(event, number, seat="A"):
    for pairing in event.rounds.get(number=number).pairings.filter(match__isnull=False):
        play(pairing.match, " ".join(f"{seat}{n}" for n in (3, 3, 3, 2)))


def counts():
    return Round.objects.count(), Pairing.objects.count(), Match.objects.count()


def test_start_pairs_round_one_top_half_against_bottom_half(event):
    event = started(event)
    assert event.status == Tournament.Status.RUNNING
    pairs, bye = table(event, 1)
    # Dutch round 1 of nine: 1-5, 2-6, 3-7, 4-8; 9 rests. Higher number deals first on odd
    # tables (seat A deals first), the lower-ranked on even ones.
    assert pairs == {1: (1, 5), 2: (6, 2), 3: (3, 7), 4: (8, 4)}
    assert bye == 9
    for pairing in event.rounds.get(number=1).pairings.filter(match__isnull=False):
        assert pairing.match.first_dealer == "A"
        assert pairing.match.player_a_id == pairing.entry_a.player_id


def test_start_needs_rounds_and_not_too_many(event):
    event.swiss_rounds = None
    event.save()
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).start()
    assert error.value.code == "swiss_rounds_missing"
    event.swiss_rounds = 9  # nine players can meet at most 8 others
    event.save()
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).start()
    assert (error.value.code, error.value.params["most"]) == ("too_many_swiss_rounds", 8)
    assert counts() == (0, 0, 0)
    event.refresh_from_db()
    assert event.status == Tournament.Status.DRAFT


def test_pairing_a_round_before_the_last_is_over_is_refused_and_writes_nothing(event, organiser):
    event = started(event)
    first = event.rounds.get(number=1).pairings.filter(match__isnull=False).first()
    play(first.match, "A3 A3 A3 A2")
    before = counts()
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).pair_next_round(by=organiser)
    assert (error.value.code, error.value.params) == ("round_not_over", {"round": 1})
    assert counts() == before


def test_next_round_by_score_groups_and_the_bye_to_the_lowest_group(event, organiser):
    event = started(event)
    finish_round(event, 1)  # seat A wins: 1, 6, 3, 8 win; 9 had the bye (a win)
    registry.for_tournament(event).pair_next_round(by=organiser)
    pairs, bye = table(event, 2)
    # On 1 point: 1, 3, 6, 8, 9; on 0: 2, 4, 5, 7. The bye goes to the 0 group's
    # lowest-ranked, 7. 1-point group: five players, so one floats down to meet a 0-point
    # player; nobody meets a round-1 opponent again.
    assert bye == 7
    met_before = {frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]}
    assert not {frozenset(p) for p in pairs.values()} & met_before
    winners = {1, 3, 6, 8, 9}
    mixed = [p for p in pairs.values() if len(set(p) & winners) == 1]
    assert len(mixed) == 1


def test_a_whole_swiss_of_four_rounds_then_no_round_left(event, organiser):
    event = started(event)
    event_format = registry.for_tournament(event)
    byes = []
    for number in range(1, 5):
        if number > 1:
            event_format.pair_next_round(by=organiser)
        byes.append(table(event, number)[1])
        finish_round(event, number, seat="AB"[number % 2])
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert len(set(byes)) == 4  # four byes, four different players
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).pair_next_round(by=organiser)
    assert error.value.code == "already_finished"


def test_no_rounds_left_while_running(event, organiser):
    event.swiss_rounds = 1
    event.save()
    event = started(event)
    with pytest.raises(TournamentError) as error:
        swiss.swiss_pair_next_round(tournament=event, by=organiser)
    assert error.value.code == "round_not_over"
    finish_round(event, 1)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED


def test_pair_again_until_the_first_deal(event, organiser):
    event = started(event)
    event_format = registry.for_tournament(event)
    round_ = event.rounds.get(number=1)
    assert event_format.can_pair_again(round_)
    old_matches = set(Match.objects.values_list("pk", flat=True))
    event_format.pair_again(number=1, by=organiser)
    assert table(event, 1) == ({1: (1, 5), 2: (6, 2), 3: (3, 7), 4: (8, 4)}, 9)
    assert not old_matches & set(Match.objects.values_list("pk", flat=True))
    assert Match.objects.count() == 4
    # One deal: pairing again is refused and writes nothing.
    match = event.rounds.get(number=1).pairings.filter(match__isnull=False).first().match
    play(match, "A2")
    before = (counts(), set(Pairing.objects.values_list("pk", "entry_a", "entry_b")))
    assert not event_format.can_pair_again(event.rounds.get(number=1))
    with pytest.raises(TournamentError) as error:
        event_format.pair_again(number=1, by=organiser)
    assert (error.value.code, error.value.params) == ("round_has_deals", {"round": 1})
    assert (counts(), set(Pairing.objects.values_list("pk", "entry_a", "entry_b"))) == before


def test_only_the_last_round_is_paired_again(event, organiser):
    event = started(event)
    finish_round(event, 1)
    registry.for_tournament(event).pair_next_round(by=organiser)
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).pair_again(number=1, by=organiser)
    assert (error.value.code, error.value.params) == ("round_not_latest", {"round": 1})


def test_withdrawal_in_the_middle_of_a_round_is_refused_between_rounds_allowed(
    event, organiser
):
    event = started(event)
    entry = event.entries.get(number=2)
    with pytest.raises(TournamentError) as error:
        registry.for_tournament(event).withdraw(entry=entry, by=organiser)
    assert (error.value.code, error.value.params) == ("swiss_withdraw_mid_round", {"round": 1})
    entry.refresh_from_db()
    assert not entry.withdrawn
    finish_round(event, 1)
    registry.for_tournament(event).withdraw(entry=entry, by=organiser)
    registry.for_tournament(event).pair_next_round(by=organiser)
    pairs, bye = table(event, 2)
    # Eight players left: four pairs, no bye, and number 2 is not paired.
    assert bye is None and len(pairs) == 4
    assert 2 not in {n for pair in pairs.values() for n in pair}


def test_late_entry_between_rounds_only(event, organiser, home_club):
    event = started(event)
    newcomer = Player.objects.create(name="Краси", club=home_club)
    with pytest.raises(TournamentError) as error:
        services.entry_add(tournament=event, player=newcomer)
    assert (error.value.code, error.value.params) == ("swiss_entry_mid_round", {"round": 1})
    assert event.entries.count() == 9
    finish_round(event, 1)
    entry = services.entry_add(tournament=event, player=newcomer)
    assert entry.number == 10
    registry.for_tournament(event).pair_next_round(by=organiser)
    pairs, bye = table(event, 2)
    # Ten players: five pairs, no bye; the newcomer (0 points) plays.
    assert bye is None and len(pairs) == 5
    assert 10 in {n for pair in pairs.values() for n in pair}


def test_other_formats_still_refuse_entries_after_the_start(tournament, home_club):
    services.tournament_start(tournament=tournament)
    with pytest.raises(TournamentError) as error:
        services.entry_add(tournament=tournament, player=Player.objects.create(name="Нов"))
    assert error.value.code == "already_started"


def test_a_result_the_next_round_was_paired_from_stays(event, organiser):
    event = started(event)
    finish_round(event, 1)
    registry.for_tournament(event).pair_next_round(by=organiser)
    match = event.rounds.get(number=1).pairings.filter(match__isnull=False).first().match
    with pytest.raises(RecordingError) as error:
        scoring_services.deal_undo_last(match=match, by=organiser)
    assert (error.value.code, error.value.params) == ("next_round_paired", {"round": 2})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.deals.count() == 4
