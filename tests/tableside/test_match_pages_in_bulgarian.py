"""The match pages in Bulgarian: every sentence of their partials
(templates/tableside/partials/match_*.html) has its Bulgarian translation, and the
organiser's match page, its answers to a deal post and the players' page show it, with no
English sentence left; names and texts the users typed are drawn as text."""

import ast
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation.template import templatize

from events import services as tournament_services
from events.models import Pairing, Records
from ratings.models import PlayerRating
from scoring import rules, services
from tableside import table_entry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PARTIALS = sorted(
    (Path(settings.BASE_DIR) / "tableside/templates/tableside/partials").glob("*.html"))
MATCH_PARTIALS = [path for path in PARTIALS
                  if path.name.startswith("match_") or path.name == "chart_match_race.html"]
SAME_IN_BULGARIAN = {"+"}  # the deal list's game-points column
REASON = {1: "won", 2: "schneider", 3: "capot"}


def messages_of(path: Path) -> list[str]:
    """Every message id a template asks the catalogue for, as `makemessages` finds them."""
    code = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    return [ast.literal_eval(quoted) for quoted in
            re.findall(r"gettext\((u'(?:[^'\\]|\\.)*')\)", code)]


ENGLISH = sorted({message for path in MATCH_PARTIALS for message in messages_of(path)}
                 - SAME_IN_BULGARIAN)


def test_there_are_partials_and_each_asks_for_messages():
    assert len(MATCH_PARTIALS) >= 19
    form = next(path for path in MATCH_PARTIALS if path.name == "match_form.html")
    assert "Save deal %(number)s" in messages_of(form)


@pytest.mark.parametrize("path", MATCH_PARTIALS, ids=lambda path: path.name)
def test_every_message_of_a_partial_has_its_bulgarian_sentence(path):
    with translation.override("bg"):
        untranslated = [message for message in messages_of(path)
                        if translation.gettext(message) == message
                        and message not in SAME_IN_BULGARIAN]
    assert untranslated == []


class _Shown(HTMLParser):
    """The text a reader gets from a page: its text and the attributes read out or shown."""

    READ = {"title", "aria-label", "data-confirm", "placeholder", "alt"}

    def __init__(self):
        super().__init__()
        self.parts = []

    def handle_starttag(self, tag, attrs):
        self.parts += [value for name, value in attrs if name in self.READ and value]

    def handle_data(self, data):
        self.parts.append(data)


def english_left_in(html: str) -> list[str]:
    """The partials' English sentences (each piece between its placeholders that has a word
    in it) that `html` shows."""
    parser = _Shown()
    parser.feed(html)
    shown = " ".join(" ".join(parser.parts).split())
    left = []
    for message in ENGLISH:
        for piece in re.split(r"%\([a-z_]+\)s|%%", message):
            piece = " ".join(piece.split())
            if re.search(r"[A-Za-z]{3}", piece) and piece in shown:
                left.append(message)
    return left


def bulgarian(client: Client) -> Client:
    client.cookies["django_language"] = "bg"
    return client


def record(match, *wins):
    for seat, points in wins:
        services.deal_record(match=match, score=rules.quick_result(seat, points, REASON[points]),
                             by=None)
    match.refresh_from_db()


def rate(player, rating, matches=20):
    PlayerRating.objects.create(player=player, rating=rating, deviation=50, volatility=0.06,
                                matches=matches, won=0, lost=matches, computed_at=timezone.now())


@pytest.fixture
def matches(tournament):
    tournament_services.tournament_start(tournament=tournament, rng=random.Random(1))
    return [pairing.match for pairing in Pairing.objects.filter(
        round__tournament=tournament, match__isnull=False).order_by("round__number", "table")]


def entry(client, match, **extra) -> str:
    response = client.get(reverse("matches:entry", args=[match.pk]), **extra)
    assert response.status_code == 200
    return response.content.decode()


def shown_digest(html: str) -> str:
    return re.search(r'name="shown" value="([0-9a-f]+)"', html).group(1)


