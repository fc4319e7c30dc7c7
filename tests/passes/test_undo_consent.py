"""An undo after a signature needs the signer's consent: asked from a pass, allowed or
refused from the other signer's pass (or with their personal code on the asker's phone),
never from the match's link, never by the asker; every step in the history with the pass.

Round 1 of the four-player round robin (tests/passes/test_pass_page.py): table 1 is Иван
Петров (seat A) against Елена Стоянова (seat B), to 11 game points. The deals of `PLAYED`:

    deal  won by  +   score
    1     A       3   3:0
    2     B       2   3:2
    3     A       3   6:2
    4     B       3   6:5
    5     A       2   8:5
    6     B       1   8:6
    7     A       3   11:6   Иван wins 11:6

Undoing deal 7 takes the score back to 8:6, the match playing again.
"""

import pytest
from django.test import Client
from django.utils import translation

from core.messages import user_message
from events.models import Tournament
from passes import services
from passes.models import CodeTries
from scoring import services as scoring_services
from scoring.models import Match
from tableside import table_entry
from tableside.errors import TableError
from tableside.match_history import match_history
from tableside.models import MatchEvent
from tests.commits import committed
from tests.passes.test_pass_signatures import phone, table_one  # noqa: F401 (a fixture)

IVAN, ELENA = "Иван Петров", "Елена Стоянова"
PLAYED = [("A", 3, "capot"), ("B", 2, "schneider"), ("A", 3, "capot"), ("B", 3, "capot"),
          ("A", 2, "schneider"), ("B", 1, "won"), ("A", 3, "capot")]
JSON = {"HTTP_ACCEPT": "application/json"}


def play(client, base: str, match: Match, deals=PLAYED, first: int = 1) -> None:
    for number, (winner, points, reason) in enumerate(deals, start=first):
        response = client.post(f"{base}/m/{match.pk}/deal/", {
            "number": number, "winner": winner, "game_points": points, "reason": reason})
        assert response.status_code == 302, response.content.decode()


def score(match: Match) -> tuple[int, int, str]:
    match.refresh_from_db()
    return match.game_points_a, match.game_points_b, match.status


def deal_numbers(match: Match) -> list[int]:
    return list(match.deals.order_by("number").values_list("number", flat=True))


def steps(match: Match, since: int = 0) -> list[tuple[str, str, str]]:
    """(kind, seat, via) of the table's steps after the first `since`."""
    return [(event.kind, event.seat, event.via)
            for event in MatchEvent.objects.filter(match=match).order_by("at", "pk")[since:]]


def text(response) -> str:
    return " ".join(response.content.decode().split())


@pytest.fixture
def finished(table_one):  # noqa: F811 (the fixture imported above)
    """Both players on their passes, the match won 11:6 by Иван (seat A)."""
    _tournament, match = table_one
    assert (match.player_a.name, match.player_b.name) == (IVAN, ELENA)
    ivan, base_a = phone(match.player_a)
    elena, base_b = phone(match.player_b)
    play(ivan, base_a, match)
    assert score(match) == (11, 6, "finished")
    return match, (ivan, base_a), (elena, base_b)


def test_the_only_signature_being_the_askers_own_the_deal_is_undone_at_once(finished):
    match, (ivan, base_a), _elena = finished
    assert ivan.post(f"{base_a}/m/{match.pk}/sign/").status_code == 302
    page = text(ivan.get(f"{base_a}/m/{match.pk}/"))
    assert "Your signature is withdrawn with it" in page and "Yes, undo deal 7" in page
    before = MatchEvent.objects.filter(match=match).count()
    answer = ivan.post(f"{base_a}/m/{match.pk}/undo/ask/", {"number": 7})
    assert answer.status_code == 302
    assert score(match) == (8, 6, "playing")
    assert deal_numbers(match) == [1, 2, 3, 4, 5, 6]
    table = table_entry.table_of(match)
    assert table.signed_a is None and table.signed_b is None and not table.undo_asked_by
    assert steps(match, before) == [("undo", "A", "pass"), ("cleared", "", "")]
    # The match goes on: deal 7 again, another way, then deal 8 ends it 11:9.
    play(ivan, base_a, match, [("B", 3, "capot"), ("A", 3, "capot")], first=7)
    assert score(match) == (11, 9, "finished")


