"""Whatever a cell of a deal log holds, the importer answers `line N: message` in the user's
language: never an exception, a traceback or a 500. Hypothesis throws arbitrary text at each
cell; the hardest cases (a number of thousands of digits, control characters in a
name) are also written out by hand."""

import csv
import datetime
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from events.models import Tournament
from exchange import importing
from exchange.importing import COLUMNS, import_plan_apply, parse_deal_log
from scoring import rules

ROW = ["1", "1", "Анна", "Борис", "1", "A", "1", "won"]
"""A good deal row; each test spoils one cell."""
LINE = {"en": re.compile(r"line \d+: \S"), "bg": re.compile(r"ред \d+: \S")}
"""How every error of a file that is not too large starts, in each language."""
MORE = {"en": re.compile(r"… and \d+ more errors?\.$"),
        "bg": re.compile(r"… и още \d+ грешк[аи]\.$")}
"""The last line when more than `importing.MAX_ERRORS` errors are found."""
NAME_MAX = 120  # club.Player.name


def deal_log(*rows: list[str]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows([list(COLUMNS), *rows])
    return out.getvalue().encode("utf-8")


def with_cell(column: int, value: str) -> bytes:
    row = list(ROW)
    row[column] = value
    return deal_log(row)


def errors_in(language: str, data: bytes) -> list[str]:
    with translation.override(language):
        return parse_deal_log(data).errors


def assert_line_errors(language: str, errors: list[str]) -> None:
    """Each error is `line N: ...`; a last `… and N more errors.` may count the rest."""
    if errors and len(errors) > importing.MAX_ERRORS:
        assert MORE[language].match(errors[-1]), errors[-1]
        errors = errors[:-1]
    for error in errors:
        assert LINE[language].match(error), error


# --------------------------------------------------------------------------------------------
# By hand
# --------------------------------------------------------------------------------------------

THOUSANDS_OF_DIGITS = "1" * 5000  # int() refuses more than 4,300 digits (Python 3.11)
SHOWN = "1" * 39 + "…"  # the message quotes the first 39 of them


@pytest.mark.parametrize("column, low, high", [
    ("round", 1, 999), ("table", 1, 999), ("deal", 1, 999), ("game_points", 0, 999),
])
def test_a_number_of_thousands_of_digits_is_out_of_range(column, low, high):
    data = with_cell(COLUMNS.index(column), THOUSANDS_OF_DIGITS)
    assert errors_in("en", data)[0] == (
        f"line 2: {column} must be from {low} to {high}, not {SHOWN}."
    )
    assert errors_in("bg", data)[0] == (
        f"ред 2: {column} трябва да е от {low} до {high}, а не {SHOWN}."
    )


def test_leading_zeros_are_read_however_many():
    data = with_cell(COLUMNS.index("round"), "0" * 5000 + "7")
    plan = parse_deal_log(data)
    assert plan.errors == [] and plan.rounds == [7]


@pytest.mark.parametrize("char, code", [("\x00", "U+0000"), ("\x07", "U+0007"),
                                        ("\x1b", "U+001B"), ("\x7f", "U+007F"),
                                        ("\x9b", "U+009B")])
def test_a_control_character_in_a_name_is_refused(char, code):
    data = with_cell(COLUMNS.index("player_b"), f"Бо{char}рис")
    assert errors_in("en", data) == [
        f"line 2: player_b contains the control or invisible character {code}; a name is "
        "plain text."
    ]
    assert errors_in("bg", data) == [
        f"ред 2: player_b съдържа управляващия или невидимия знак {code}; името е обикновен "
        "текст."
    ]


def test_spaces_of_any_kind_in_a_name_become_one_space():
    data = with_cell(COLUMNS.index("player_a"), "\u00a0Анна\t\u2003 Иванова\x1f")
    plan = parse_deal_log(data)
    assert plan.errors == [] and plan.players == ["Анна Иванова", "Борис"]


def test_a_name_longer_than_a_player_name_is_refused():
    assert NAME_MAX == importing.NAME_MAX_LENGTH
    data = with_cell(COLUMNS.index("player_a"), "Я" * (NAME_MAX + 1))
    assert errors_in("en", data) == ["line 2: player_a is longer than 120 characters."]
    assert errors_in("bg", data) == ["ред 2: player_a е по-дълго от 120 знака."]
    assert parse_deal_log(with_cell(COLUMNS.index("player_a"), "Я" * NAME_MAX)).errors == []


def test_a_bad_value_is_quoted_short_and_without_its_control_characters():
    data = with_cell(COLUMNS.index("reason"), "\x00" + "x" * 1000)
    assert errors_in("en", data)[0] == (
        "line 2: unknown reason “\ufffd" + "x" * 38 + "…”; use one of: won, schneider, capot, "
        "false_claim, closer_failed, opponent_out_after_close, last_trick, draw."
    )


def test_a_formula_guard_of_the_export_is_taken_off_a_name():
    data = deal_log(["1", "1", "'=HYPERLINK(\"x\")", "'-Вера", "1", "A", "1", "won"],
                    ["1", "2", "'Иван", "Мария", "1", "A", "1", "won"])
    assert parse_deal_log(data).players == ['=HYPERLINK("x")', "-Вера", "'Иван", "Мария"]


@pytest.mark.django_db
def test_the_command_answers_line_errors_for_such_cells(tmp_path):
    path = tmp_path / "deals.csv"
    path.write_bytes(deal_log(
        ["1", "1", "Ан\x00на", "Борис", "1", "A", THOUSANDS_OF_DIGITS, "won"],
    ))
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(path), "--name", "X")
    assert str(error.value).splitlines()[1:] == [
        "line 2: player_a contains the control or invisible character U+0000; a name is "
        "plain text.",
        f"line 2: game_points must be from 0 to 999, not {SHOWN}.",
    ]
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("language, expected", [
    ("en", "line 2: round must be from 1 to 999, not " + SHOWN),
    ("bg", "ред 2: round трябва да е от 1 до 999, а не " + SHOWN),
], ids=["en", "bg"])
def test_the_upload_answers_422_with_line_errors_for_such_cells(
    organiser_client, language, expected
):
    organiser_client.cookies["django_language"] = language
    data = deal_log([THOUSANDS_OF_DIGITS, "1", "Анна", "Бо\x00рис", "1", "A", "1", "won"])
    response = organiser_client.post(reverse("data:import_preview"), {
        "file": SimpleUploadedFile("deals.csv", data, content_type="text/csv"),
        "name": "Купа", "date": "2026-12-05", "rules": "default",
    })
    assert response.status_code == 422
    assert expected in response.content.decode()
    assert "U+0000" in response.content.decode()
    assert not Tournament.objects.exists()


