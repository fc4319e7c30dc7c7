"""Recording deals against the database (scoring.services), values worked out from docs/rules.md.

Default house rules throughout: game target 11, the winner of a deal deals the next one,
won 1 / schneider 2 / capot 3 game points.
"""


from functools import partial

import pytest
from django.db import connection

from events.models import Pairing
from events.services import tournament_start
from scoring import services
from scoring.errors import RecordingError
from scoring.models import Deal, Match
from scoring.rules import DealRecord, DealScore, InvalidDeal
from scoring.signals import match_finished, match_reopened
from tests.concurrency import run_at_once
from tests.services import require_vendor

REASON = {1: "won", 2: "schneider", 3: "capot"}


def win(seat, game_points):
    return DealScore(seat, game_points, None, REASON[game_points])


@pytest.fixture
def match(tournament):
    tournament_start(tournament=tournament)
    return Pairing.objects.filter(match__isnull=False).first().match


def record(match, by, *wins):
    for seat, game_points in wins:
        services.deal_record(match=match, score=win(seat, game_points), by=by)
    match.refresh_from_db()
    return match


class SignalLog:
    """A receiver that notes which matches a signal was sent for."""

    def __init__(self, signal):
        self.signal, self.matches = signal, []

    def __call__(self, sender, match, **kwargs):
        self.matches.append(match.pk)

    def __enter__(self):
        self.signal.connect(self, dispatch_uid=id(self))
        return self

    def __exit__(self, *exc):
        self.signal.disconnect(dispatch_uid=id(self))


