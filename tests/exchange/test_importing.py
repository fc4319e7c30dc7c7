"""Importing a tournament from a deal-log CSV: the reader (pure), the writer, the command and
the upload pages. The fixtures are in `fixtures/`; `good.csv` is worked out by hand below."""

import datetime
import html
import io
import threading
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from club.models import Player
from events.models import Entry, Pairing, Round, Tournament
from exchange import import_jobs, importing
from exchange.importing import ImportRejected, import_plan_apply, parse_deal_log
from exchange.management.commands.import_tournament import Command as ImportCommand
from exchange.models import ImportJob
from scoring import rules
from scoring import services as scoring_services
from scoring.errors import RecordingError
from scoring.models import Deal, Match
from standings import selectors
from tests.concurrency import run_at_once
from tests.services import require_vendor

# The import and export URLs, until `events.urls` includes `exchange.urls`.

FIXTURES = Path(__file__).parent.parent / "fixtures"
ANNA, BORIS, VERA = "Анна Иванова", "Борис Петров", "Вера Колева"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Tournament, Entry, Round, Pairing, Match,
                                                     Deal, Player))


def apply(data: bytes, organiser=None, house_rules=None, **kwargs) -> Tournament:
    house_rules = house_rules or rules.HouseRules()
    plan = parse_deal_log(data, house_rules=house_rules)
    assert plan.errors == []
    return import_plan_apply(
        plan=plan, name=kwargs.get("name", "Купа"), date=datetime.date(2026, 12, 5),
        house_rules=house_rules, organiser=organiser,
    )


# --------------------------------------------------------------------------------------------
# Reading (no database)
# --------------------------------------------------------------------------------------------

# good.csv, by hand:
#   round 1: Анна - Борис: 3, 5, 5:1, draw, 8:1, 11:1            -> Анна 11:1
#   round 2: Вера - Анна: 0:2, 3:2, 6:2 (false claim 3), 6:5 (failed close 3),
#            9:5 (out after close 3), 10:5, 10:8, 12:8                 -> Вера 12:8
#   round 3: Борис - Вера: 1:0, 2:0, 2:3, 5:3, 8:3, 11:3            -> Борис 11:3
# A cycle: one win each; head-to-head 1 each (all met); game-point difference:
#   Анна 19-13 = +6, Борис 12-14 = -2, Вера 15-19 = -4.
# Sonneborn-Berger: each beat one player with 1 win = 1.
HAND_STANDINGS = [
    # player, rank, played, won, lost, for, against, h2h, diff, scored, SB
    (ANNA, 1, 2, 1, 1, 19, 13, 1, 6, 19, 1),
    (BORIS, 2, 2, 1, 1, 12, 14, 1, -2, 12, 1),
    (VERA, 3, 2, 1, 1, 15, 19, 1, -4, 15, 1),
]


def standing_tuple(name, row):
    tie = row.tie_breaks
    return (name, row.rank, row.played, row.won, row.lost, row.game_points_for,
            row.game_points_against, tie["head_to_head"], tie["game_point_difference"],
            tie["game_points_scored"], tie["sonneborn_berger"])


def test_good_file_read_by_hand():
    plan = parse_deal_log(fixture("good.csv"))
    assert plan.errors == [] and plan.ok
    assert plan.players == [ANNA, BORIS, VERA]
    assert plan.rounds == [1, 2, 3]
    assert plan.deal_count == 20 and plan.finished_count == 3
    summary = [(m.round, m.table, m.player_a, m.player_b, len(m.deals), m.result.game_points,
                m.result.winner) for m in plan.matches]
    assert summary == [
        (1, 1, ANNA, BORIS, 6, {"A": 11, "B": 1}, "A"),
        (2, 1, VERA, ANNA, 8, {"A": 12, "B": 8}, "A"),
        (3, 1, BORIS, VERA, 6, {"A": 11, "B": 3}, "A"),
    ]
    assert plan.matches[0].deals[3].score == rules.DealScore(None, 0, None, "draw")
    assert [d.line for d in plan.matches[1].deals] == list(range(8, 16))
    assert [standing_tuple(row.player, row) for row in plan.standings()] == HAND_STANDINGS