# --------------------------------------------------------------------------------------------
# Anything at all
# --------------------------------------------------------------------------------------------

ANY_CELL = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(max_codepoint=0x9F)),  # control characters, NUL included
    st.text(alphabet="0123456789+-., eE\u0660\u00b2", max_size=30),
    st.integers(min_value=4290, max_value=4400).map(lambda n: "9" * n),
    st.integers(min_value=NAME_MAX - 2, max_value=NAME_MAX + 2).map(lambda n: "Й" * n),
    st.sampled_from(["", " ", "A", "b", "draw", "DRAW", "0", "3", "999", "1000", "-1",
                     "'=1+1", "=1+1", "\ufeffround"]),
)


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(column=st.sampled_from(range(len(COLUMNS))), value=ANY_CELL,
       header=st.booleans())
@example(column=0, value=THOUSANDS_OF_DIGITS, header=False)
@example(column=2, value="\x00", header=False)
@pytest.mark.parametrize("language", ["en", "bg"])
def test_any_cell_gets_line_errors_and_nothing_else(language, column, value, header):
    """`header`: spoil the header's cell instead of the row's."""
    if header:
        names = list(COLUMNS)
        names[column] = value
        out = io.StringIO()
        csv.writer(out).writerows([names, ROW])
        data = out.getvalue().encode("utf-8")
    else:
        data = with_cell(column, value)
    assert_line_errors(language, errors_in(language, data))


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(), st.text().map(lambda text: text.encode("utf-8")),
                      st.lists(st.lists(ANY_CELL, max_size=10), max_size=6).map(
                          lambda rows: deal_log(*rows))))
@pytest.mark.parametrize("language", ["en", "bg"])
def test_any_file_gets_line_errors_and_nothing_else(language, data):
    assert_line_errors(language, errors_in(language, data))


@pytest.mark.django_db
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name_a=ANY_CELL, name_b=ANY_CELL)
@example(name_a="Ан\x00на", name_b="Борис")
def test_names_the_reader_accepts_are_written(name_a, name_b):
    """Whatever names pass the reader, the database takes them (PostgreSQL refuses NUL in
    text, so the PostgreSQL pass checks the reader keeps NUL out)."""
    plan = parse_deal_log(deal_log(["1", "1", name_a, name_b, "1", "A", "1", "won"]))
    if plan.errors:
        return
    with transaction.atomic():
        tournament = import_plan_apply(
            plan=plan, name="Купа", date=datetime.date(2026, 12, 5),
            house_rules=rules.HouseRules(), organiser=None,
        )
        names = sorted(entry.player.name for entry in tournament.entries.all())
        assert names == sorted(plan.players)
        transaction.set_rollback(True)