@pytest.mark.django_db
class TestRecording:
    def test_a_new_match_is_scheduled_at_nil_nil(self, match):
        assert (match.status, match.game_points_a, match.game_points_b) == ("scheduled", 0, 0)

    def test_deals_add_up_and_eleven_finishes_the_match(self, match, organiser):
        # A: 3 + 3 + 2 = 8, still playing; + 3 = 11 -> finished, A wins 11:0.
        record(match, organiser, ("A", 3), ("A", 3), ("A", 2))
        assert (match.status, match.game_points_a, match.game_points_b, match.winner) == (
            "playing", 8, 0, ""
        )
        with SignalLog(match_finished) as finished:
            record(match, organiser, ("A", 3))
        assert (match.status, match.game_points_a, match.game_points_b, match.winner) == (
            "finished", 11, 0, "A"
        )
        assert match.finished_at is not None
        assert finished.matches == [match.pk]
        assert list(match.deals.values_list("number", "winner", "game_points", "reason")) == [
            (1, "A", 3, "capot"), (2, "A", 3, "capot"), (3, "A", 2, "schneider"),
            (4, "A", 3, "capot"),
        ]
        assert set(match.deals.values_list("entered_by", flat=True)) == {organiser.pk}

    def test_points_are_recorded_as_scored_ten_plus_three_is_thirteen(self, match, organiser):
        # A: 3 + 3 + 3 + 1 = 10; B: 2; then A takes a capot: 10 + 3 = 13, not capped at 11.
        record(match, organiser, ("A", 3), ("A", 3), ("B", 2), ("A", 3), ("A", 1))
        assert (match.game_points_a, match.game_points_b, match.status) == (10, 2, "playing")
        record(match, organiser, ("A", 3))
        assert (match.game_points_a, match.game_points_b, match.status, match.winner) == (
            13, 2, "finished", "A"
        )

    def test_details_are_kept_with_the_deal(self, match, organiser):
        details = DealRecord(
            end="claim", card_points={"A": 70, "B": 30}, marriage_points={"A": 0, "B": 0},
            tricks={"A": 5, "B": 3}, claim_by="A",
        )
        deal = services.deal_record(match=match, score=win("B", 1), by=organiser,
                                    details=details)
        assert Deal.objects.get(pk=deal.pk).details["card_points"] == {"A": 70, "B": 30}

    def test_a_deal_after_the_end_is_refused_and_nothing_is_written(self, match, organiser):
        record(match, organiser, ("B", 3), ("B", 3), ("B", 3), ("B", 2))  # B: 11
        assert (match.status, match.winner) == ("finished", "B")
        with pytest.raises(InvalidDeal) as refused:
            services.deal_record(match=match, score=win("A", 1), by=organiser)
        assert refused.value.code == "match_finished"
        match.refresh_from_db()
        assert match.deals.count() == 4
        assert (match.game_points_a, match.game_points_b, match.status, match.winner) == (
            0, 11, "finished", "B"
        )

    def test_a_deal_number_already_taken_is_refused(self, match, organiser):
        record(match, organiser, ("A", 1), ("B", 1), ("A", 1), ("B", 1), ("A", 1))  # at deal 6
        with pytest.raises(RecordingError) as refused:
            services.deal_record(match=match, score=win("B", 3), by=organiser, number=5)
        assert refused.value.code == "deal_already_entered"
        assert refused.value.params["number"] == 5
        assert refused.value.params["next_number"] == 6
        match.refresh_from_db()
        assert match.deals.count() == 5
        assert (match.game_points_a, match.game_points_b) == (3, 2)

    @pytest.mark.parametrize("number", [0, -1, 5, 2**63 - 1, 10**20])
    def test_a_deal_number_no_page_could_send_is_out_of_range(self, match, organiser, number):
        # Two deals entered, so the next is 3 and 1..3 are numbers a page may send (1 and 2:
        # someone else entered them first); 5 is past deal 3.
        record(match, organiser, ("A", 1), ("B", 2))
        with pytest.raises(RecordingError) as refused:
            services.deal_record(match=match, score=win("B", 3), by=organiser, number=number)
        assert refused.value.code == "deal_number_out_of_range"
        assert refused.value.params == {"number": number, "count": 2, "next_number": 3}
        match.refresh_from_db()
        assert match.deals.count() == 2
        assert (match.game_points_a, match.game_points_b) == (1, 2)

    def test_the_expected_deal_number_is_accepted(self, match, organiser):
        record(match, organiser, ("A", 1))
        deal = services.deal_record(match=match, score=win("B", 2), by=organiser, number=2)
        assert deal.number == 2

    def test_a_deal_that_does_not_fit_the_house_rules_is_refused(self, match, organiser):
        # The default rules have no "last trick wins the deal".
        with pytest.raises(InvalidDeal):
            services.deal_record(
                match=match, score=DealScore("A", 2, None, "last_trick"), by=organiser
            )
        assert match.deals.count() == 0