def test_the_organisers_match_page_is_in_bulgarian(organiser_client, matches):
    match = matches[0]
    rate(match.player_a, 1700)
    rate(match.player_b, 1500, matches=3)
    record(match, ("A", 3), ("B", 1))
    html = entry(bulgarian(organiser_client), match)
    for sentence in ("Резултат в игрови точки", "Игра до 11", "Шанс за победа по рейтинг:",
                     "Запази раздаване 3", "Въведи точки от карти и взятки", "Раздавания",
                     f"раздава {match.player_a.name}", "Отмени последното раздаване",
                     "Да се изтрие ли раздаване 2? Историята го пази.",
                     "Игрови точки след всяко раздаване; пунктирната линия е целта, 11.",
                     "Връзка за играчите:", "История на промените"):
        assert sentence in html
    assert english_left_in(html) == []


def test_the_answers_to_deal_posts_are_in_bulgarian(organiser_client, matches):
    client = bulgarian(organiser_client)
    match = matches[0]
    url = reverse("matches:deal_add", args=[match.pk])
    first = client.post(url, {"number": 1, "winner": "A", "reason": "capot",
                              "shown": shown_digest(entry(client, match))}, **HTMX)
    second = client.post(url, {"number": 2, "winner": "B", "reason": "won",
                               "shown": shown_digest(entry(client, match))}, **HTMX)
    for response, number in ((first, 1), (second, 2)):
        assert response["HX-Retarget"] == "#match-head"
        html = response.content.decode()
        assert f"Раздаване {number} е записано." in html
        assert f"Раздаване {number} е въведено:" in html  # its change in the history
        assert f"Запази раздаване {number + 1}" in html
        assert english_left_in(html) == []
    refused = client.post(url, {"number": 3, "winner": "A"}, **HTMX)  # no reason: the panel
    assert refused.status_code == 422
    assert english_left_in(refused.content.decode()) == []
    details = client.get(reverse("matches:deal_details_form", args=[match.pk]))
    assert "Запази раздаване 3" in details.content.decode()
    assert english_left_in(details.content.decode()) == []


def test_the_deal_that_ends_the_match_is_answered_in_bulgarian(organiser_client, matches):
    client = bulgarian(organiser_client)
    match = matches[0]
    record(match, ("A", 3), ("A", 3), ("A", 3), ("A", 1))
    response = client.post(reverse("matches:deal_add", args=[match.pk]), {
        "number": 5, "winner": "A", "reason": "won", "shown": shown_digest(entry(client, match))},
        **HTMX)
    html = response.content.decode()
    assert f"{match.player_a.name} спечели мача 11:0." in html
    assert "Играчите на масата" in html and "Отмени връзката и създай нова" in html
    assert english_left_in(html) == []


def test_a_correction_and_a_final_score_are_asked_in_bulgarian(organiser_client, tournament,
                                                               matches):
    client = bulgarian(organiser_client)
    match = matches[0]
    record(match, ("A", 2))
    html = client.get(reverse("matches:deal_correct", args=[match.pk, 1])).content.decode()
    assert "Поправка на раздаване 1" in html and "Сега е записано:" in html
    assert "Запази поправката" in html
    assert english_left_in(html) == []
    tournament.records = Records.FINAL_SCORE
    tournament.save(update_fields=["records"])
    html = entry(client, matches[1])
    assert "Запиши крайния резултат" in html and "място A" in html
    assert english_left_in(html) == []


def test_the_players_page_is_in_bulgarian(matches):
    match = matches[0]
    token = table_entry.table_of(match).token
    phone = bulgarian(Client())
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    html = phone.get(f"/p/{token}/").content.decode()
    assert "Въведи точки от карти и взятки" in html and "Запази раздаване 1" in html
    assert english_left_in(html) == []
    phone.post(f"/p/{token}/deal/", {"number": 1, "winner": "A", "reason": "schneider",
                                     "game_points": 2})
    html = phone.get(f"/p/{token}/").content.decode()
    assert "Раздаване 1 е записано." in html and f"раздава {match.player_a.name}" in html
    assert english_left_in(html) == []


def test_names_and_a_dispute_are_drawn_as_text(organiser_client, matches):
    match = matches[0]
    match.player_a.name = "<b>Иван</b>"
    match.player_a.save()
    record(match, ("A", 3), ("A", 3), ("A", 3), ("A", 2))
    table_entry.result_dispute(match=match, seat="B", text="<i>грешка</i>", address="10.0.0.7")
    html = entry(bulgarian(organiser_client), match)
    assert "раздава &lt;b&gt;Иван&lt;/b&gt;" in html and "<b>Иван</b>" not in html
    assert "&lt;i&gt;грешка&lt;/i&gt;" in html and "<i>грешка</i>" not in html
