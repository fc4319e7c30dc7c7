"""FIDE's tournament report file (TRF-16): a six-player Swiss of three rounds written out,
read back as a new event and written out again; and files refused whole.

The Swiss (a bye scores a win; seat A dealt first, so seat A is White):
  Round 1: Ana beats Boris, Vera beats Dimo, Elena has the bye; Filip has not entered (not
  paired).
  Round 2: Ana beats Vera, Filip beats Elena, Boris beats Dimo by forfeit.
  Dimo withdraws. Round 3: Filip beats Ana, Boris beats Elena, Vera has the bye.
Points: Ana 2, Boris 2 (a forfeit win), Vera 2 (a bye), Dimo 0, Elena 1 (a bye), Filip 2.
Ranks (FIDE C.07 (2023), docs/swiss.md): among the 2s, Buchholz Ana 6.0 (Boris 2 + Vera 2 +
Filip 2), Boris 5.0 (Ana 2 + own 2 for the forfeit win + Elena 1), Filip 5.0 (own 2 for the
round missed + Elena 1 + Ana 2), Vera 4.5 (Dimo ½ + Ana 2 + own 2 for the bye); Boris and
Filip split by Buchholz cut 1: Boris cuts Elena's 1 (4.0), Filip cuts his missed round's 2
(3.0). So Ana 1, Boris 2, Filip 3, Vera 4, Elena 5, Dimo 6.
"""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone, translation

from club.models import Player
from events.models import Entry, Pairing, Round, Tournament
from exchange.exporting import standings_dataset
from exchange.trf import parse_trf, trf_import, trf_text
from scoring.models import Match, Seat

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera", "Dimo", "Elena", "Filip"]

# Columns (1-based) per the TRF-16 player record: 1-3 "001", 5-8 start number, 10 sex,
# 11-13 title, 15-47 name, 49-52 rating, 54-56 federation, 58-68 FIDE id, 70-79 birth date,
# 81-84 points, 86-89 rank; round r at 92 + 10(r-1): opponent (4), blank, colour, blank,
# result. Between the name's last column (47) and the points (81) lie 33 blank columns.
GAP = " " * 33
EXPECTED = "\n".join([
    "012 Plovdiv Open",
    "022 Plovdiv",
    "042 2026/03/14",
    "052 2026/03/15",
    "062 6",
    "092 Individual: Swiss-System",
    "XXR 3",
    "001    1      " + "Ana".ljust(33) + GAP + " 2.0    1" + "     2 w 1     3 w 1     6 b 0",
    "001    2      " + "Boris".ljust(33) + GAP + " 2.0    2" + "     1 b 0     4 w +     5 w 1",
    "001    3      " + "Vera".ljust(33) + GAP + " 2.0    4" + "     4 w 1     1 b 0  0000 - F",
    "001    4      " + "Dimo".ljust(33) + GAP + " 0.0    6" + "     3 b 0     2 b -  0000 - Z",
    "001    5      " + "Elena".ljust(33) + GAP + " 1.0    5" + "  0000 - F     6 b 0     2 b 0",
    "001    6      " + "Filip".ljust(33) + GAP + " 2.0    3" + "  0000 - Z     5 w 1     1 w 1",
]) + "\n"


@pytest.fixture
def swiss() -> Tournament:
    tournament = Tournament.objects.create(
        name="Plovdiv Open", date=datetime.date(2026, 3, 14), venue="Plovdiv",
        format=Tournament.Format.SWISS, status=Tournament.Status.FINISHED, swiss_rounds=3,
        records="final_score",
    )
    entries = {}
    for number, name in enumerate(NAMES, start=1):
        entries[name] = Entry.objects.create(
            tournament=tournament, player=Player.objects.create(name=name), number=number,
            lot=number, withdrawn=name == "Dimo",
        )
    finished = timezone.make_aware(datetime.datetime(2026, 3, 15, 18, 0))
    schedule = {
        1: [("Ana", "Boris", "finished"), ("Vera", "Dimo", "finished"), ("Elena", None, "")],
        2: [("Ana", "Vera", "finished"), ("Filip", "Elena", "finished"),
            ("Boris", "Dimo", "forfeited")],
        3: [("Filip", "Ana", "finished"), ("Boris", "Elena", "finished"), ("Vera", None, "")],
    }
    for number, pairs in schedule.items():
        round_ = Round.objects.create(tournament=tournament, number=number)
        for table, (a, b, status) in enumerate(pairs, start=1):
            if b is None:
                Pairing.objects.create(round=round_, entry_a=entries[a])
                continue
            match = Match.objects.create(
                player_a=entries[a].player, player_b=entries[b].player, first_dealer=Seat.A,
                status=status, winner=Seat.A, finished_at=finished,
                game_points_a=11 if status == "finished" else 0,
            )
            Pairing.objects.create(round=round_, table=table, entry_a=entries[a],
                                   entry_b=entries[b], match=match)
    return tournament


