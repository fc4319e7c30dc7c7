"""Results not yet signed by both players (players_sign) count in the standings and the bracket
and are marked provisional there, on the projector, the club night page and the printed
standings; one query decides (`table_entry.provisional_results`).

Worked by hand: a four-player round robin, round 1 has two matches. The players of table 1
enter "A3 A3 A2 A3" (seat A wins 11:0) and both sign: final. The players of table 2 enter
"B3 B3 B2 B3" (seat B wins 11:0) and nobody signs: provisional. Both results count: each
winner has played 1, won 1, 11 game points for and 0 against; each loser played 1, won 0,
0 for and 11 against. Exactly the two rows of table 2 carry the mark; the count says 1.
"""

import datetime
import random
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from events import services
from events.models import Entry, EntryMode, Pairing, Tournament
from formats.club_night import services as club_nights
from printing import documents
from tableside import table_entry
from tableside.models import MatchTable
from tests.commits import committed
from tests.formats.test_knockout_services import at
from tests.formats.test_knockout_services import started as knockout_started
from tests.printing.helpers import html_text
from tests.tableside.test_table_entry import enter, set_mode

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
COUNT_EN = "1 result is provisional: the players entered it and have not both signed it yet."
COUNT_BG = "1 резултат е предварителен: играчите са го въвели, но още не са го подписали и двамата."
MARK_TITLE_EN = "Counts a result not yet signed by both players"
MARK_TITLE_BG = "Включва резултат, който още не е подписан от двамата играчи"