def test_the_other_signer_allows_it_from_their_pass(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/sign/")
    assert table_entry.table_of(match).is_final
    version = Match.objects.get(pk=match.pk).version
    event_version = Tournament.objects.get(pk=match.pairing.round.tournament_id).version
    before = MatchEvent.objects.filter(match=match).count()
    page = text(ivan.get(f"{base_a}/m/{match.pk}/"))
    assert f"Ask {ELENA} to allow undoing deal 7" in page
    with committed():
        assert ivan.post(f"{base_a}/m/{match.pk}/undo/ask/", {"number": 7}).status_code == 302
    # Nothing undone yet: the request waits, and both pages move on to show it.
    assert score(match) == (11, 6, "finished")
    table = table_entry.table_of(match)
    assert (table.undo_asked_by, table.undo_number) == ("A", 7) and table.is_final
    # Both pages follow streams of these: the match's (its pages), the event's (the passes).
    assert Match.objects.get(pk=match.pk).version > version
    assert Tournament.objects.get(pk=match.pairing.round.tournament_id).version > event_version
    asker = text(ivan.get(f"{base_a}/m/{match.pk}/"))
    assert "You asked to undo deal 7" in asker
    assert f"Waiting for {ELENA} to allow it on their pass." in asker
    signer = text(elena.get(f"{base_b}/m/{match.pk}/"))
    assert f"{IVAN} asks to undo deal 7" in signer
    assert f"{IVAN} +3: the score goes back from 11:6 to 8:6." in signer
    assert "Allow" in signer and "Refuse" in signer
    assert f"{IVAN} asks to undo deal 7 of this match." in text(elena.get(base_b + "/"))
    assert "asks to undo" not in text(ivan.get(base_a + "/"))
    # Elena allows: deal 7 is gone, both signatures with it.
    allowed = elena.post(f"{base_b}/m/{match.pk}/undo/answer/", {"number": 7, "answer": "allow"})
    assert allowed.status_code == 302
    assert score(match) == (8, 6, "playing")
    assert deal_numbers(match) == [1, 2, 3, 4, 5, 6]
    table.refresh_from_db()
    assert (table.signed_a, table.signed_b, table.undo_asked_by, table.undo_number) == \
        (None, None, "", None)
    assert steps(match, before) == [("undo_asked", "A", "pass"), ("undo_allowed", "B", "pass"),
                                    ("cleared", "", "")]
    history = {change.after: change.who for change in match_history(match)}
    assert f"pass of {IVAN}" in history["undo of a signed result asked"]
    assert f"pass of {ELENA}" in history["undo allowed by the signer"]
    tokens = [base_a.rsplit("/", 1)[1], base_b.rsplit("/", 1)[1]]
    assert not any(token in who for who in history.values() for token in tokens)


def test_the_sore_loser_asks_and_the_winner_refuses_nothing_changes(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    before = MatchEvent.objects.filter(match=match).count()
    page = text(elena.get(f"{base_b}/m/{match.pk}/"))
    assert f"{IVAN} has signed, so they must allow it on their pass." in page
    assert elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7}).status_code == 302
    # She cannot allow her own request, nor can a second phone with her pass.
    own = elena.post(f"{base_b}/m/{match.pk}/undo/answer/", {"number": 7, "answer": "allow"})
    assert own.status_code == 403
    assert f"only {IVAN} can allow it" in text(own)
    second_phone = Client(REMOTE_ADDR="10.0.0.99")
    second_phone.cookies["django_language"] = "en"
    again = second_phone.post(f"{base_b}/m/{match.pk}/undo/answer/",
                              {"number": 7, "answer": "allow"}, **JSON)
    assert again.status_code == 403 and again.json()["code"] == "undo_own_request"
    # Her own code typed as his does not allow it either: a wrong code, counted.
    code_b = services.code_of(services.pass_make(match.player_b))
    wrong = elena.post(f"{base_b}/m/{match.pk}/undo/code/", {"number": 7, "code": code_b})
    assert wrong.status_code == 422 and "Tries left: 4." in text(wrong)
    assert score(match) == (11, 6, "finished")
    # Ivan refuses: the request is gone, the result and his signature stand.
    refused = ivan.post(f"{base_a}/m/{match.pk}/undo/answer/", {"number": 7, "answer": "refuse"})
    assert refused.status_code == 302
    assert score(match) == (11, 6, "finished")
    assert deal_numbers(match) == [1, 2, 3, 4, 5, 6, 7]
    table = table_entry.table_of(match)
    assert table.signed_a and not table.signed_b and table.undo_asked_by == ""
    assert steps(match, before) == [("undo_asked", "B", "pass"), ("undo_refused", "A", "pass")]
    # A refused request allows nothing afterwards.
    late = elena.post(f"{base_b}/m/{match.pk}/undo/answer/", {"number": 7, "answer": "allow"})
    assert late.status_code == 409
    assert "No request to undo deal 7 waits any more" in text(late)
    assert score(match) == (11, 6, "finished")


