"""Players enter their own match at the table (tableside/table_entry.py): the link, the
modes, the confirm-each pending deal, the signatures, the organiser's approval and renewal.

Scores are worked out by hand: "A3 A3 A2 A3" is 3+3+2+3 = 11 for seat A, the game target.
"""


import pytest

from events.models import EntryMode, Pairing
from scoring import rules
from scoring.errors import RecordingError
from tableside import table_entry
from tableside.errors import TableError
from tableside.models import MatchEvent, MatchTable
from tests.playing import REASONS

pytest_plugins = ["tests.tableside.table_fixtures"]

pytestmark = pytest.mark.django_db


def quick(deal: str) -> rules.DealScore:
    points = int(deal[1])
    return rules.quick_result(deal[0], points, REASONS[points])


def set_mode(tournament, mode):
    tournament.entry_mode = mode
    tournament.save(update_fields=["entry_mode"])


def enter(match, deals: str, seat="A", start=1):
    for number, deal in enumerate(deals.split(), start=start):
        table_entry.table_deal_enter(match=match, seat=seat, score=quick(deal), number=number,
                                     address="10.0.0.7")


def test_a_new_event_lets_the_players_enter_and_sign(tournament):
    assert tournament.entry_mode == EntryMode.PLAYERS_SIGN


def test_the_link_is_a_192_bit_token_found_by_its_sha256_only(match):
    table = table_entry.table_of(match)
    assert len(table.token) == 32  # 24 bytes, URL-safe base64
    assert table.token_hash == table_entry.token_hash(table.token)
    assert len(table.token_hash) == 64 and table.token_hash != table.token
    assert table_entry.table_for_token(table.token) == table
    other_last = "y" if table.token.endswith("x") else "x"
    assert table_entry.table_for_token(table.token[:-1] + other_last) is None
    assert table_entry.entry_path(match) == f"/p/{table.token}/"


def test_two_matches_get_different_links(started):
    first, second = (p.match for p in Pairing.objects.filter(round__tournament=started,
                                                             round__number=1, match__isnull=False))
    assert table_entry.table_of(first).token != table_entry.table_of(second).token


def test_under_organiser_mode_the_link_finds_nothing(started, match):
    token = table_entry.table_of(match).token
    set_mode(started, EntryMode.ORGANISER)
    assert table_entry.table_for_token(token) is None


def test_renewing_the_link_makes_the_old_token_find_nothing(match, organiser):
    old = table_entry.table_of(match).token
    table = table_entry.link_renew(match=match, by=organiser, address="10.0.0.1")
    assert table.token != old
    assert table_entry.table_for_token(old) is None
    assert table_entry.table_for_token(table.token).match_id == match.pk
    assert MatchEvent.objects.get(match=match).kind == "renewed"


def test_players_sign_both_signatures_make_the_result_final(match):
    enter(match, "A3 B2 A3", seat="A")
    enter(match, "A2 A3", seat="B", start=4)  # A: 3+3+2+3 = 11, B: 2
    match.refresh_from_db()
    assert (match.status, match.game_points_a, match.game_points_b) == ("finished", 11, 2)
    table = MatchTable.objects.get(match=match)
    assert table_entry.result_state(match, EntryMode.PLAYERS_SIGN, table) == "awaiting"
    table_entry.result_sign(match=match, seat="A", address="10.0.0.7")
    table.refresh_from_db()
    assert not table.is_final
    table_entry.result_sign(match=match, seat="B", address="10.0.0.8")
    table.refresh_from_db()
    assert table.is_final
    assert table_entry.result_state(match, EntryMode.PLAYERS_SIGN, table) == "final"
    kinds = list(MatchEvent.objects.filter(match=match).values_list("kind", "seat", "number"))
    assert kinds == [("deal", "A", 1), ("deal", "A", 2), ("deal", "A", 3), ("deal", "B", 4),
                     ("deal", "B", 5), ("signed", "A", None), ("signed", "B", None)]


def test_after_both_signed_the_players_change_nothing(match):
    enter(match, "A3 A3 A2 A3")
    table_entry.result_sign(match=match, seat="A")
    table_entry.result_sign(match=match, seat="B")
    with pytest.raises(TableError) as undo:
        table_entry.table_deal_undo(match=match, seat="A", number=4)
    with pytest.raises(TableError) as dispute:
        table_entry.result_dispute(match=match, seat="B", text="wrong")
    assert (undo.value.code, dispute.value.code) == ("result_final", "result_final")
    assert match.deals.count() == 4


def test_signing_before_the_end_names_the_score_and_the_target(match):
    enter(match, "A3 B2")
    with pytest.raises(TableError) as error:
        table_entry.result_sign(match=match, seat="A")
    assert (error.value.code, error.value.params) == (
        "sign_before_end", {"points_a": 3, "points_b": 2, "target": 11})
    assert not MatchTable.objects.get(match=match).signed_a