def browser(language="en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


@pytest.fixture
def four(organiser, home_club, players) -> Tournament:
    """A four-player round robin under players_sign, started: round 1 has tables 1 and 2."""
    tournament = Tournament.objects.create(
        name="Купа Родопи", date=datetime.date(2026, 12, 5), club=home_club,
        format=Tournament.Format.ROUND_ROBIN, entry_mode=EntryMode.PLAYERS_SIGN,
    )
    tournament.organisers.add(organiser)
    for number, player in enumerate(players[:4], start=1):
        Entry.objects.create(tournament=tournament, player=player, number=number)
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


def pairing(tournament, table, number=1) -> Pairing:
    return Pairing.objects.select_related("entry_a__player", "entry_b__player", "match").get(
        round__tournament=tournament, round__number=number, table=table)


@pytest.fixture
def one_unsigned(four):
    """Table 1 entered and signed by both (final); table 2 entered, not signed."""
    signed, unsigned = pairing(four, 1), pairing(four, 2)
    enter(signed.match, "A3 A3 A2 A3")
    table_entry.result_sign(match=signed.match, seat="A")
    table_entry.result_sign(match=signed.match, seat="B")
    enter(unsigned.match, "B3 B3 B2 B3", seat="B")
    return signed, unsigned


def rows_by_name(html: str) -> dict[str, str]:
    """Each standings row's HTML by the player named in it."""
    table = html[html.index('class="standings"'):]
    rows = re.findall(r"<tr[^>]*>.*?</tr>", table[:table.index("</table>")], flags=re.S)
    return {name: row for row in rows for name in re.findall(r'<a href="[^"]+">([^<]+)</a>', row)}


def numbers(row: str) -> list[str]:
    return re.findall(r'<td class="num">([^<]*)</td>', row)


def marked(html: str) -> set[str]:
    return {name for name, row in rows_by_name(html).items() if "unsigned-mark" in row}


def test_the_standings_count_an_unsigned_result_and_mark_its_two_rows(four, one_unsigned):
    signed, unsigned = one_unsigned
    html = browser().get(reverse("standings:standings", args=[four.pk])).content.decode()
    rows = rows_by_name(html)
    for winner, loser in ((signed.entry_a, signed.entry_b), (unsigned.entry_b, unsigned.entry_a)):
        # rank, played, won, lost, GP for, GP against, GP diff (tie-breaks follow)
        assert numbers(rows[winner.player.name])[1:7] == ["1", "1", "0", "11", "0", "11"]
        assert numbers(rows[loser.player.name])[1:7] == ["1", "0", "1", "0", "11", "-11"]
    assert marked(html) == {unsigned.entry_a.player.name, unsigned.entry_b.player.name}
    assert len(re.findall(r"<tr class=\"unsigned (odd|even)\">", html)) == 2
    assert COUNT_EN in html and MARK_TITLE_EN in html


def test_the_standings_say_it_in_bulgarian(four, one_unsigned):
    html = browser("bg").get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert COUNT_BG in html and MARK_TITLE_BG in html
    assert len(marked(html)) == 2


def test_two_unsigned_results_are_counted_as_two(four, one_unsigned):
    signed, _unsigned = one_unsigned
    MatchTable.objects.filter(match=signed.match).update(signed_a=None, signed_b=None)
    html = browser().get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert "2 results are provisional" in html
    assert len(marked(html)) == 4


@pytest.mark.parametrize("how", ["signed", "approved"])
def test_a_final_result_is_not_marked_and_the_live_part_shows_it(four, one_unsigned,
                                                                organiser, how):
    _signed, unsigned = one_unsigned
    url = reverse("standings:standings", args=[four.pk])
    client = browser()
    first = client.get(url, **HTMX)
    assert COUNT_EN in first.content.decode()
    version = Tournament.objects.get(pk=four.pk).version
    with committed():
        if how == "signed":
            table_entry.result_sign(match=unsigned.match, seat="A")
            table_entry.result_sign(match=unsigned.match, seat="B")
        else:
            table_entry.result_approve(match=unsigned.match, by=organiser)
    assert Tournament.objects.get(pk=four.pk).version > version  # the stream says changed
    fetched = client.get(url, **HTMX)  # the part fetched again, shared or not
    html = fetched.content.decode()
    assert "provisional" not in html and marked(html) == set()


def test_one_signature_of_two_keeps_it_provisional(four, one_unsigned):
    _signed, unsigned = one_unsigned
    table_entry.result_sign(match=unsigned.match, seat="B")
    html = browser().get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert COUNT_EN in html


@pytest.mark.parametrize("mode", [EntryMode.PLAYERS_TRUSTED, EntryMode.ORGANISER])
def test_under_trusted_and_organiser_modes_nothing_is_provisional(four, mode):
    set_mode(four, EntryMode.PLAYERS_TRUSTED)
    enter(pairing(four, 2).match, "B3 B3 B2 B3", seat="B")  # players_entered, nobody signs
    set_mode(four, mode)
    html = browser().get(reverse("standings:standings", args=[four.pk])).content.decode()
    assert "provisional" not in html and "unsigned-mark" not in html
    assert table_entry.provisional_matches(four) == set()


def test_the_organisers_own_entry_needs_no_signature(four, organiser):
    from tests.printing.helpers import ELEVEN_NIL, play
    play(pairing(four, 1).match, ELEVEN_NIL)  # the match page: no players_entered
    assert table_entry.provisional_matches(four) == set()


def test_result_state_and_the_query_agree(four, one_unsigned):
    mode = four.entry_mode
    states = {}
    for p in Pairing.objects.filter(round__tournament=four).select_related("match"):
        table = MatchTable.objects.filter(match=p.match).first()
        states[p.match_id] = table_entry.result_state(p.match, mode, table)
    provisional = table_entry.provisional_matches(four)
    assert provisional == {m for m, s in states.items()
                           if s in (table_entry.AWAITING, table_entry.DISPUTED)}
    assert provisional == {one_unsigned[1].match_id}


def matchtable_queries(context) -> int:
    return sum(1 for query in context.captured_queries
               if "tableside_matchtable" in query["sql"])


def test_the_standings_ask_one_query_whatever_the_number_of_results(four, one_unsigned):
    # Both rounds played (four results); counted once all signed, once none signed: the same
    # queries, one of them on the tables.
    signed, unsigned = one_unsigned
    for table in (1, 2):
        enter(pairing(four, table, number=2).match, "A3 A3 A2 A3")
    url = reverse("standings:standings", args=[four.pk])
    client = browser()
    MatchTable.objects.update(signed_a=datetime.datetime(2026, 12, 5, tzinfo=datetime.UTC),
                              signed_b=datetime.datetime(2026, 12, 5, tzinfo=datetime.UTC))
    assert table_entry.provisional_matches(four) == set()
    cache.clear()  # the template's cached table and race
    with CaptureQueriesContext(connection) as none_unsigned:
        client.get(url + "?none")
    MatchTable.objects.update(signed_a=None, signed_b=None)
    assert len(table_entry.provisional_matches(four)) == 4
    cache.clear()
    with CaptureQueriesContext(connection) as four_unsigned:
        html = client.get(url + "?four").content.decode()
    assert "4 results are provisional" in html
    assert matchtable_queries(none_unsigned) == matchtable_queries(four_unsigned) == 1
    assert len(none_unsigned.captured_queries) == len(four_unsigned.captured_queries)


def test_the_printed_standings_carry_a_footnote(four, one_unsigned):
    document = documents.standings_document(four, "en")
    assert document.unsigned == 1
    text = html_text(document)
    assert ("* 1 result not yet signed by both players: it counts already, in the rows "
            "marked *.") in text
    assert sum(1 for row in document.rows if row["unsigned"]) == 2
    bg = html_text(documents.standings_document(four, "bg"))
    assert "1 резултат още не е подписан от двамата играчи" in bg


def test_the_printed_standings_have_no_footnote_when_all_is_signed(four):
    assert "not yet signed" not in html_text(documents.standings_document(four, "en"))


def test_the_projector_marks_the_rows_and_the_score(four):
    enter(pairing(four, 2).match, "B3 B3 B2 B3", seat="B")  # table 1 still to play: round 1 shows
    html = browser().get(reverse("live:projector", args=[four.pk])).content.decode()
    assert COUNT_EN in html
    assert html.count(f'title="{MARK_TITLE_EN}"') == 2
    assert html.count('title="provisional: not signed yet">*</abbr>') == 1  # the score


# --- the knockout ---------------------------------------------------------------------------


@pytest.fixture
def cup(organiser):
    """Four players: semifinals 1-4 (index 0) and 2-3 (index 1), then the final."""
    tournament = knockout_started(4)
    tournament.entry_mode = EntryMode.PLAYERS_SIGN
    tournament.save(update_fields=["entry_mode"])
    tournament.organisers.add(organiser)
    return tournament


def test_the_winner_of_an_unsigned_semifinal_goes_on_marked(cup):
    semifinal = at(cup, 1, 0)
    enter(semifinal.match, "A3 A3 A2 A3")  # seed 1 wins 11:0, nobody signs
    final = at(cup, 2, 0)
    assert final.entry_a == semifinal.entry_a  # advanced: the final can be played
    html = browser().get(reverse("knockout:bracket", args=[cup.pk])).content.decode()
    assert html.count("bm-unsigned") == 1
    box = html[html.index("bm-unsigned"):]
    box = box[:box.index("</article>")]
    name = semifinal.entry_a.player.name
    assert f'{name} <abbr class="unsigned-mark" title="provisional: not signed yet">*</abbr>' in box
    assert "1 result is provisional" in html and "Its winner (marked *) goes on" in html
    table_entry.result_sign(match=semifinal.match, seat="A")
    table_entry.result_sign(match=semifinal.match, seat="B")
    html = browser().get(reverse("knockout:bracket", args=[cup.pk])).content.decode()
    assert "bm-unsigned" not in html and "provisional" not in html


def test_the_bracket_in_bulgarian_and_on_the_projector(cup):
    enter(at(cup, 1, 1).match, "B3 B3 B2 B3", seat="B")
    html = browser("bg").get(reverse("knockout:bracket", args=[cup.pk])).content.decode()
    assert "1 резултат е предварителен" in html and "Победителят (отбелязан със *)" in html
    html = browser().get(reverse("live:projector", args=[cup.pk])).content.decode()
    assert "bm-unsigned" in html and "Its winner (marked *) goes on" in html


def test_an_unsigned_final_marks_the_champion(cup):
    enter(at(cup, 1, 0).match, "A3 A3 A2 A3")
    enter(at(cup, 1, 1).match, "A3 A3 A2 A3")
    final = at(cup, 2, 0)
    enter(final.match, "A3 A3 A2 A3")
    html = browser().get(reverse("knockout:bracket", args=[cup.pk])).content.decode()
    podium = html[html.index('class="podium"'):html.index("</dl>")]
    assert f'{final.entry_a.player.name} <abbr class="unsigned-mark"' in podium
    assert "3 results are provisional" in html


# --- the club night -------------------------------------------------------------------------


def test_the_club_night_marks_an_unsigned_result(organiser, home_club, players):
    from scoring import rules
    night = club_nights.club_night_create(
        club=home_club, date=datetime.date(2026, 12, 11), name="Вечер", organiser=organiser,
        house_rules=rules.HouseRules(),
    )
    first = club_nights.club_night_pair(night=night, player_a=players[0], player_b=players[1],
                                        table=1, by=organiser)
    second = club_nights.club_night_pair(night=night, player_a=players[2], player_b=players[3],
                                         table=2, by=organiser)
    enter(first.match, "A3 A3 A2 A3")
    enter(second.match, "A3 A3 A2 A3")
    table_entry.result_sign(match=second.match, seat="A")
    table_entry.result_sign(match=second.match, seat="B")
    html = browser().get(reverse("nights:detail", args=[night.pk])).content.decode()
    assert COUNT_EN in html
    assert marked(html) == {players[0].name, players[1].name}
    assert html.count('title="provisional: not signed yet">*</abbr>') == 1