def test_excel_file_reads_the_same_as_the_good_one():
    """BOM, `;`, CRLF, spaces around values and header names, blank lines and rows of empty
    cells, header names in any case, lower-case winners and `Draw`."""
    data = fixture("excel.csv")
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data and b";" in data
    excel, good = parse_deal_log(data), parse_deal_log(fixture("good.csv"))
    assert excel.errors == []
    assert excel.players == good.players
    assert [(m.round, m.table, m.player_a, m.player_b, [d.score for d in m.deals], m.result)
            for m in excel.matches] == [
        (m.round, m.table, m.player_a, m.player_b, [d.score for d in m.deals], m.result)
        for m in good.matches
    ]


BAD_FILES = {
    "bad_missing_column.csv": [
        "line 1: the header lacks the column(s) reason; the first line must name the columns "
        "round,table,player_a,player_b,deal,winner,game_points,reason."
    ],
    "bad_round.csv": ["line 3: round must be a whole number, not “1.5”."],
    "bad_table.csv": ["line 4: table must be a whole number, not “A”."],
    "bad_deal.csv": ["line 5: deal must be a whole number, not “три”."],
    "bad_game_points.csv": ["line 6: game_points must be a whole number, not “3.0”."],
    "bad_reason.csv": [
        "line 7: unknown reason “kapot”; use one of: won, schneider, capot, false_claim, "
        "closer_failed, opponent_out_after_close, last_trick, draw."
    ],
    "bad_winner.csv": ["line 2: winner must be A, B or draw, not “C”."],
    "bad_empty_player.csv": ["line 8: player_b is empty; every deal names both players."],
    "bad_same_player.csv": [f"line 2: {ANNA} is on both seats; a match needs two players."],
    "bad_points_for_reason.csv": ["line 3: A schneider scores 2 game points, not 3."],
    "bad_deal_after_end.csv": [
        "line 8: Deal 7 comes after the match ended: player A had already reached 11 game "
        "points (11:1)."
    ],
    "bad_deal_gap.csv": [
        "line 10: round 2, table 1 goes from deal 2 to deal 4; deal 3 is missing."
    ],
    "bad_deal_duplicate.csv": ["line 22: deal 6 of round 3, table 1 is already on line 21."],
    "bad_inconsistent_players.csv": [
        f"line 11: round 2, table 1 is {VERA} – {ANNA} (line 8), not {ANNA} – {VERA}; all "
        "deals of a match have the same players on the same seats."
    ],
    "bad_player_twice_in_round.csv": [
        f"line 22: {ANNA} already plays in round 1 at table 1 (line 2); a player plays once "
        "a round."
    ],
    "bad_not_utf8.csv": [
        "line 2: the file is not UTF-8 text (perhaps Windows-1251 or UTF-16). Save the file "
        "as UTF-8 CSV (in Excel: Save As, “CSV UTF-8”) and import it again."
    ],
    "bad_empty.csv": [
        "line 1: the file is empty; its first line must be the header: "
        "round,table,player_a,player_b,deal,winner,game_points,reason."
    ],
    "bad_header_only.csv": ["line 1: the file has a header but no deals."],
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_each_bad_file_gives_its_line_and_message(name):
    plan = parse_deal_log(fixture(name))
    assert plan.errors == BAD_FILES[name]
    assert not plan.ok and plan.matches == [] and plan.players == []


def test_every_fixture_is_tested():
    assert {p.name for p in FIXTURES.glob("bad_*.csv")} == set(BAD_FILES)


GOOD = fixture("good.csv").decode()
HEADER = GOOD.splitlines()[0]


def test_more_errors_on_one_row_are_each_listed_and_sorted_by_line():
    data = (HEADER + "\n"
            "1,1,Анна,Борис,1,A,1,won\n"
            "0,x,, Анна ,1,Z,two,maybe\n"
            "1,1,Анна,Борис,2,A,1,won,extra\n").encode()
    assert parse_deal_log(data).errors == [
        "line 3: round must be from 1 to 999, not 0.",
        "line 3: table must be a whole number, not “x”.",
        "line 3: player_a is empty; every deal names both players.",
        "line 3: winner must be A, B or draw, not “Z”.",
        "line 3: game_points must be a whole number, not “two”.",
        "line 3: unknown reason “maybe”; use one of: won, schneider, capot, false_claim, "
        "closer_failed, opponent_out_after_close, last_trick, draw.",
        "line 4: this row has 9 values, but the header names 8 columns.",
    ]


def test_columns_in_any_order_extra_columns_ignored_and_names_tidied():
    data = ("note,Reason,GAME_POINTS,winner,deal,player_b,player_a,table,round\n"
            "first,capot,3,b,1,  Борис   Петров ,Анна,1,1\n"
            ",won,1,a,2,Борис Петров,Анна,1,1\n").encode()
    plan = parse_deal_log(data)
    assert plan.errors == []
    assert plan.players == ["Анна", "Борис Петров"]
    assert [d.score.winner for d in plan.matches[0].deals] == ["B", "A"]
    assert plan.matches[0].result.game_points == {"A": 1, "B": 3}


def test_deals_may_come_in_any_order_within_the_file():
    lines = GOOD.splitlines()
    data = "\n".join([lines[0], *reversed(lines[1:])]).encode()
    plan = parse_deal_log(data)
    assert plan.errors == []
    assert [standing_tuple(row.player, row) for row in plan.standings()] == HAND_STANDINGS
    assert plan.players == [BORIS, VERA, ANNA]  # order of first appearance in the file


def test_an_unfinished_match_is_allowed_and_left_out_of_the_standings():
    data = "\n".join(GOOD.splitlines()[:-3]).encode()  # round 3 stops at 2:3
    plan = parse_deal_log(data)
    assert plan.errors == []
    assert [m.finished for m in plan.matches] == [True, True, False]
    assert plan.matches[2].result.game_points == {"A": 2, "B": 3}
    rows = [(row.player, row.played, row.won, row.lost) for row in plan.standings()]
    # Анна and Вера have one win each; Вера beat Анна (head-to-head).
    assert rows == [(VERA, 1, 1, 0), (ANNA, 2, 1, 1), (BORIS, 1, 0, 1)]


def test_the_house_rules_decide_which_game_points_a_reason_allows():
    data = (HEADER + "\n1,1,Анна,Борис,1,B,2,false_claim\n").encode()
    assert parse_deal_log(data).errors == ["line 2: A false claim scores 3 game points, not 2."]
    pagat = parse_deal_log(data, house_rules=rules.HouseRules.preset("pagat"))
    assert pagat.errors == []
    last_trick = (HEADER + "\n1,1,Анна,Борис,1,A,2,last_trick\n").encode()
    assert parse_deal_log(last_trick).errors == [
        "line 2: The reason 'last trick' applies only under the house rule where the last "
        "trick wins the deal, which this tournament does not play."
    ]


def test_a_file_over_40_mb_is_refused_before_reading():
    data = (HEADER + "\n").encode() + b"1" * (40 * 1024 * 1024)
    assert parse_deal_log(data).errors == [
        "The file is larger than 40 MB, the most one import reads."
    ]
    with translation.override("bg"):
        assert parse_deal_log(io.BytesIO(data)).errors == [
            "Файлът е по-голям от 40 MB, а едно внасяне чете най-много толкова."
        ]


@pytest.mark.parametrize("language, message", [
    ("en", "line 5: the file has more than 3 deal rows, the most one import reads."),
    ("bg", "ред 5: файлът има повече от 3 реда с раздавания, а едно внасяне чете най-много "
           "толкова."),
])
def test_more_rows_than_the_cap_are_refused_on_the_first_row_over_it(
    monkeypatch, language, message
):
    monkeypatch.setattr(importing, "MAX_ROWS", 3)
    rows = [f"{n},1,Анна,Борис,1,A,1,won" for n in range(1, 5)]  # 4 rows
    data = "\n".join([HEADER, *rows]).encode()
    with translation.override(language):
        assert parse_deal_log(data).errors == [message]


def round_robin_log(players: int, legs: int, deals_per_match: int) -> bytes:
    """A deal log of a round robin (circle method): every match two draws, then the first
    player wins 1 game point a deal until 11 (13 deals); more draws first for longer matches."""
    names = [f"Играч {number:03d}" for number in range(1, players + 1)]
    lines, order, round_ = [HEADER], list(range(players)), 0
    draws = deals_per_match - 11
    for leg in range(legs):
        for _ in range(players - 1):
            round_ += 1
            for table in range(players // 2):
                a, b = order[table], order[players - 1 - table]
                if leg % 2:
                    a, b = b, a
                for deal in range(1, deals_per_match + 1):
                    result = "draw,0,draw" if deal <= draws else "A,1,won"
                    lines.append(f"{round_},{table + 1},{names[a]},{names[b]},{deal},{result}")
            order = [order[0], order[-1], *order[1:-1]]
    return ("\n".join(lines) + "\n").encode()


def test_a_tournament_of_more_than_20000_deals_is_read():
    """40 players, double round robin: 78 rounds of 20 matches, 13 deals each: 20,280 rows
    (the old cap was 20,000; one import now reads up to 250,000)."""
    assert importing.MAX_ROWS == 250_000
    data = round_robin_log(40, 2, 13)
    plan = parse_deal_log(data)
    assert plan.errors == []
    assert (len(plan.players), len(plan.rounds), len(plan.matches), plan.deal_count) == (
        40, 78, 1560, 20_280
    )
    assert plan.finished_count == 1560


def test_errors_are_capped_with_a_count_of_the_rest():
    rows = ["1,1,Анна,Борис,1,A,9,won"] * 150
    errors = parse_deal_log("\n".join([HEADER, *rows]).encode()).errors
    assert len(errors) == importing.MAX_ERRORS + 1
    assert errors[0] == "line 2: A plain win scores 1 game point, not 9 game points."
    # 150 bad points plus 149 duplicate deal numbers: 100 shown, 199 counted.
    assert errors[-1] == "… and 199 more errors."


def test_a_utf16_file_is_refused_with_the_utf8_advice():
    errors = parse_deal_log(GOOD.encode("utf-16")).errors
    assert len(errors) == 1 and "Save the file as UTF-8 CSV" in errors[0]


def test_messages_follow_the_active_language():
    data = (HEADER + "\n1,1,Анна,Борис,1,A,3,schneider\n").encode()
    # A schneider scores 2 game points: both languages say so and name the 3 entered.
    with translation.override("bg"):
        assert parse_deal_log(data).errors == [
            "ред 2: Шнайдерът (66, загубилият е под прага) носи 2 игрови точки, а не 3."
        ]
    with translation.override("en"):
        assert parse_deal_log(data).errors == ["line 2: A schneider scores 2 game points, not 3."]


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_apply_writes_the_whole_tournament(organiser):
    tournament = apply(fixture("good.csv"), organiser=organiser)
    assert counts() == (1, 3, 3, 3, 3, 20, 3)
    assert tournament.format == Tournament.Format.ROUND_ROBIN
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.house_rules() == rules.HouseRules()
    assert list(tournament.organisers.all()) == [organiser]
    entries = [(e.number, e.player.name, e.player.club) for e in tournament.entries.all()]
    assert entries == [(1, ANNA, None), (2, BORIS, None), (3, VERA, None)]
    pairings = Pairing.objects.filter(round__tournament=tournament).order_by("round__number")
    assert [(p.round.number, p.table, p.entry_a.player.name, p.entry_b.player.name,
             p.match.game_points_a, p.match.game_points_b, p.match.winner, p.match.status)
            for p in pairings] == [
        (1, 1, ANNA, BORIS, 11, 1, "A", "finished"),
        (2, 1, VERA, ANNA, 12, 8, "A", "finished"),
        (3, 1, BORIS, VERA, 11, 3, "A", "finished"),
    ]
    match = pairings[0].match
    assert match.first_dealer == "A" and match.finished_at is not None
    assert match.house_rules_snapshot == rules.HouseRules().to_dict()
    deals = list(match.deals.values_list("number", "winner", "game_points", "reason"))
    assert deals == [(1, "A", 3, "capot"), (2, "A", 2, "schneider"), (3, "B", 1, "won"),
                     (4, "", 0, "draw"), (5, "A", 3, "capot"), (6, "A", 3, "capot")]
    assert set(Deal.objects.values_list("entered_by", flat=True)) == {organiser.pk}
    assert Deal.history.filter(history_type="+").count() == 20
    rows = [standing_tuple(entry.player.name, row)
            for entry, row in selectors.standings(tournament)]
    assert rows == HAND_STANDINGS


@pytest.mark.django_db
def test_apply_reuses_club_less_players_of_the_same_name_only(home_club):
    loose = Player.objects.create(name=ANNA)
    Player.objects.create(name=BORIS, club=home_club)  # a club's player is not reused
    tournament = apply(fixture("good.csv"))
    players = {e.player.name: e.player for e in tournament.entries.all()}
    assert players[ANNA] == loose
    assert players[BORIS].club is None
    assert Player.objects.filter(name=BORIS).count() == 2


@pytest.mark.django_db
def test_apply_an_unfinished_file_leaves_the_tournament_running():
    tournament = apply("\n".join(GOOD.splitlines()[:-3]).encode())
    assert tournament.status == Tournament.Status.RUNNING
    assert Tournament.objects.get().status == Tournament.Status.RUNNING
    statuses = list(Match.objects.order_by("pairing__round__number").values_list("status",
                                                                                  flat=True))
    assert statuses == ["finished", "finished", "playing"]


@pytest.mark.django_db
def test_apply_stores_the_pagat_rules_in_the_tournament_and_every_match():
    pagat = rules.HouseRules.preset("pagat")
    data = (HEADER + "\n1,1,Анна,Борис,1,B,2,false_claim\n").encode()
    tournament = apply(data, house_rules=pagat)
    assert tournament.house_rules() == pagat
    assert Match.objects.get().house_rules() == pagat


@pytest.mark.django_db
def test_apply_refuses_a_plan_with_errors_and_writes_nothing():
    plan = parse_deal_log(fixture("bad_deal_gap.csv"))
    with pytest.raises(ImportRejected) as error:
        import_plan_apply(plan=plan, name="X", date=datetime.date(2026, 1, 1),
                          house_rules=rules.HouseRules(), organiser=None)
    assert error.value.errors == BAD_FILES["bad_deal_gap.csv"]
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_a_failure_half_way_rolls_everything_back(monkeypatch):
    """The deals go in batches (here of 5: good.csv's 20 deals are 4 batches); the database
    refusing the third batch leaves nothing of the first two, nor of the tournament."""
    monkeypatch.setattr(importing, "BATCH_SIZE", 5)
    written = []
    real = Deal.objects.bulk_create

    def third_deal_batch_fails(objs, **kwargs):
        if len(written) == 2:
            raise IntegrityError("the third batch")
        written.append(len(objs))
        return real(objs, **kwargs)

    monkeypatch.setattr(Deal.objects, "bulk_create", third_deal_batch_fails)
    with pytest.raises(IntegrityError):
        apply(fixture("good.csv"))
    assert written == [5, 5]
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_match_import_deals_writes_and_scores_a_match_at_once(organiser, players):
    match = Match.objects.create(player_a=players[0], player_b=players[1],
                                 house_rules_snapshot=rules.HouseRules().to_dict())
    scores = [rules.quick_result("A", 3, "capot"), rules.quick_result(None, 0, "draw"),
              rules.quick_result("B", 2, "schneider")]
    deals = scoring_services.match_import_deals(match=match, scores=scores, by=organiser)
    assert [(d.number, d.winner, d.game_points) for d in deals] == [(1, "A", 3), (2, "", 0),
                                                                    (3, "B", 2)]
    assert all(d.pk for d in deals)
    match.refresh_from_db()
    assert (match.game_points_a, match.game_points_b, match.status, match.winner) == (
        3, 2, "playing", ""
    )
    with pytest.raises(RecordingError) as error:
        scoring_services.match_import_deals(match=match, scores=scores, by=organiser)
    assert error.value.code == "deal_already_entered"
    assert match.deals.count() == 3


@pytest.mark.django_db
def test_match_import_deals_checks_the_whole_match_first(players):
    match = Match.objects.create(player_a=players[0], player_b=players[1],
                                 house_rules_snapshot={"game_target": 7})
    scores = [rules.quick_result("A", 3, "capot")] * 4  # 9:0 after deal 3: deal 4 is too many
    with pytest.raises(rules.InvalidDeal) as error:
        scoring_services.match_import_deals(match=match, scores=scores, by=None)
    assert (error.value.code, error.value.field) == ("match_finished", "deals[3]")
    assert match.deals.count() == 0
    scoring_services.match_import_deals(match=match, scores=scores[:3], by=None)
    match.refresh_from_db()
    assert (match.game_points_a, match.status, match.winner) == (9, "finished", "A")
    assert match.finished_at is not None


# --------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_command_prints_the_new_id_alone_on_the_last_line(organiser):
    out = StringIO()
    call_command("import_tournament", str(FIXTURES / "excel.csv"), "--name", " Купа  Варна ",
                 "--date", "2026-11-28", "--rules", "default", "--organiser", "organiser",
                 stdout=out)
    last = out.getvalue().splitlines()[-1]
    tournament = Tournament.objects.get()
    assert last == str(tournament.pk)
    assert (tournament.name, tournament.date) == ("Купа Варна", datetime.date(2026, 11, 28))
    assert tournament.house_rules() == rules.HouseRules()
    assert list(tournament.organisers.all()) == [organiser]
    assert "3 players, 3 matches (3 finished), 20 deals, 3 rounds" in out.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_command_rejects_each_bad_file_and_writes_nothing(name):
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(FIXTURES / name), "--name", "X",
                     stdout=StringIO())
    assert counts() == before
    assert str(error.value).splitlines()[1:] == BAD_FILES[name]


@pytest.mark.django_db
@pytest.mark.parametrize("args, message", [
    (["--rules", "bulgarian"], "Unknown house-rules preset 'bulgarian'; known: 'default', "
                               "'pagat'."),
    (["--date", "5.12.2026"], "--date '5.12.2026' is not a date; write it as YYYY-MM-DD."),
    (["--organiser", "nobody"], "There is no user 'nobody'."),
    (["--name", "   "], "--name is empty; give the tournament a name."),
    (["--name", "x" * 161], "Not imported: name: Ensure this value has at most 160 characters "
                            "(it has 161)."),
])
def test_command_refuses_bad_options_and_writes_nothing(args, message):
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(FIXTURES / "good.csv"), "--name", "X", *args)
    assert str(error.value) == message
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_command_missing_file():
    with pytest.raises(CommandError, match="Cannot read .*missing.csv: No such file"):
        call_command("import_tournament", str(FIXTURES / "missing.csv"), "--name", "X")


