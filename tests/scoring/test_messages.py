"""The organiser's sentences for rule errors (scoring/messages.py), in Bulgarian and English:
every code has one, and the new checks name the numbers of the record in both languages."""

import pytest
from django.utils import translation

from core.messages import user_message
from scoring import messages
from scoring.rules import ERROR_CODES, DealRecord, HouseRules, InvalidDeal, score_deal


def record(end="claim", cp=(66, 30), mp=(0, 0), tricks=(6, 3), **seat_fields):
    return DealRecord(
        end=end, card_points={"A": cp[0], "B": cp[1]}, marriage_points={"A": mp[0], "B": mp[1]},
        tricks={"A": tricks[0], "B": tricks[1]}, **seat_fields,
    )


def error_of(deal, rules=None):
    with pytest.raises(InvalidDeal) as caught:
        score_deal(deal, rules)
    return caught.value


def in_language(language, error):
    with translation.override(language):
        return user_message(error)


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_code_has_a_bulgarian_sentence(code):
    assert code in messages.RULE_MESSAGES
    with translation.override("bg"):
        text = str(messages.RULE_MESSAGES[code])
    with translation.override("en"):
        assert text != str(messages.RULE_MESSAGES[code])


@pytest.mark.parametrize("key", list(messages.RULE_SENTENCES))
def test_every_numbered_sentence_is_translated(key):
    with translation.override("bg"):
        text = str(messages.RULE_SENTENCES[key])
    with translation.override("en"):
        assert text != str(messages.RULE_SENTENCES[key])


def test_sixty_marriage_points_with_one_trick_named_in_both_languages():
    # 60 = 40 + 20: two marriages, two leads needed; B won one trick.
    error = error_of(record(cp=(66, 10), mp=(0, 60), tricks=(6, 1), claim_by="A"))
    assert error.code == "marriages_exceed_leads"
    assert in_language("bg", error) == (
        "Точки от обявявания (място B): 60 точки от обявявания са поне 2 обявявания, а всяко "
        "се обявява на отделен ход след взета ръка; играч B има взети ръце: 1, така че "
        "ходовете, на които е можел да обяви, са най-много 1."
    )
    english = in_language("en", error)
    assert "(60)" in english and "at least 2 marriages" in english and "only 1 trick" in english


def test_a_claim_after_twelve_tricks_named_in_both_languages():
    error = error_of(record(cp=(20, 20), tricks=(6, 6), claim_by="A"))
    assert (error.code, error.field) == ("played_out_not_120", "end")
    bulgarian = in_language("bg", error)
    assert bulgarian.startswith("Как завърши раздаването: взети са всички 12 ръце (6 + 6)")
    assert "(въведени: 40)" in bulgarian
    assert "(6 + 6)" in in_language("en", error) and "(entered: 40)" in in_language("en", error)


def test_played_out_sums_named_in_bulgarian():
    short = error_of(record("exhausted", (60, 59), tricks=(6, 6), last_trick_by="A"))
    assert "общо 119" in in_language("bg", short)
    eleven = error_of(record("exhausted", (60, 60), tricks=(6, 5), last_trick_by="A"))
    assert "общо 11" in in_language("bg", eleven)


@pytest.mark.parametrize(("close_when", "at_close", "most", "played"),
                         [("stock_over_two", 4, 3, 4), ("stock_not_empty", 5, 4, 5)])
def test_tricks_at_close_over_the_limit_named_in_both_languages(close_when, at_close, most,
                                                                 played):
    deal = record("closed_played_out", (60, 60), tricks=(6, 6), closed_by="A",
                  opponent_tricks_at_close=at_close)
    error = error_of(deal, HouseRules(close_when=close_when))
    assert f"{at_close} е повече от {most}" in in_language("bg", error)
    assert f"най-много {played} ръце" in in_language("bg", error)
    assert f"cannot exceed {most}" in in_language("en", error)


def test_a_message_without_numbers_keeps_the_general_sentence():
    error = InvalidDeal("marriages_exceed_leads", "marriage_points.A")
    assert in_language("bg", error).startswith("Точки от обявявания (място A): всяко обявяване")


def test_a_marriage_won_by_the_last_trick_alone_named_in_both_languages():
    # B won only the 12th trick (two nines): no lead followed it, so no marriage.
    deal = record("exhausted", (120, 0), mp=(0, 40), tricks=(11, 1), last_trick_by="B")
    error = error_of(deal)
    assert (error.code, error.case) == ("marriages_exceed_leads", "only_last_trick")
    assert in_language("bg", error) == (
        "Точките от обявявания на играч B трябва да са 0 (въведени: 40): играч B е взел само "
        "последната ръка, а след последната ръка никой не е на ход, така че играч B не е имал "
        "ход, на който да обяви."
    )
    assert in_language("en", error) == (
        "The marriage points of player B must be 0 (entered: 40): player B won only the last "
        "trick, and nobody leads after the last trick, so player B never had a lead to declare "
        "a marriage on."
    )


def test_two_marriages_with_the_last_trick_one_of_two_named_in_bulgarian():
    deal = record("exhausted", (120, 0), mp=(0, 60), tricks=(10, 2), last_trick_by="B")
    bulgarian = in_language("bg", error_of(deal))
    assert "играч B има взети ръце: 2, но последната от тях е последната ръка" in bulgarian
    assert bulgarian.endswith("са най-много 1.")
    # Under pending, 2 tricks give 2 + 1 - 1 = 2 leads: enough for 60, not for 80 (3).
    eighty = record("exhausted", (120, 0), mp=(0, 80), tricks=(10, 2), last_trick_by="B")
    pending = in_language("bg", error_of(eighty, HouseRules(first_trick_marriage="pending")))
    assert pending.endswith("са най-много 2, като се брои и първият ход на раздаването.")


def test_a_closer_without_a_trick_named_in_both_languages():
    deal = record("closed_played_out", (0, 120), tricks=(0, 12), closed_by="A",
                  opponent_tricks_at_close=2)
    error = error_of(deal, HouseRules(failed_close="tricks_at_close"))
    assert in_language("bg", error) == (
        "Взятките на противника при затварянето трябва да са 0 (въведени: 2): играч A, който "
        "затвори, няма нито една взятка, значи е затворил талона, преди да се изиграе първата "
        "ръка."
    )
    assert in_language("en", error).startswith(
        "The opponent's tricks when the stock was closed must be 0 (entered: 2): player A"
    )