@pytest.mark.django_db
class TestUndo:
    def test_undo_removes_the_last_deal_and_history_keeps_it(self, match, organiser):
        record(match, organiser, ("A", 2), ("B", 3))
        undone = services.deal_undo_last(match=match, by=organiser)
        assert undone.number == 2
        match.refresh_from_db()
        assert list(match.deals.values_list("number", flat=True)) == [1]
        assert (match.game_points_a, match.game_points_b) == (2, 0)
        deleted = Deal.history.filter(match_id=match.pk, number=2, history_type="-").get()
        assert deleted.history_change_reason == "undo"
        assert deleted.history_user == organiser

    def test_the_match_history_keeps_its_states_and_the_deal_history_every_deal(
        self, match, organiser
    ):
        before = match.history.count()
        record(match, organiser, ("A", 3), ("B", 1), ("A", 3))  # 6:1, still playing
        assert match.history.count() == before  # a moving score adds no match history row
        assert Deal.history.filter(match_id=match.pk, history_type="+").count() == 3
        record(match, organiser, ("A", 3), ("A", 2))  # 11:1, finished
        latest = match.history.first()
        assert match.history.count() == before + 1
        assert (latest.status, latest.game_points_a, latest.game_points_b) == ("finished", 11, 1)
        services.deal_undo_last(match=match, by=organiser)  # 9:1, reopened
        latest = match.history.first()
        assert match.history.count() == before + 2
        assert (latest.status, latest.game_points_a) == ("playing", 9)

    def test_undo_reopens_a_finished_match(self, match, organiser):
        record(match, organiser, ("A", 3), ("A", 3), ("A", 2), ("A", 3))  # 11: finished
        with SignalLog(match_reopened) as reopened:
            services.deal_undo_last(match=match, by=organiser)
        match.refresh_from_db()
        assert (match.status, match.winner, match.game_points_a) == ("playing", "", 8)
        assert match.finished_at is None
        assert reopened.matches == [match.pk]

    def test_undoing_the_only_deal_makes_the_match_scheduled_again(self, match, organiser):
        record(match, organiser, ("B", 1))
        services.deal_undo_last(match=match, by=organiser)
        match.refresh_from_db()
        assert (match.status, match.game_points_a, match.game_points_b) == ("scheduled", 0, 0)

    def test_nothing_to_undo(self, match, organiser):
        with pytest.raises(RecordingError) as refused:
            services.deal_undo_last(match=match, by=organiser)
        assert refused.value.code == "no_deal_to_undo"
        # Deal 1 of a page drawn before it was undone: still "nothing to undo".
        with pytest.raises(RecordingError) as refused:
            services.deal_undo_last(match=match, by=organiser, number=1)
        assert refused.value.code == "no_deal_to_undo"

    @pytest.mark.parametrize("number", [0, -3, 4, 10**20])
    def test_an_undo_number_no_page_could_send_is_out_of_range(self, match, organiser, number):
        # Two deals: 2 is the last, 1 is a page behind, 3 is a page drawn before deal 3 was
        # undone (a double tap); 4 and above, or below 1, no page of this match showed.
        record(match, organiser, ("A", 1), ("B", 2))
        with pytest.raises(RecordingError) as refused:
            services.deal_undo_last(match=match, by=organiser, number=number)
        assert refused.value.code == "undo_number_out_of_range"
        assert refused.value.params == {"number": number, "count": 2}
        assert list(match.deals.values_list("number", flat=True)) == [1, 2]

    def test_an_undo_number_one_past_the_last_is_a_double_tap(self, match, organiser):
        record(match, organiser, ("A", 1), ("B", 2))
        with pytest.raises(RecordingError) as refused:
            services.deal_undo_last(match=match, by=organiser, number=3)
        assert refused.value.code == "undo_not_last"
        assert refused.value.params == {"number": 3, "last_number": 2}


@pytest.mark.django_db
class TestCorrection:
    def test_a_correction_rescores_the_match_and_keeps_the_reason(self, match, organiser):
        record(match, organiser, ("A", 3), ("B", 1), ("A", 2))  # 5:1
        deal_2 = match.deals.get(number=2)
        services.deal_correct(
            deal=deal_2, score=win("A", 1), by=organiser, reason="scorecard misread"
        )
        match.refresh_from_db()
        assert (match.game_points_a, match.game_points_b) == (6, 0)  # 3 + 1 + 2 : 0
        deal_2.refresh_from_db()
        assert (deal_2.winner, deal_2.game_points, deal_2.reason) == ("A", 1, "won")
        latest, before = deal_2.history.all()[:2]
        assert latest.history_change_reason == "scorecard misread"
        assert latest.history_user == organiser
        assert (before.winner, before.game_points) == ("B", 1)
        assert (latest.winner, latest.game_points) == ("A", 1)

    def test_a_correction_can_finish_the_match_on_the_last_deal(self, match, organiser):
        record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 1))  # 10:0
        with SignalLog(match_finished) as finished:
            services.deal_correct(deal=match.deals.get(number=4), score=win("A", 2),
                                  by=organiser, reason="it was a schneider")
        match.refresh_from_db()
        assert (match.status, match.winner, match.game_points_a) == ("finished", "A", 11)
        assert finished.matches == [match.pk]

    def test_a_correction_ending_the_match_before_a_later_deal_is_refused(
        self, match, organiser
    ):
        # A: 3, 3, 3 = 9; B: 1; A: 1 -> 10:1. Making deal 4 A's schneider would give A 11 at
        # deal 4, so deal 5 would come after the end.
        record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("B", 1), ("A", 1))
        deal_4 = match.deals.get(number=4)
        with pytest.raises(InvalidDeal) as refused:
            services.deal_correct(deal=deal_4, score=win("A", 2), by=organiser, reason="typo")
        assert refused.value.code == "match_finished"
        assert refused.value.field == "deals[4]"  # deal 5, counted from 0
        deal_4.refresh_from_db()
        assert (deal_4.winner, deal_4.game_points) == ("B", 1)
        match.refresh_from_db()
        assert (match.game_points_a, match.game_points_b, match.status) == (10, 1, "playing")
        assert deal_4.history.count() == 1  # only its creation

    def test_a_correction_needs_a_reason(self, match, organiser):
        record(match, organiser, ("A", 1))
        with pytest.raises(RecordingError) as refused:
            services.deal_correct(deal=match.deals.get(), score=win("B", 1), by=organiser,
                                  reason="  ")
        assert refused.value.code == "correction_reason_missing"
        assert match.deals.get().winner == "A"