@pytest.mark.django_db
def test_command_line_errors_exit_1_without_a_traceback(capsys):
    with pytest.raises(SystemExit) as exit_:
        ImportCommand().run_from_argv(
            ["manage.py", "import_tournament", str(FIXTURES / "bad_reason.csv"), "--name", "X"]
        )
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "CommandError:" in err and "line 7: unknown reason “kapot”" in err


# --------------------------------------------------------------------------------------------
# The upload pages
# --------------------------------------------------------------------------------------------



def upload(name: str, content: bytes | None = None):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, fixture(name) if content is None else content,
                              content_type="text/csv")


def form(file_name="good.csv", **overrides):
    return {"file": upload(file_name), "name": "Купа Бургас", "date": "2026-12-05",
            "rules": "default", **overrides}


@pytest.fixture
def en_client(organiser_client):
    organiser_client.cookies["django_language"] = "en"
    return organiser_client


@pytest.mark.django_db
def test_anonymous_is_sent_to_log_in_and_nothing_is_written(client):
    for url in ("data:import", "data:import_preview", "data:import_confirm"):
        response = client.post(reverse(url), form())
        assert response.status_code == 302 and "/accounts/login/" in response.url
    assert client.get(reverse("data:import")).status_code == 302
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_upload_page_shows_the_form_and_the_format(en_client):
    response = en_client.get(reverse("data:import"))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'enctype="multipart/form-data"' in page
    assert "round,table,player_a,player_b,deal,winner,game_points,reason" in page