def test_signing_twice_is_refused(match):
    enter(match, "A3 A3 A2 A3")
    table_entry.result_sign(match=match, seat="A")
    with pytest.raises(TableError) as error:
        table_entry.result_sign(match=match, seat="A")
    assert (error.value.code, error.value.params) == ("sign_twice",
                                                      {"points_a": 11, "points_b": 0})
    assert MatchEvent.objects.filter(kind="signed").count() == 1


def test_a_dispute_needs_words_and_the_organiser_approves_it(match, organiser):
    enter(match, "A3 A3 A2 A3")
    with pytest.raises(TableError) as empty:
        table_entry.result_dispute(match=match, seat="B", text="  ")
    assert empty.value.code == "dispute_text_missing"
    table_entry.result_dispute(match=match, seat="B", text="deal 3 was mine")
    match.refresh_from_db()
    table = MatchTable.objects.get(match=match)
    assert table_entry.result_state(match, EntryMode.PLAYERS_SIGN, table) == "disputed"
    table_entry.result_approve(match=match, by=organiser)
    table.refresh_from_db()
    assert table.is_final
    with pytest.raises(TableError) as again:
        table_entry.result_approve(match=match, by=organiser)
    assert again.value.code == "result_final"


def test_after_one_signature_the_players_neither_undo_nor_enter(match):
    """A player's undo once the other has signed would clear that signature: refused, as is
    any deal; only the organiser changes the result now."""
    enter(match, "A3 A3 A2 A3")
    table_entry.result_sign(match=match, seat="A")
    with pytest.raises(TableError) as undo:
        table_entry.table_deal_undo(match=match, seat="B", number=4)
    with pytest.raises(TableError) as deal:
        table_entry.table_deal_enter(match=match, seat="B", score=quick("B3"), number=5)
    assert (undo.value.code, deal.value.code) == ("result_signed", "result_signed")
    table = MatchTable.objects.get(match=match)
    assert table.signed_a is not None and match.deals.count() == 4
    assert not MatchEvent.objects.filter(kind="undo").exists()


def test_trusted_and_confirm_each_need_no_signatures(started, match):
    set_mode(started, EntryMode.PLAYERS_TRUSTED)
    enter(match, "A3 A3 A2 A3")
    with pytest.raises(TableError) as error:
        table_entry.result_sign(match=match, seat="A")
    assert error.value.code == "sign_not_needed"
    match.refresh_from_db()
    table = MatchTable.objects.get(match=match)
    assert table_entry.result_state(match, EntryMode.PLAYERS_TRUSTED, table) == ""


@pytest.mark.parametrize("mode", [EntryMode.PLAYERS_TRUSTED, EntryMode.PLAYERS_CONFIRM_EACH])
def test_a_result_nobody_signs_cannot_be_disputed_from_the_link(started, match, mode):
    enter(match, "A3 A3 A2 A3")  # 11:0 before the mode changes: the match is over
    set_mode(started, mode)
    with pytest.raises(TableError) as error:
        table_entry.result_dispute(match=match, seat="B", text="грешен резултат")
    assert error.value.code == "dispute_not_offered"
    table = MatchTable.objects.get(match=match)
    assert (table.disputed_by, table.dispute) == ("", "")


def test_organiser_mode_refuses_players(started, match):
    set_mode(started, EntryMode.ORGANISER)
    with pytest.raises(TableError) as error:
        enter(match, "A3")
    assert error.value.code == "players_may_not_enter"
    assert match.deals.count() == 0


def test_confirm_each_a_deal_waits_for_the_opponent(started, match):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    assert table_entry.table_deal_enter(match=match, seat="A", score=quick("A2"),
                                        number=1) is None
    assert match.deals.count() == 0
    table = MatchTable.objects.get(match=match)
    assert table.pending["number"] == 1 and table.pending["seat"] == "A"
    with pytest.raises(TableError) as next_deal:
        table_entry.table_deal_enter(match=match, seat="B", score=quick("B1"), number=2)
    assert (next_deal.value.code, next_deal.value.params) == ("deal_pending", {"number": 1})
    with pytest.raises(TableError) as own:
        table_entry.table_deal_confirm(match=match, seat="A", number=1)
    assert (own.value.code, own.value.params) == ("confirm_own_deal", {"number": 1})
    deal = table_entry.table_deal_confirm(match=match, seat="B", number=1)
    assert (deal.number, deal.winner, deal.game_points) == (1, "A", 2)
    match.refresh_from_db()
    assert match.game_points_a == 2
    table.refresh_from_db()
    assert table.pending is None
    with pytest.raises(TableError) as none:
        table_entry.table_deal_confirm(match=match, seat="B", number=1)
    assert none.value.code == "no_pending_deal"


def test_confirm_each_a_pending_deal_can_be_dropped(started, match):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    table_entry.table_deal_enter(match=match, seat="A", score=quick("A3"), number=1)
    table_entry.table_deal_reject(match=match, seat="B", number=1)
    assert MatchTable.objects.get(match=match).pending is None
    assert match.deals.count() == 0