def test_the_report_of_a_swiss_with_a_bye_a_forfeit_a_late_entry_and_a_withdrawal(swiss):
    text = trf_text(swiss)
    assert text == EXPECTED
    ana = text.splitlines()[7]
    assert (ana[0:3], ana[4:8], ana[80:84], ana[85:89]) == ("001", "   1", " 2.0", "   1")
    assert (ana[91:95], ana[96], ana[98], ana[101:105]) == ("   2", "w", "1", "   3")


def test_the_command_prints_the_report(swiss):
    out = io.StringIO()
    call_command("standings", str(swiss.pk), "--format", "trf", stdout=out)
    assert out.getvalue() == EXPECTED


def test_a_file_read_back_writes_the_same_file(swiss, tmp_path):
    path = tmp_path / "open.trf"
    path.write_text(trf_text(swiss), encoding="utf-8")
    out = io.StringIO()
    call_command("import_trf", str(path), stdout=out)
    new = Tournament.objects.get(pk=int(out.getvalue().strip().splitlines()[-1]))
    assert new.pk != swiss.pk
    # Byte for byte: no line must differ (the dates are the event's, not the export's).
    assert trf_text(new) == EXPECTED
    assert (new.format, new.swiss_rounds, new.bye_scores_win, new.status) == (
        "swiss", 3, True, "finished")
    assert list(new.entries.filter(withdrawn=True).values_list("player__name", flat=True)) == [
        "Dimo"]
    assert Match.objects.filter(pairing__round__tournament=new, status="forfeited").count() == 1


def test_a_file_with_zero_point_byes_reads_back_as_an_event_whose_bye_scores_nothing():
    line = "001    {n}      {name}" + GAP + " {p}.0    {r}  {block}"
    text = "\n".join([
        "012 Small", "042 2026/01/02", "092 Individual: Swiss-System",
        line.format(n=1, name="Ana".ljust(33), p=1, r=1, block="   2 w 1"),
        line.format(n=2, name="Boris".ljust(33), p=0, r=2, block="   1 b 0"),
        line.format(n=3, name="Vera".ljust(33), p=0, r=3, block="0000 - U"),
    ]) + "\n"
    plan = parse_trf(text.encode())
    assert plan.errors == []
    assert plan.bye_scores_win is False
    new = trf_import(plan)
    assert new.bye_scores_win is False
    assert trf_text(new).splitlines()[-1].endswith("0000 - U")


def test_a_bad_file_is_refused_whole_with_every_problem_by_line(tmp_path):
    good = "001    1      " + "Ana".ljust(33) + GAP + " 1.0    1" + "     2 w 1"
    text = "\n".join([
        "012 Broken",                                                              # 1
        "042 14.03.2026",                                                          # 2
        "092 Individual: Swiss-System",                                            # 3
        good,                                                                      # 4
        "001    2      " + "Boris".ljust(33) + GAP + " 0.0    2" + "     1 w 0",    # 5 colour
        "001    3      " + "Vera".ljust(33) + GAP + " 1.0    3" + "  0000 - =",     # 6 a draw
        "007 what",                                                                # 7
    ]) + "\n"
    path = tmp_path / "broken.trf"
    path.write_text(text, encoding="utf-8")
    before = Tournament.objects.count()
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_trf", str(path), stdout=io.StringIO(), stderr=err)
    shown = err.getvalue()
    assert "line 2: write the date as YYYY/MM/DD." in shown
    assert "line 6: round 1: " in shown and "no draws" in shown
    assert "line 7: a line must start with 001" in shown
    assert Tournament.objects.count() == before
    assert Player.objects.count() == 0