def preview_and_confirm(client, captured, data=None):
    """Preview `data` (default good.csv), then confirm it with the task run at once (no
    broker: eager, after the confirmation's commit). Returns (preview, confirm) responses."""
    preview = client.post(reverse("data:import_preview"), data or form())
    with captured(execute=True):
        confirm = client.post(reverse("data:import_confirm"),
                              {"job": preview.context["job"].pk})
    return preview, confirm


@pytest.mark.django_db
def test_preview_then_confirm_imports_and_makes_the_user_organiser(
    en_client, organiser, django_capture_on_commit_callbacks
):
    response = en_client.post(reverse("data:import_preview"), form("excel.csv"))
    assert response.status_code == 200
    assert counts() == (0,) * 7
    page = html.unescape(response.content.decode())
    for text in (ANNA, BORIS, VERA, "Confirm import", "3, of them 3 finished", "Standings"):
        assert text in page
    table = response.context["table"]
    assert [(row["player"], row["rank"], row["gp_diff"]) for row in table.data] == [
        (ANNA, 1, 6), (BORIS, 2, -2), (VERA, 3, -4)
    ]
    job = response.context["job"]
    assert (job.status, job.deals, job.players) == ("previewed", 20, 3)
    assert job.file.storage.exists(job.file.name)  # kept under MEDIA_ROOT until confirmed
    with django_capture_on_commit_callbacks(execute=True):
        response = en_client.post(reverse("data:import_confirm"), {"job": job.pk})
    # The task runs once the confirmation commits: here, after the answer, which goes to
    # the job's page (without a test's transaction it has run already: the standings).
    assert response.status_code == 302
    assert response.url == reverse("data:import_job", args=[job.pk])
    tournament = Tournament.objects.get()
    page = html.unescape(en_client.get(response.url).content.decode())
    assert "Imported: players — 3, deals — 20." in page
    assert reverse("standings:standings", args=[tournament.pk]) in page
    assert 'hx-trigger="every 1s"' not in page  # done: it no longer polls
    assert tournament.name == "Купа Бургас" and list(tournament.organisers.all()) == [organiser]
    assert counts() == (1, 3, 3, 3, 3, 20, 3)
    job.refresh_from_db()
    assert (job.status, job.tournament, job.file.name) == ("done", tournament, "")
    with django_capture_on_commit_callbacks(execute=True):
        again = en_client.post(reverse("data:import_confirm"), {"job": job.pk}, follow=True)
    # A double click imports once; the second click is shown the first one's tournament.
    assert again.redirect_chain == [(reverse("standings:standings", args=[tournament.pk]),
                                     302)]
    assert "This file has already been imported" in again.content.decode()
    assert counts() == (1, 3, 3, 3, 3, 20, 3)