@pytest.mark.django_db
class TestForfeit:
    def test_forfeit_gives_the_winner_the_target(self, match, organiser):
        record(match, organiser, ("A", 3), ("B", 2))
        with SignalLog(match_finished) as finished:
            services.match_forfeit(match=match, winner="B", by=organiser)
        match.refresh_from_db()
        # B gets the game target (11); A keeps the 3 game points A had.
        assert (match.status, match.winner, match.game_points_a, match.game_points_b) == (
            "forfeited", "B", 3, 11
        )
        assert finished.matches == [match.pk]

    def test_no_deal_after_a_forfeit(self, match, organiser):
        services.match_forfeit(match=match, winner="A", by=organiser)
        with pytest.raises(RecordingError) as refused:
            services.deal_record(match=match, score=win("B", 1), by=organiser)
        assert refused.value.code == "match_forfeited"
        assert match.deals.count() == 0
        with pytest.raises(RecordingError) as again:
            services.match_forfeit(match=match, winner="B", by=organiser)
        assert again.value.code == "match_already_finished"

    def test_a_finished_match_cannot_be_forfeited(self, match, organiser):
        record(match, organiser, ("A", 3), ("A", 3), ("A", 3), ("A", 3))
        with pytest.raises(RecordingError) as refused:
            services.match_forfeit(match=match, winner="B", by=organiser)
        assert refused.value.code == "match_already_finished"
        match.refresh_from_db()
        assert (match.status, match.winner, match.game_points_b) == ("finished", "A", 0)


# --------------------------------------------------------------------------------------------
# Two organisers enter deal 1 of the same match at the same moment.
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_organisers_entering_deal_1_at_once_record_it_once(vendor, match, organiser):
    require_vendor(vendor)
    if vendor == "sqlite":
        assert connection.settings_dict["NAME"] != ":memory:"  # threads share the file
    def enter(seat):
        services.deal_record(match=match, score=win(seat, 1), by=organiser, number=1)
        return "recorded"

    outcomes = run_at_once(partial(enter, "A"), partial(enter, "B"))

    assert sorted(outcomes) == ["deal_already_entered", "recorded"]
    assert list(Deal.objects.filter(match=match).values_list("number", flat=True)) == [1]
    match = Match.objects.get(pk=match.pk)
    assert match.game_points_a + match.game_points_b == 1


def test_undo_with_a_stale_number_undoes_nothing(match):
    record(match, None, ("A", 1), ("A", 2))
    services.deal_undo_last(match=match, by=None, number=2)
    with pytest.raises(RecordingError) as error:
        services.deal_undo_last(match=match, by=None, number=2)  # a double tap
    assert error.value.code == "undo_not_last"
    assert list(match.deals.values_list("number", flat=True)) == [1]
