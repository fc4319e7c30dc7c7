"""Properties of the rules that hold for every deal, every record and every match.

The strategies build *valid* deal records directly (tricks first, then card points inside the
trick capacity of docs/rules.md §4, then marriages by handing out the four real marriages), so
``assume`` is needed only once. Random house rules come from the options of docs/rules.md §7.
"""

import dataclasses
import functools

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scoring.rules import (
    ERROR_CODES,
    REASONS,
    DealRecord,
    DealScore,
    HouseRules,
    InvalidDeal,
    dealer_of_each_deal,
    describe_field,
    quick_result,
    running_scores,
    score_deal,
    score_match,
    validate_deal,
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# docs/rules.md §4, by hand (see test_rules_deal.py for the derivation).
MIN_CP = (0, 0, 0, 4, 8, 14, 20, 28, 36, 56, 76, 98, 120)
MAX_CP = (0, 22, 44, 64, 84, 92, 100, 106, 112, 116, 120, 120, 120)
DEAL_CHECK_CODES = ERROR_CODES[:9]
# Fewest marriages per sum (20 plain, 40 trump), by hand: 60 = 40+20, 80 = 40+20+20, ...
MARRIAGES_FOR = {0: 0, 20: 1, 40: 1, 60: 2, 80: 3, 100: 4}
# Tricks the closer's opponent can hold at the close (12 cards in the stock, 2 drawn per trick,
# the closer on lead): > 2 cards left -> at most 4 tricks played -> 3; any card -> 5 -> 4.
MAX_AT_CLOSE = {"stock_over_two": 3, "stock_not_empty": 4}

seats = st.sampled_from(["A", "B"])

house_rules = st.builds(
    HouseRules,
    game_target=st.one_of(st.sampled_from([11, 7, 10]), st.integers(1, 99)),
    first_trick_marriage=st.sampled_from(["forbidden", "pending"]),
    last_trick=st.sampled_from(["bonus", "none", "wins_deal"]),
    draw_carry_over=st.booleans(),
    false_claim_points=st.sampled_from([3, 2]),
    failed_close=st.sampled_from(["flat", "tricks_at_close", "tricks_at_end"]),
    opponent_out_after_close_points=st.sampled_from([3, 2]),
    schneider_below=st.sampled_from([33, 31]),
    capot_by=st.sampled_from(["tricks", "points"]),
    next_dealer=st.sampled_from(["winner", "loser", "alternate"]),
    close_when=st.sampled_from(["stock_over_two", "stock_not_empty"]),
)


def flip(seat):
    return {"A": "B", "B": "A"}.get(seat, seat)


def pair(a, b):
    return {"A": a, "B": b}


def lead_count(rules, end, last_trick_by, tricks, seat):
    """Leads `seat` had to declare marriages on, by hand (docs/rules.md §3, §4 row 9): one after
    each won trick, plus the deal's first lead under "pending", less the lead the 12th trick
    would give when the stock ran out (nobody leads after it)."""
    first_lead = 1 if rules.first_trick_marriage == "pending" else 0
    after_last = 1 if end == "exhausted" and last_trick_by == seat else 0
    return tricks[seat] + first_lead - after_last


@st.composite
def valid_deals(draw, ends=("claim", "exhausted", "closed_played_out")):
    """(rules, record) with a record that is valid under those rules."""
    rules = draw(house_rules)
    end = draw(st.sampled_from(ends))
    claim_by = closed_by = last_trick_by = None
    if end == "claim":
        claim_by = draw(seats)
        opponent = flip(claim_by)
        # With all 12 tricks taken the deal was played out: a claim leaves at least one.
        claimant_tricks = draw(st.integers(1, 11))
        opponent_tricks = draw(st.integers(0, 11 - claimant_tricks))
        tricks = {claim_by: claimant_tricks, opponent: opponent_tricks}
        claimant_cp = draw(st.integers(MIN_CP[claimant_tricks], MAX_CP[claimant_tricks]))
        # MIN[b] <= 120 - MAX[a] whenever a + b <= 12, so this range is never empty.
        opponent_cp = draw(
            st.integers(MIN_CP[opponent_tricks], min(MAX_CP[opponent_tricks], 120 - claimant_cp))
        )
        card_points = {claim_by: claimant_cp, opponent: opponent_cp}
        closed_by = draw(st.one_of(st.none(), seats))
    else:
        a_tricks = draw(st.integers(0, 12))
        tricks = pair(a_tricks, 12 - a_tricks)
        # MIN[k] + MAX[12 - k] == 120, so B's 120 - A always fits B's capacity.
        a_cp = draw(st.integers(MIN_CP[a_tricks], MAX_CP[a_tricks]))
        card_points = pair(a_cp, 120 - a_cp)
        with_tricks = [seat for seat in "AB" if tricks[seat] > 0]
        if end == "exhausted":
            last_trick_by = draw(st.sampled_from(with_tricks))
        else:
            closed_by = draw(seats)
            last_trick_by = draw(st.one_of(st.none(), st.sampled_from(with_tricks)))
    opponent_tricks_at_close = None
    if closed_by is not None:
        # A closer without a trick closed before the first trick: the opponent had none then.
        most_at_close = min(MAX_AT_CLOSE[rules.close_when], tricks[flip(closed_by)])
        at_close = st.integers(0, most_at_close if tricks[closed_by] else 0)
        if rules.failed_close == "tricks_at_close":
            opponent_tricks_at_close = draw(at_close)
        else:
            opponent_tricks_at_close = draw(st.one_of(st.none(), at_close))
    # The pack holds three marriages of 20 and one of 40; each goes to A, B or nobody, as long
    # as its owner has a lead for it: one per won trick, plus the first lead under "pending",
    # but none after the 12th trick of a deal where the stock ran out.
    owners = draw(st.lists(st.sampled_from(["A", "B", None]), min_size=4, max_size=4))
    marriage_points = pair(0, 0)
    declared = pair(0, 0)
    leads = pair(*(lead_count(rules, end, last_trick_by, tricks, seat) for seat in "AB"))
    for owner, value in zip(owners, (40, 20, 20, 20), strict=True):
        if owner is None or declared[owner] >= leads[owner]:
            continue
        marriage_points[owner] += value
        declared[owner] += 1
    record = DealRecord(
        end=end,
        card_points=card_points,
        marriage_points=marriage_points,
        tricks=tricks,
        claim_by=claim_by,
        closed_by=closed_by,
        last_trick_by=last_trick_by,
        opponent_tricks_at_close=opponent_tricks_at_close,
    )
    return rules, record


def swap_seats(record):
    def swapped(values):
        return {flip(key): value for key, value in values.items()}

    return dataclasses.replace(
        record,
        card_points=swapped(record.card_points),
        marriage_points=swapped(record.marriage_points),
        tricks=swapped(record.tricks),
        claim_by=flip(record.claim_by),
        closed_by=flip(record.closed_by),
        last_trick_by=flip(record.last_trick_by),
    )


def assert_one_winner_or_draw(score, record, rules):
    if score.winner is None:
        assert (score.game_points, score.reason) == (0, "draw")
        assert record.end == "exhausted" and rules.last_trick != "wins_deal"
        assert score.totals["A"] == score.totals["B"]
    else:
        assert score.winner in ("A", "B")
        assert 1 <= score.game_points <= 3
        assert score.reason in REASONS and score.reason != "draw"
    assert set(score.totals) == {"A", "B"}


@SETTINGS
@given(valid_deals())
def test_a_valid_record_has_one_winner_or_is_a_draw(rules_and_record):
    rules, record = rules_and_record
    validate_deal(record, rules)
    assert_one_winner_or_draw(score_deal(record, rules), record, rules)


@SETTINGS
@given(valid_deals())
def test_a_scored_deal_passes_the_fast_path_check(rules_and_record):
    rules, record = rules_and_record
    score = score_deal(record, rules)
    quick = quick_result(score.winner, score.game_points, score.reason, rules)
    assert (quick.winner, quick.game_points, quick.reason, quick.totals) == (
        score.winner,
        score.game_points,
        score.reason,
        None,
    )


@SETTINGS
@given(valid_deals())
def test_swapping_seats_swaps_the_winner_and_keeps_the_game_points(rules_and_record):
    rules, record = rules_and_record
    score = score_deal(record, rules)
    mirrored = score_deal(swap_seats(record), rules)
    assert mirrored.winner == flip(score.winner)
    assert (mirrored.game_points, mirrored.reason) == (score.game_points, score.reason)
    assert mirrored.totals == {flip(seat): total for seat, total in score.totals.items()}


@SETTINGS
@given(valid_deals(ends=("claim",)), st.data())
def test_more_card_points_for_the_loser_never_raise_the_winners_game_points(rules_and_record, data):
    rules, record = rules_and_record
    before = score_deal(record, rules)
    loser = flip(before.winner)
    cp, tricks = record.card_points, record.tricks
    room = min(MAX_CP[tricks[loser]] - cp[loser], 120 - cp["A"] - cp["B"])
    assume(room > 0)  # a trickless loser, or a loser at capacity, cannot gain card points
    extra = data.draw(st.integers(1, room), label="extra card points")
    richer = dataclasses.replace(record, card_points={**cp, loser: cp[loser] + extra})
    after = score_deal(richer, rules)
    winners_points_after = after.game_points if after.winner == before.winner else 0
    event(f"{before.reason} -> {after.reason}")
    assert winners_points_after <= before.game_points


# --- random, mostly invalid, input -----------------------------------------------------------

junk = st.sampled_from([None, "5", 2.0, True, [], -1])
numbers = st.one_of(st.integers(-2, 130), junk)
per_seat = st.one_of(
    st.fixed_dictionaries({"A": numbers, "B": numbers}),
    st.fixed_dictionaries({"A": st.integers(0, 12), "B": st.integers(0, 12)}),
    st.sampled_from([{"A": 1}, {"A": 1, "B": 1, "C": 0}, [1, 1], None]),
)
marriage_sums = st.one_of(
    st.fixed_dictionaries(
        {"A": st.sampled_from([0, 20, 40, 60, 80, 100]), "B": st.sampled_from([0, 20, 40])}
    ),
    per_seat,
)
maybe_seat = st.sampled_from(["A", "B", None, None, "C"])

random_records = st.builds(
    DealRecord,
    end=st.sampled_from(["claim", "exhausted", "closed_played_out", "draw"]),
    card_points=per_seat,
    marriage_points=marriage_sums,
    tricks=per_seat,
    claim_by=maybe_seat,
    closed_by=maybe_seat,
    last_trick_by=maybe_seat,
    opponent_tricks_at_close=st.one_of(st.none(), st.integers(-1, 6), junk),
)


@st.composite
def perturbed_deals(draw):
    """A valid (rules, record) with one or two values nudged: reaches every check of §4."""
    rules, record = draw(valid_deals())
    for _ in range(draw(st.integers(1, 2))):
        name = draw(
            st.sampled_from(
                ["card_points", "marriage_points", "tricks", "trickless", "seat", "end", "at_close"]
            )
        )
        if name in ("card_points", "marriage_points", "tricks"):
            seat = draw(seats)
            step = {"card_points": [-5, -1, 1, 5, 30], "tricks": [-1, 1, 3]}.get(
                name, [-20, 10, 20, 40]
            )
            values = dict(getattr(record, name))
            values[seat] += draw(st.sampled_from(step))
            record = dataclasses.replace(record, **{name: values})
        elif name == "trickless":  # a player loses all tricks and card points, keeps marriages
            seat = draw(seats)
            record = dataclasses.replace(
                record,
                tricks={**record.tricks, seat: 0},
                card_points={**record.card_points, seat: 0},
            )
        elif name == "seat":
            field = draw(st.sampled_from(["claim_by", "closed_by", "last_trick_by"]))
            record = dataclasses.replace(record, **{field: draw(st.sampled_from(["A", "B", None]))})
        elif name == "end":
            end = draw(st.sampled_from(["claim", "exhausted", "closed_played_out"]))
            record = dataclasses.replace(record, end=end)
        else:
            at_close = draw(st.one_of(st.none(), st.integers(0, 5)))
            record = dataclasses.replace(record, opponent_tricks_at_close=at_close)
    return rules, record


def assert_names_its_field(error):
    assert error.code in ERROR_CODES
    assert str(error).strip()
    assert describe_field(error.field).lower() in str(error).lower()


@SETTINGS
@given(
    st.one_of(st.tuples(house_rules, random_records), perturbed_deals(), valid_deals()),
)
def test_every_invalid_deal_names_its_field_and_a_known_code(rules_and_record):
    rules, record = rules_and_record
    try:
        score = score_deal(record, rules)
    except InvalidDeal as error:
        event(error.code)
        assert error.code in DEAL_CHECK_CODES
        assert error.field is not None
        assert_names_its_field(error)
    else:
        event("valid")
        assert_one_winner_or_draw(score, record, rules)


@SETTINGS
@given(
    house_rules,
    st.sampled_from(["A", "B", None, "C"]),
    st.one_of(st.integers(-1, 4), junk),
    st.one_of(st.sampled_from(REASONS), st.sampled_from(["win", "", None])),
)
def test_every_quick_result_error_names_its_field(rules, winner, game_points, reason):
    try:
        score = quick_result(winner, game_points, reason, rules)
    except InvalidDeal as error:
        assert error.code in ("inconsistent_record", "points_do_not_match_reason")
        assert error.field in ("winner", "game_points", "reason")
        assert_names_its_field(error)
    else:
        assert score.totals is None
        assert (score.winner is None) == (score.reason == "draw") == (score.game_points == 0)


# --- matches ------------------------------------------------------------------------------------


@st.composite
def matches(draw):
    """(rules, first dealer, deals) with every deal possible under the rules."""
    rules = draw(house_rules)
    reasons = [
        reason
        for reason in REASONS
        if not (reason == "draw" and rules.last_trick == "wins_deal")
        and not (reason == "last_trick" and rules.last_trick != "wins_deal")
    ]
    game_points_for = {
        "won": (1,),
        "schneider": (2,),
        "capot": (3,),
        "false_claim": (rules.false_claim_points,),
        "closer_failed": (3,) if rules.failed_close == "flat" else (2, 3),
        "opponent_out_after_close": (rules.opponent_out_after_close_points,),
        "last_trick": (1, 2, 3),
        "draw": (0,),
    }
    deals = deal_lists(tuple((reason, game_points_for[reason]) for reason in reasons))
    return rules, draw(seats), draw(deals)


@functools.cache
def deal_lists(game_points_of_reasons):
    """Up to 30 deal scores, each of a reason of `game_points_of_reasons` ((reason, its possible
    game points), ...) with one of its game points. Built once for each set of reasons: Hypothesis
    checks every new strategy, which took far longer than the properties themselves."""
    game_points_for = dict(game_points_of_reasons)
    deal = st.sampled_from([reason for reason, _ in game_points_of_reasons]).flatmap(
        lambda reason: deal_score(reason, game_points_for[reason])
    )
    return st.lists(deal, max_size=30)


@functools.cache
def deal_score(reason, game_points):
    return st.builds(
        DealScore,
        winner=st.none() if reason == "draw" else seats,
        game_points=st.sampled_from(game_points),
        totals=st.none(),
        reason=st.just(reason),
    )


@SETTINGS
@given(matches())
def test_a_match_ends_exactly_when_a_player_reaches_the_target(rules_target_deals):
    rules, first_dealer, deals = rules_target_deals
    target = rules.game_target
    draws = 0
    for count in range(len(deals) + 1):
        if count and deals[count - 1].winner is None:
            draws += 1
        score = score_match(deals[:count], rules, first_dealer)
        leader_points = max(score.game_points.values())
        # Both under the target before the last deal; one deal adds at most 3 game points,
        # plus one per carried draw.
        assert leader_points <= target + 2 + (draws if rules.draw_carry_over else 0)
        assert score.finished == (leader_points >= target)
        if score.finished:
            assert score.game_points[score.winner] == leader_points
            assert min(score.game_points.values()) < target
            if count < len(deals):
                with pytest.raises(InvalidDeal) as caught:
                    score_match(deals[: count + 1], rules, first_dealer)
                assert (caught.value.code, caught.value.field) == (
                    "match_finished",
                    f"deals[{count}]",
                )
                assert_names_its_field(caught.value)
            break
        assert score.winner is None
        decided = sum(deal.game_points for deal in deals[:count])
        assert sum(score.game_points.values()) <= decided + draws
        if not rules.draw_carry_over:
            assert sum(score.game_points.values()) == decided


@SETTINGS
@given(matches())
def test_running_scores_are_the_score_after_each_deal(rules_target_deals):
    rules, first_dealer, deals = rules_target_deals
    for count in range(len(deals) + 1):
        try:
            states = running_scores(deals[:count], rules, first_dealer)
        except InvalidDeal:
            break  # a deal after the end: score_match refuses it too (tested above)
        assert states == [score_match(deals[: i + 1], rules, first_dealer)
                          for i in range(count)]
        # Each deal is dealt by whoever was to deal next after the deal before it.
        expected_dealers = [first_dealer, *(state.next_dealer for state in states[:-1])]
        assert dealer_of_each_deal(deals[:count], rules, first_dealer) == (
            expected_dealers[:count]
        )


# --- marriages and leads (docs/rules.md §4 marriages_exceed_leads) ------------------------------


@SETTINGS
@given(valid_deals())
def test_a_valid_record_never_has_more_marriages_than_leads(rules_and_record):
    rules, record = rules_and_record
    validate_deal(record, rules)
    for seat in "AB":
        marriages = MARRIAGES_FOR[record.marriage_points[seat]]
        assert marriages <= lead_count(
            rules, record.end, record.last_trick_by, record.tricks, seat
        )


@st.composite
def one_marriage_too_many(draw):
    """(rules, record, seat): a claim in which `seat` (not the claimant) holds marriages for one
    lead more than its won tricks give, everything else valid."""
    rules = draw(house_rules)
    first_lead = 1 if rules.first_trick_marriage == "pending" else 0
    marriage_points = draw(st.sampled_from([60, 80, 100]))
    tricks = MARRIAGES_FOR[marriage_points] - 1 - first_lead
    # Without a trick under "forbidden" the earlier row marriage_points_without_trick speaks.
    assume(tricks >= 1 or first_lead)
    claimant_tricks = draw(st.integers(1, 11 - tricks))
    claimant_cp = draw(st.integers(MIN_CP[claimant_tricks], MAX_CP[claimant_tricks]))
    cp = draw(st.integers(MIN_CP[tricks], min(MAX_CP[tricks], 120 - claimant_cp)))
    record = DealRecord(
        end="claim", card_points=pair(claimant_cp, cp), marriage_points=pair(0, marriage_points),
        tricks=pair(claimant_tricks, tricks), claim_by="A",
    )
    if draw(st.booleans()):
        return rules, swap_seats(record), "A"
    return rules, record, "B"


@SETTINGS
@given(one_marriage_too_many())
def test_one_marriage_more_than_the_leads_is_refused(rules_record_seat):
    rules, record, seat = rules_record_seat
    with pytest.raises(InvalidDeal) as caught:
        validate_deal(record, rules)
    assert (caught.value.code, caught.value.field) == (
        "marriages_exceed_leads", f"marriage_points.{seat}"
    )
    assert_names_its_field(caught.value)


# --- the last trick gives no lead; a closer without a trick closed before the first one --------


@st.composite
def marriages_won_by_the_last_trick_alone(draw):
    """(rules, record, seat): a deal where the stock ran out and `seat` won only the last trick
    (11 + 1 tricks, 120 + 0 card points: the two nines can make that trick) yet holds one
    marriage more than the deal's first lead gives: 20 or 40 by default, 60 to 100 under
    "pending"."""
    rules = draw(house_rules)
    pending = rules.first_trick_marriage == "pending"
    points = draw(st.sampled_from([60, 80] if pending else [20, 40]))
    record = DealRecord(
        end="exhausted", card_points=pair(120, 0), marriage_points=pair(0, points),
        tricks=pair(11, 1), last_trick_by="B",
    )
    if draw(st.booleans()):
        return rules, swap_seats(record), "A"
    return rules, record, "B"


@SETTINGS
@given(marriages_won_by_the_last_trick_alone())
def test_a_marriage_won_by_the_last_trick_alone_is_refused(rules_record_seat):
    rules, record, seat = rules_record_seat
    with pytest.raises(InvalidDeal) as caught:
        validate_deal(record, rules)
    assert (caught.value.code, caught.value.field) == (
        "marriages_exceed_leads", f"marriage_points.{seat}"
    )
    assert_names_its_field(caught.value)


@SETTINGS
@given(valid_deals(ends=("exhausted",)))
def test_a_marriage_after_any_other_won_trick_than_the_last_stays_valid(rules_and_record):
    # The same marriages with the last trick given to the other player (who has a trick) are
    # still possible as long as each owner keeps a lead per marriage.
    rules, record = rules_and_record
    other = flip(record.last_trick_by)
    assume(record.tricks[other] > 0)
    moved = dataclasses.replace(record, last_trick_by=other)
    fits = all(
        MARRIAGES_FOR[moved.marriage_points[seat]]
        <= lead_count(rules, "exhausted", other, moved.tricks, seat)
        for seat in "AB"
    )
    if fits:
        validate_deal(moved, rules)
    else:
        with pytest.raises(InvalidDeal) as caught:
            validate_deal(moved, rules)
        assert (caught.value.code, caught.value.field) == (
            "marriages_exceed_leads", f"marriage_points.{other}"
        )


@st.composite
def trickless_closers(draw):
    """(rules, record, closer): the closer took no trick, the opponent took some and is recorded
    with 1 to the most tricks at the close (3, or 4 under "stock_not_empty", and no more than
    their tricks at the end): a failed close played out (0 + 12 tricks), or the opponent going
    out after the close."""
    rules = draw(house_rules)
    if draw(st.booleans()):
        record = DealRecord(
            end="closed_played_out", card_points=pair(0, 120), marriage_points=pair(0, 0),
            tricks=pair(0, 12), closed_by="A",
        )
    else:
        tricks = draw(st.integers(1, 11))
        cp = draw(st.integers(MIN_CP[tricks], MAX_CP[tricks]))
        record = DealRecord(
            end="claim", card_points=pair(0, cp), marriage_points=pair(0, 0),
            tricks=pair(0, tricks), claim_by="B", closed_by="A",
        )
    most = min(MAX_AT_CLOSE[rules.close_when], record.tricks["B"])
    record = dataclasses.replace(
        record, opponent_tricks_at_close=draw(st.integers(1, most))
    )
    if draw(st.booleans()):
        return rules, swap_seats(record), "B"
    return rules, record, "A"


@SETTINGS
@given(trickless_closers())
def test_a_closer_without_a_trick_leaves_the_opponent_none_at_the_close(rules_record_closer):
    rules, record, closer = rules_record_closer
    with pytest.raises(InvalidDeal) as caught:
        validate_deal(record, rules)
    assert (caught.value.code, caught.value.field, caught.value.case) == (
        "inconsistent_record", "opponent_tricks_at_close", "closer_without_trick"
    )
    assert caught.value.params == {
        "opponent_tricks_at_close": record.opponent_tricks_at_close, "seat": closer,
    }
    assert_names_its_field(caught.value)
    # The one value consistent with that close: none.
    validate_deal(dataclasses.replace(record, opponent_tricks_at_close=0), rules)