@pytest.mark.django_db
def test_the_same_file_previewed_twice_is_two_imports(
    en_client, django_capture_on_commit_callbacks
):
    """Each preview is its own import job: only a second confirm of the same preview is a
    double click."""
    first, _ = preview_and_confirm(en_client, django_capture_on_commit_callbacks)
    second, _ = preview_and_confirm(en_client, django_capture_on_commit_callbacks)
    assert second.context["job"].pk != first.context["job"].pk
    assert Tournament.objects.count() == 2


@pytest.mark.django_db
def test_a_new_preview_drops_the_one_not_confirmed(en_client):
    first = en_client.post(reverse("data:import_preview"), form()).context["job"]
    en_client.post(reverse("data:import_preview"), form())
    assert not ImportJob.objects.filter(pk=first.pk).exists()
    assert not first.file.storage.exists(first.file.name)
    response = en_client.post(reverse("data:import_confirm"), {"job": first.pk})
    assert response.status_code == 400
    assert "This preview is no longer available" in response.content.decode()


@pytest.mark.django_db
def test_apply_with_a_claim_already_taken_writes_nothing_and_names_the_first_import():
    plan = parse_deal_log(fixture("good.csv"))
    arguments = {"plan": plan, "name": "Купа", "date": datetime.date(2026, 12, 5),
                 "house_rules": rules.HouseRules(), "organiser": None, "claim": "d" * 64}
    first = import_plan_apply(**arguments)
    assert importing.import_claimed(digest="d" * 64) == first
    before = counts()
    with pytest.raises(importing.AlreadyImported) as already:
        import_plan_apply(**arguments)
    assert already.value.tournament == first
    assert counts() == before