def test_results_the_two_sides_disagree_on_are_refused():
    text = "\n".join([
        "012 Twice", "042 2026/01/02", "092 Individual: Swiss-System",
        "001    1      " + "Ana".ljust(33) + GAP + " 1.0    1" + "     2 w 1",
        "001    2      " + "Boris".ljust(33) + GAP + " 1.0    1" + "     1 b 1",
        "001    3      " + "Vera".ljust(33) + GAP + " 3.0    3" + "  0000 - F",
    ]) + "\n"
    with translation.override("en"):
        errors = parse_trf(text.encode()).errors
    assert errors == [
        "line 4: round 1: the result '1' does not match the opponent's '1'.",
        "line 5: round 1: the result '1' does not match the opponent's '1'.",
        "line 6: the points say 3.0 but the results add up to 1.0.",
    ]


def test_the_swiss_standings_csv_has_the_fide_tie_break_columns(swiss):
    headers = standings_dataset(swiss).headers
    for name in ("buchholz", "buchholz_cut_1", "median_buchholz", "sonneborn_berger",
                 "progressive_score"):
        assert name in headers


def test_a_knockout_has_no_report():
    knockout = Tournament.objects.create(name="Cup", date=datetime.date(2026, 1, 1),
                                         format=Tournament.Format.KNOCKOUT)
    with pytest.raises(CommandError):
        call_command("standings", str(knockout.pk), "--format", "trf", stdout=io.StringIO())


def test_a_round_robin_with_rests_an_unplayed_match_and_one_not_over_reads_back_the_same():
    # Three players. Round 1: Boris (seat B) dealt first and beat Ana 11:5; Vera rests.
    # Round 2: Ana - Vera closed unplayed (a withdrawal); Boris rests. Round 3: Boris - Vera
    # not over; Ana rests. Wins: Boris 1, Ana 0, Vera 0; Ana and Vera never met over the
    # board, so game points split them: Vera 0:0, Ana 5:11. Ranks Boris 1, Vera 2, Ana 3.
    event = Tournament.objects.create(
        name="Club cup", date=datetime.date(2026, 2, 1), format=Tournament.Format.ROUND_ROBIN,
        status=Tournament.Status.RUNNING,
    )
    entries = [Entry.objects.create(tournament=event, player=Player.objects.create(name=name),
                                    number=number, lot=number)
               for number, name in enumerate(["Ana", "Boris", "Vera"], start=1)]
    ana, boris, vera = entries
    finished = timezone.make_aware(datetime.datetime(2026, 2, 1, 20, 0))
    for number, (a, b, rest, first, status, winner) in enumerate([
        (ana, boris, vera, Seat.B, "finished", Seat.B),
        (ana, vera, boris, Seat.A, "unplayed", ""),
        (boris, vera, ana, Seat.A, "scheduled", ""),
    ], start=1):
        round_ = Round.objects.create(tournament=event, number=number)
        match = Match.objects.create(
            player_a=a.player, player_b=b.player, first_dealer=first, status=status,
            winner=winner, finished_at=finished if status == "finished" else None,
            game_points_a=5 if number == 1 else 0, game_points_b=11 if number == 1 else 0,
        )
        Pairing.objects.create(round=round_, table=1, entry_a=a, entry_b=b, match=match)
        Pairing.objects.create(round=round_, entry_a=rest)
    expected = "\n".join([
        "012 Club cup", "042 2026/02/01", "052 2026/02/01", "062 3",
        "092 Individual: Round robin",
        "001    1      " + "Ana".ljust(33) + GAP + " 0.0    3" + "     2 b 0     3 w -  0000 - U",
        "001    2      " + "Boris".ljust(33) + GAP + " 1.0    1" + "     1 w 1  0000 - U     3 w",
        "001    3      " + "Vera".ljust(33) + GAP + " 0.0    2" + "  0000 - U     1 b -     2 b",
    ]) + "\n"
    assert trf_text(event) == expected
    plan = parse_trf(expected.encode())
    assert plan.errors == []
    new = trf_import(plan)
    assert (new.format, new.status) == ("round_robin", "running")
    assert trf_text(new) == expected
