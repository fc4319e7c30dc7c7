"""Every page carries a Content-Security-Policy that allows no inline script or style, and a
Permissions-Policy; no page needs either (no inline <script>, <style>, style= or on*= handler).

The walk follows the links of the demo data (plus a draft tournament and a running club night,
whose pages show the setup forms and the confirm buttons) as an anonymous visitor and as the
demo organiser, at most a few pages per URL name."""

import datetime
from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import Resolver404, resolve

from club.models import Club
from events import services
from events.models import Entry, Tournament
from formats.club_night import services as club_nights
from scoring import rules
from server.demo import DEMO_CLUB, DEMO_ORGANISER, load_demo

pytestmark = pytest.mark.django_db

PAGES_PER_URL_NAME = 2
# Downloads (PDF, CSV, Excel) and the admin (Django's own pages) are not walked.
SKIPPED_PREFIXES = ("/admin/", "/media/", "/static/")
SKIPPED_URL_NAMES = {"printing:download", "logout"}


class InlineCode(HTMLParser):
    """Collects every tag that would need 'unsafe-inline' (or 'unsafe-eval' for hx-on)."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = {name for name, _value in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> block")
        for name, value in attrs:
            if name == "style":
                self.found.append(f"style= on <{tag}>")
            if name.startswith("on") or name.startswith("hx-on"):
                self.found.append(f"{name}= on <{tag}>")
            if tag == "a" and name == "href" and value:
                self.links.append(value)


def walk(client: Client, starts: list[str]) -> dict[str, str]:
    """Visit the site's pages reachable from `starts` (each start, then at most
    PAGES_PER_URL_NAME pages of each other URL name); return {url: url name} of the pages
    that were checked. Fails on the first page that breaks the policy."""
    seen: set[str] = set()
    per_name: Counter[str] = Counter()
    checked: dict[str, str] = {}
    queue = deque(starts)
    while queue:
        url = urlsplit(queue.popleft())
        if url.netloc or not url.path.startswith("/") or url.path.startswith(SKIPPED_PREFIXES):
            continue
        path = url.path + (f"?{url.query}" if url.query else "")
        if path in seen:
            continue
        seen.add(path)
        try:
            name = resolve(url.path).view_name
        except Resolver404:
            continue
        if name in SKIPPED_URL_NAMES:
            continue
        if per_name[name] >= PAGES_PER_URL_NAME and path not in starts:
            continue
        response = client.get(path)
        if response.status_code == 302:
            queue.append(response["Location"])
            continue
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        per_name[name] += 1
        checked[path] = name
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy, (path, policy)
        assert "style-src 'self'" in policy, (path, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (path, policy)
        assert "camera=()" in response.headers.get("Permissions-Policy", ""), path
        parser = InlineCode()
        parser.feed(response.content.decode())
        assert parser.found == [], (path, parser.found)
        queue.extend(parser.links)
    return checked


def every_event() -> list[str]:
    return [event.get_absolute_url() for event in Tournament.objects.all()]


@pytest.fixture
def demo_site():
    load_demo()
    organiser = get_user_model().objects.get(username=DEMO_ORGANISER)
    club = Club.objects.get(name=DEMO_CLUB)
    draft = Tournament.objects.create(
        name="Пролетен турнир", date=datetime.date(2027, 3, 6), club=club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    draft.organisers.add(organiser)
    for number, player in enumerate(club.players.order_by("pk")[:3], start=1):
        Entry.objects.create(tournament=draft, player=player, number=number)
    night = club_nights.club_night_create(
        club=club, date=datetime.date(2026, 12, 4), name="Клубна вечер 04.12.2026",
        organiser=organiser, house_rules=rules.HouseRules(),
    )
    first, second = club.players.order_by("pk")[:2]
    club_nights.club_night_pair(night=night, player_a=first, player_b=second, table=1,
                                by=organiser)
    running = Tournament.objects.create(
        name="Коледен турнир", date=datetime.date(2026, 12, 20), club=club,
        format=Tournament.Format.ROUND_ROBIN,
    )
    running.organisers.add(organiser)
    for number, player in enumerate(club.players.order_by("pk")[:4], start=1):
        Entry.objects.create(tournament=running, player=player, number=number)
    services.tournament_start(tournament=running)
    return organiser


def test_every_page_forbids_inline_code_for_the_public(demo_site):
    checked = walk(Client(), ["/", "/accounts/login/", *every_event()])
    names = set(checked.values())
    assert {"events:home", "login", "events:detail", "standings:standings",
            "events:round", "matches:entry", "knockout:bracket", "clubs:club",
            "clubs:season", "clubs:player", "standings:crosstable",
            "clubs:season_crosstable"} <= names, names


def test_every_page_forbids_inline_code_for_the_organiser(demo_site):
    client = Client()
    client.force_login(demo_site)
    checked = walk(client, ["/", *every_event()])
    names = set(checked.values())
    assert {"events:home", "events:create", "events:edit", "events:players",
            "data:import", "matches:entry", "nights:detail", "nights:create",
            "knockout:bracket", "clubs:season"} <= names, names