@pytest.mark.django_db
def test_a_claim_of_a_failed_import_is_not_taken():
    plan = parse_deal_log(fixture("good.csv"))
    arguments = {"plan": plan, "date": datetime.date(2026, 12, 5),
                 "house_rules": rules.HouseRules(), "organiser": None, "claim": "e" * 64}
    with pytest.raises(ValidationError):
        import_plan_apply(name="x" * 161, **arguments)  # too long a name: rolled back
    assert importing.import_claimed(digest="e" * 64) is None
    assert import_plan_apply(name="Купа", **arguments).name == "Купа"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "vendor", [pytest.param("postgresql", marks=pytest.mark.postgres), "sqlite"]
)
def test_two_confirms_at_once_import_once(vendor, en_client, monkeypatch):
    """A double click: two confirms of one preview arrive together, both past the look-up
    of the job (the barrier); one UPDATE moves it from previewed to queued and runs the
    import (eagerly, in its request), the other finds it taken and goes to the job's page
    (or, once it is done, to the tournament)."""
    require_vendor(vendor)
    preview = en_client.post(reverse("data:import_preview"), form())
    job = preview.context["job"]
    barrier = threading.Barrier(2, timeout=20)
    start = import_jobs.import_job_start

    def wait_then_start(**kwargs):
        barrier.wait()
        return start(**kwargs)

    monkeypatch.setattr(import_jobs, "import_job_start", wait_then_start)

    def confirm():
        client = Client()
        for name, morsel in en_client.cookies.items():
            client.cookies[name] = morsel.value
        response = client.post(reverse("data:import_confirm"), {"job": job.pk})
        return response.status_code, response.get("Location")

    answers = run_at_once(confirm, confirm, barrier=False)  # the barrier is in the start

    tournament = Tournament.objects.get()
    standings = reverse("standings:standings", args=[tournament.pk])
    assert (302, standings) in answers
    assert set(answers) <= {(302, standings), (302, reverse("data:import_job", args=[job.pk]))}
    assert counts() == (1, 3, 3, 3, 3, 20, 3)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["bad_deal_after_end.csv", "bad_not_utf8.csv",
                                  "bad_missing_column.csv"])