def test_the_asker_withdraws_the_request(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    before = MatchEvent.objects.filter(match=match).count()
    assert elena.post(f"{base_b}/m/{match.pk}/undo/answer/",
                      {"number": 7, "answer": "refuse"}).status_code == 302
    assert steps(match, before) == [("undo_dropped", "B", "pass")]
    assert score(match) == (11, 6, "finished")


def test_at_one_phone_the_signer_allows_with_their_code(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    code_a = services.code_of(services.pass_make(match.player_a))
    CodeTries.objects.create(match=match, wrong=3)  # three wrong codes at the signature
    elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    page = text(elena.get(f"{base_b}/m/{match.pk}/"))
    assert f"{IVAN} allows it on this phone" in page and f"Personal code of {IVAN}" in page
    wrong = f"{(int(code_a) + 1) % 10000:04d}"
    refused = elena.post(f"{base_b}/m/{match.pk}/undo/code/", {"number": 7, "code": wrong})
    assert refused.status_code == 422 and "Tries left: 1." in text(refused)
    assert score(match) == (11, 6, "finished")
    before = MatchEvent.objects.filter(match=match).count()
    allowed = elena.post(f"{base_b}/m/{match.pk}/undo/code/", {"number": 7, "code": code_a})
    assert allowed.status_code == 302
    assert score(match) == (8, 6, "playing")
    assert steps(match, before) == [("undo_allowed", "A", "code"), ("cleared", "", "")]


def test_five_wrong_codes_and_the_code_allows_nothing(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    code_a = services.code_of(services.pass_make(match.player_a))
    CodeTries.objects.create(match=match, wrong=5)
    elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    used = elena.post(f"{base_b}/m/{match.pk}/undo/code/", {"number": 7, "code": code_a})
    assert used.status_code == 409 and "ask the organiser" in text(used)
    assert score(match) == (11, 6, "finished")


def test_the_matchs_link_can_neither_ask_nor_allow(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    token = table_entry.table_of(match).token
    link = Client()
    link.cookies["django_language"] = "en"
    sentence = "After a signature a deal is undone only from the players"
    # A phone that has not taken a seat, then one that holds seat A (Ivan's).
    for _seated in (False, True):
        ask = link.post(f"/p/{token}/undo/ask/", {"number": 7})
        allow = link.post(f"/p/{token}/undo/answer/", {"number": 7, "answer": "allow"})
        assert (ask.status_code, allow.status_code) == (403, 403)
        assert sentence in text(ask) and sentence in text(allow)
        link.post(f"/p/{token}/seat/", {"seat": "A"})
    answer = link.post(f"/p/{token}/undo/answer/", {"number": 7, "answer": "allow"}, **JSON)
    assert answer.status_code == 403
    assert answer.json()["result"] == "refused" and sentence in answer.json()["message"]
    # The service itself refuses a step that names no pass.
    with pytest.raises(TableError) as refused:
        table_entry.undo_allow(match=match, seat="A", number=7)
    assert refused.value.code == "undo_needs_pass"
    # A pass of a player not in this match does not find it (as every step of a pass).
    stranger, base_c = phone(next(p for p in match.pairing.round.tournament.entries.all()
                                  if p.player_id not in (match.player_a_id,
                                                         match.player_b_id)).player)
    assert stranger.post(f"{base_c}/m/{match.pk}/undo/answer/",
                         {"number": 7, "answer": "allow"}).status_code == 404
    assert score(match) == (11, 6, "finished")
    assert table_entry.table_of(match).undo_asked_by == "B"


def test_one_request_at_a_time(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/sign/")
    assert ivan.post(f"{base_a}/m/{match.pk}/undo/ask/", {"number": 7}).status_code == 302
    for client, base in ((elena, base_b), (ivan, base_a)):
        second = client.post(f"{base}/m/{match.pk}/undo/ask/", {"number": 7})
        assert second.status_code == 409
        assert f"{IVAN} has already asked to undo deal 7" in text(second)
    # A stale page naming another deal undoes nothing.
    stale = elena.post(f"{base_b}/m/{match.pk}/undo/answer/", {"number": 6, "answer": "allow"})
    assert stale.status_code == 409
    assert score(match) == (11, 6, "finished")


def test_a_stale_ask_names_the_last_deal(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    stale = elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 6}, **JSON)
    assert stale.status_code == 409 and stale.json()["code"] == "undo_not_last"
    assert table_entry.table_of(match).undo_asked_by == ""


@pytest.mark.parametrize("voids", ["dispute", "approval", "correction"])
def test_a_dispute_an_approval_or_a_correction_voids_the_request(finished, organiser, voids):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    if voids == "dispute":
        elena.post(f"{base_b}/m/{match.pk}/dispute/", {"text": "Deal 7 was a schneider."})
        expected = (11, 6, "finished")
    elif voids == "approval":
        table_entry.result_approve(match=match, by=organiser)
        expected = (11, 6, "finished")
    else:  # the organiser undoes deal 7 on the match page
        scoring_services.deal_undo_last(match=match, by=organiser, number=7)
        expected = (8, 6, "playing")
    table = table_entry.table_of(match)
    assert (table.undo_asked_by, table.undo_number) == ("", None)
    assert score(match) == expected
    answer = ivan.post(f"{base_a}/m/{match.pk}/undo/answer/", {"number": 7, "answer": "allow"})
    assert answer.status_code == 409
    assert "asks to undo" not in text(ivan.get(f"{base_a}/m/{match.pk}/"))
    assert score(match) == expected


def test_a_disputed_result_stays_the_organisers(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    elena.post(f"{base_b}/m/{match.pk}/dispute/", {"text": "Deal 7 was a schneider."})
    for client, base in ((ivan, base_a), (elena, base_b)):
        asked = client.post(f"{base}/m/{match.pk}/undo/ask/", {"number": 7})
        assert asked.status_code == 409 and "The result is disputed" in text(asked)
    assert score(match) == (11, 6, "finished")


def test_a_signer_without_a_pass_leaves_it_to_the_organiser(finished):
    match, (ivan, base_a), (elena, base_b) = finished
    ivan.post(f"{base_a}/m/{match.pk}/sign/")
    services.pass_revoke(match.player_a)
    refused = elena.post(f"{base_b}/m/{match.pk}/undo/ask/", {"number": 7})
    assert refused.status_code == 409
    assert f"The signature of {IVAN} stands, and without a pass" in text(refused)
    assert table_entry.table_of(match).undo_asked_by == ""


BULGARIAN = [
    (TableError("undo_needs_pass"),
        "След подпис раздаване се отменя само от пропуските на играчите (с разрешение на "
        "подписалия) или от организатора, не от връзката на масата."),
    (TableError("undo_waiting", name=IVAN, number=7),
        f"{IVAN} вече поиска да се отмени раздаване 7; искането чака отговор."),
    (TableError("undo_no_pass", name=IVAN),
        f"Подписът на {IVAN} стои, а без пропуск отмяната не може да бъде разрешена; "
        "помолете организатора."),
    (TableError("undo_request_gone", number=7),
        "Вече няма искане за отмяна на раздаване 7; проверете резултата горе."),
    (TableError("undo_own_request", name=IVAN),
        f"Вие поискахте тази отмяна; само {IVAN} може да я разреши – от своя пропуск или с "
        "личния си код."),
    (TableError("undo_answer_missing"), "Разрешете отмяната или я откажете."),
]


def test_every_refusal_is_said_in_both_languages():
    for error, bulgarian in BULGARIAN:
        with translation.override("bg"):
            assert user_message(error) == bulgarian
        with translation.override("en"):
            assert user_message(error) != bulgarian