def test_confirm_each_refuses_a_stale_deal_number(started, match):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    table_entry.table_deal_enter(match=match, seat="A", score=quick("A3"), number=1)
    table_entry.table_deal_confirm(match=match, seat="B", number=1)
    with pytest.raises(RecordingError) as error:
        table_entry.table_deal_enter(match=match, seat="B", score=quick("B1"), number=1)
    assert (error.value.code, error.value.params["next_number"]) == ("deal_already_entered", 2)


def test_an_organisers_undo_of_a_signed_match_clears_the_signatures(match, organiser):
    from scoring import services as scoring_services

    enter(match, "A3 A3 A2 A3")
    table_entry.result_sign(match=match, seat="A")
    table_entry.result_sign(match=match, seat="B")
    scoring_services.deal_undo_last(match=match, by=organiser, number=4)
    table = MatchTable.objects.get(match=match)
    assert not table.is_final


def state(match, mode=EntryMode.PLAYERS_SIGN):
    match.refresh_from_db()
    return table_entry.match_state(match, mode, MatchTable.objects.filter(match=match).first())


def test_the_control_rooms_states_step_by_step(started, match, organiser):
    assert state(match) == "not_started"  # no table, no deal
    enter(match, "A3")
    assert state(match) == "playing"
    enter(match, "A3 A2 A3", start=2)  # 11:0
    assert state(match) == "awaiting"
    table_entry.result_dispute(match=match, seat="B", text="deal 2 was mine")
    assert state(match) == "disputed"
    table_entry.result_approve(match=match, by=organiser)
    assert state(match) == "final"


def test_a_pending_deal_is_playing_and_a_result_needing_no_signature_is_final(started, match):
    set_mode(started, EntryMode.PLAYERS_CONFIRM_EACH)
    table_entry.table_deal_enter(match=match, seat="A", score=quick("A3"), number=1)
    assert state(match, EntryMode.PLAYERS_CONFIRM_EACH) == "playing"  # no deal recorded yet
    table_entry.table_deal_confirm(match=match, seat="B", number=1)
    set_mode(started, EntryMode.PLAYERS_TRUSTED)
    enter(match, "A3 A2 A3", start=2)
    assert state(match, EntryMode.PLAYERS_TRUSTED) == "final"


def test_unsettled_matches_are_the_unsigned_and_the_disputed(started, match, organiser):
    other = Pairing.objects.get(round__tournament=started, round__number=1, table=2).match
    enter(match, "A3 A3 A2 A3")
    enter(other, "B3 B3 B2 B3")

    def unsettled():
        return set(table_entry.unsettled_match_ids(started).values_list("pk", flat=True))

    assert unsettled() == {match.pk, other.pk}
    table_entry.result_sign(match=other, seat="A")
    table_entry.result_sign(match=other, seat="B")
    table_entry.result_dispute(match=match, seat="A", text="deal 1 was 2 points")
    assert unsettled() == {match.pk}
    table_entry.result_approve(match=match, by=organiser)
    assert unsettled() == set()


def test_approving_a_result_nobody_waits_for_is_refused(started, match, organiser):
    set_mode(started, EntryMode.PLAYERS_TRUSTED)
    enter(match, "A3 A3 A2 A3")
    with pytest.raises(TableError) as error:
        table_entry.result_approve(match=match, by=organiser)
    assert error.value.code == "approve_not_needed"
    assert not MatchEvent.objects.filter(kind="approved").exists()


def test_no_link_is_renewed_where_only_the_organisers_enter(started, match, organiser):
    token = table_entry.table_of(match).token
    set_mode(started, EntryMode.ORGANISER)
    with pytest.raises(TableError) as error:
        table_entry.link_renew(match=match, by=organiser)
    assert error.value.code == "players_may_not_enter"
    assert MatchTable.objects.get(match=match).token == token


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_entering_the_same_deal_store_one(match):
    from tests.concurrency import run_at_once
    from tests.services import require_postgresql

    require_postgresql()
    table_entry.table_of(match)

    def phone(seat, deal):
        return lambda: table_entry.table_deal_enter(
            match=match, seat=seat, score=quick(deal), number=1).number

    outcomes = run_at_once(phone("A", "A2"), phone("B", "B1"))
    assert sorted(map(str, outcomes)) == ["1", "deal_already_entered"]
    assert match.deals.count() == 1
    assert MatchEvent.objects.filter(kind="deal").count() == 1


def test_entry_links_prints_one_line_per_open_match(settings, started, match):
    import io

    from django.core.management import call_command

    settings.SITE_URL = "https://66.example.bg/"
    enter(match, "A3 A3 A2 A3")  # table 1 is over: no line
    out = io.StringIO()
    call_command("entry_links", started.pk, "--round", "1", stdout=out)
    other = Pairing.objects.get(round__tournament=started, round__number=1, table=2).match
    token = MatchTable.objects.get(match=other).token
    assert out.getvalue().splitlines() == [
        f"1\t2\t{other.player_a.name} – {other.player_b.name}\thttps://66.example.bg/p/{token}/"
    ]
    everything = io.StringIO()
    call_command("entry_links", started.pk, stdout=everything)
    assert len(everything.getvalue().splitlines()) == 9  # 10 matches of 5 players, 1 over