def test_preview_of_a_bad_file_lists_the_errors_with_422(en_client, name):
    response = en_client.post(reverse("data:import_preview"), form(name))
    assert response.status_code == 422
    page = html.unescape(response.content.decode())
    for line in BAD_FILES[name]:
        assert line in page
    assert counts() == (0,) * 7
    assert not ImportJob.objects.exists()  # a bad file is not kept


@pytest.mark.django_db
def test_preview_of_a_bad_file_in_bulgarian(organiser_client):
    response = organiser_client.post(reverse("data:import_preview"),
                                     form("bad_points_for_reason.csv"))
    assert response.status_code == 422
    # Line 3: a schneider entered with 3 game points; it scores 2, in Bulgarian as in English.
    assert ("ред 3: Шнайдерът (66, загубилият е под прага) носи 2 игрови точки, а не 3."
            in html.unescape(response.content.decode()))


@pytest.mark.django_db
def test_bad_form_input_is_422_and_writes_nothing(en_client):
    response = en_client.post(reverse("data:import_preview"), form(name=""))
    assert response.status_code == 422
    response = en_client.post(reverse("data:import_preview"),
                              {**form(), "file": upload("good.csv", b"")})
    assert response.status_code == 422
    response = en_client.post(reverse("data:import_preview"),
                              {**form(), "rules": "bulgarian"})
    assert response.status_code == 422
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_confirm_without_or_with_another_preview_is_400(en_client, outsider_client):
    assert en_client.post(reverse("data:import_confirm"), {"job": "x"}).status_code == 400
    job = en_client.post(reverse("data:import_preview"), form()).context["job"]
    assert en_client.post(reverse("data:import_confirm"),
                          {"job": job.pk + 1}).status_code == 400
    # Another user's preview is not theirs to confirm, nor to follow.
    assert outsider_client.post(reverse("data:import_confirm"),
                                {"job": job.pk}).status_code == 400
    assert outsider_client.get(reverse("data:import_job", args=[job.pk])).status_code == 404
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_a_file_over_40_mb_is_refused_by_the_page(en_client):
    big = upload("good.csv", GOOD.encode() + b"\n" * importing.MAX_BYTES)
    response = en_client.post(reverse("data:import_preview"), {**form(), "file": big})
    assert response.status_code == 422
    assert "The file is larger than 40 MB, the most one import reads." in (
        response.content.decode())
    assert counts() == (0,) * 7


@pytest.mark.django_db
def test_wrong_methods_are_refused(en_client):
    assert en_client.post(reverse("data:import"), form()).status_code == 405
    assert en_client.get(reverse("data:import_preview")).status_code == 405
    assert en_client.get(reverse("data:import_confirm")).status_code == 405
