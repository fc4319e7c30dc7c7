"""The site's paths are a promise: each scorecard printed so far carries its match page's
address as a QR code (`/m/<id>/`, `matches:entry`; tests/printing/test_scorecard_qr.py checks
the code's address), and organisers share the links of events, standings, brackets, rounds,
players and clubs. URL names may change (one namespace per area); the paths and the
views they lead to may not.

Each row: a path as printed or shared, the name it has now, the view that answers it (as it
did before the namespaces) and the values read from the path.
"""

import re
from pathlib import Path

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse

PRINTED_OR_SHARED = [
    ("/m/7/", "matches:entry", "tableside.views.matches.match_entry", {"match_pk": 7}),
    ("/", "events:home", "events.views.pages.home", {}),
    ("/t/3/", "events:detail", "events.views.pages.tournament_detail", {"pk": 3}),
    ("/t/3/standings/", "standings:standings", "standings.views.standings",
     {"pk": 3}),
    ("/t/3/bracket/", "knockout:bracket", "formats.knockout.views.bracket", {"pk": 3}),
    ("/t/3/groups/", "groups:detail", "formats.groups.views.groups", {"pk": 3}),
    ("/t/3/rounds/2/", "events:round", "events.views.rounds.round_detail",
     {"pk": 3, "number": 2}),
    ("/t/3/night/", "nights:detail", "formats.club_night.views.club_night_detail",
     {"pk": 3}),
    ("/players/11/", "clubs:player", "club.views.players.player_detail",
     {"player_pk": 11}),
    ("/club/5/", "clubs:club", "club.views.seasons.club_detail", {"club_pk": 5}),
    ("/club/5/seasons/6/", "clubs:season", "club.views.seasons.season_detail",
     {"club_pk": 5, "season_pk": 6}),
    ("/t/3/standings.csv", "data:standings_csv", "exchange.views.standings_csv",
     {"pk": 3}),
    ("/t/3/standings.xlsx", "data:standings_xlsx", "exchange.views.standings_xlsx",
     {"pk": 3}),
    ("/t/3/deals.csv", "data:deals_csv", "exchange.views.deals_csv", {"pk": 3}),
    # Kept by calendar programs and club websites.
    ("/club/5/calendar.ics", "feeds:club_calendar", "feeds.views.club_calendar",
     {"club_pk": 5}),
    ("/club/5/results.atom", "feeds:club_results", "feeds.views.club_results",
     {"club_pk": 5}),
    ("/players/11/calendar.ics", "feeds:player_calendar", "feeds.views.player_calendar",
     {"player_pk": 11}),
]

# The organisers' pages and what they post: bookmarked, or open in a tab across a deploy.
WORKING = [
    ("/t/new/", "events:create", "events.views.setup.tournament_create", {}),
    ("/t/3/edit/", "events:edit", "events.views.setup.tournament_edit", {"pk": 3}),
    ("/t/3/players/", "events:players", "events.views.setup.players", {"pk": 3}),
    ("/t/3/players/add/", "events:player_add", "events.views.setup.player_add",
     {"pk": 3}),
    ("/t/3/players/4/remove/", "events:player_remove",
     "events.views.setup.player_remove", {"pk": 3, "entry_pk": 4}),
    ("/t/3/players/4/withdraw/", "events:player_withdraw",
     "events.views.setup.player_withdraw", {"pk": 3, "entry_pk": 4}),
    ("/t/3/draw/", "events:draw", "events.views.setup.draw_numbers", {"pk": 3}),
    ("/t/3/draw/lot/", "events:draw_lot", "events.views.setup.draw_by_lot",
     {"pk": 3}),
    ("/t/3/seed-from/", "events:seed_from_standings",
     "events.views.setup.seed_from_standings", {"pk": 3}),
    ("/t/3/start/", "events:start", "events.views.setup.tournament_start", {"pk": 3}),
    ("/t/3/announcement/", "events:announcement", "events.views.announcement.announcement",
     {"pk": 3}),
    ("/t/3/groups/knockout/", "groups:knockout_start",
     "formats.groups.views.knockout_start", {"pk": 3}),
    ("/m/7/deal/", "matches:deal_add", "tableside.views.matches.deal_add", {"match_pk": 7}),
    ("/m/7/deal/sync/", "matches:deal_sync", "tableside.views.offline.deal_sync",
     {"match_pk": 7}),
    # A phone that installed the site keeps its service worker's address and the manifest's.
    ("/sw.js", "offline:service_worker", "core.views.service_worker", {}),
    ("/manifest.webmanifest", "offline:manifest", "core.views.manifest", {}),
    ("/m/7/deal/details/", "matches:deal_details_form",
     "tableside.views.matches.deal_details_form", {"match_pk": 7}),
    ("/m/7/undo/", "matches:deal_undo", "tableside.views.matches.deal_undo",
     {"match_pk": 7}),
    ("/m/7/deals/2/correct/", "matches:deal_correct", "tableside.views.matches.deal_correct",
     {"match_pk": 7, "number": 2}),
    ("/t/import/", "data:import", "exchange.views.import_upload", {}),
    ("/t/import/preview/", "data:import_preview", "exchange.views.import_preview", {}),
    ("/t/import/confirm/", "data:import_confirm", "exchange.views.import_confirm", {}),
    ("/t/import/4/", "data:import_job", "exchange.views.import_job", {"pk": 4}),
    ("/t/3/print/", "printing:request", "printing.views.print_request", {"pk": 3}),
    ("/t/3/print/8/", "printing:status", "printing.views.print_status",
     {"pk": 3, "job_pk": 8}),
    ("/t/3/print/8/file/", "printing:download", "printing.views.print_download",
     {"pk": 3, "job_pk": 8}),
    ("/club/5/seasons/6/print/", "printing:season_request",
     "printing.views.season_print_request", {"club_pk": 5, "season_pk": 6}),
    ("/club/5/seasons/6/print/8/", "printing:season_status",
     "printing.views.season_print_status",
     {"club_pk": 5, "season_pk": 6, "job_pk": 8}),
    ("/club/5/seasons/6/print/8/file/", "printing:season_download",
     "printing.views.season_print_download",
     {"club_pk": 5, "season_pk": 6, "job_pk": 8}),
    ("/night/new/", "nights:create", "formats.club_night.views.club_night_create", {}),
    ("/t/3/night/pair/", "nights:pair", "formats.club_night.views.club_night_pair",
     {"pk": 3}),
    ("/t/3/night/close/", "nights:close", "formats.club_night.views.club_night_close",
     {"pk": 3}),
    ("/t/3/night/m/7/take-back/", "nights:unpair",
     "formats.club_night.views.club_night_unpair", {"pk": 3, "match_pk": 7}),
    ("/t/3/control/", "control:room", "tableside.views.control_room.control", {"pk": 3}),
    ("/t/3/control/links/", "control:links", "tableside.views.control_room.links",
     {"pk": 3}),
    ("/t/3/control/m/7/approve/", "control:approve", "tableside.views.control_room.approve",
     {"pk": 3, "match_pk": 7}),
    ("/t/3/control/m/7/renew/", "control:renew", "tableside.views.control_room.renew",
     {"pk": 3, "match_pk": 7}),
    ("/t/3/control/m/7/card/", "control:card", "tableside.views.control_room.card",
     {"pk": 3, "match_pk": 7}),
]


@pytest.mark.parametrize(("path", "name", "view", "kwargs"), PRINTED_OR_SHARED + WORKING)
def test_each_path_leads_where_it_always_did(path, name, view, kwargs):
    match = resolve(path)
    assert f"{match.func.__module__}.{match.func.__name__}" == view
    assert match.kwargs == kwargs
    assert match.view_name == name
    assert reverse(name, kwargs=kwargs) == path


def test_the_printed_match_address_is_the_match_page():
    """What the scorecard's QR code encodes: `/m/<id>/` under the site's address."""
    assert reverse("matches:entry", args=[123]) == "/m/123/"


APPS = ("core", "club", "scoring", "events", "standings", "ratings", "formats", "tableside",
        "live", "printing", "exchange", "feeds", "server", "config")
ROOT = Path(__file__).resolve().parent.parent
NAMED_IN_TEMPLATES = re.compile(r"""\{%\s*url\s+["']([^"']+)["']""")
NAMED_IN_PYTHON = re.compile(
    r"""\b(?:reverse|reverse_lazy|redirect|resolve_url)\(\s*["']([^"'/]+)["']"""
)


def url_names(resolver=None, namespace="") -> set[str]:
    """Every URL name of the site, with its namespace (`matches:entry`, `admin:index`)."""
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            names |= url_names(entry, inner)
        elif entry.name:
            names.add(namespace + entry.name)
    return names


def test_every_url_name_written_in_the_code_exists():
    """A page named without its namespace (`'match_entry'` for `'matches:entry'`), e.g. in
    code written before the namespaces, fails here rather than on the page that uses it."""
    known = url_names()
    sources = [
        *[(path, NAMED_IN_TEMPLATES) for path in ROOT.glob("*/templates/**/*.html")],
        *[(path, NAMED_IN_PYTHON) for folder in APPS + ("bench", "tests")
          for path in (ROOT / folder).rglob("*.py")],
    ]
    unknown = [
        f"{path.relative_to(ROOT)}: {name}"
        for path, pattern in sources
        for name in pattern.findall(path.read_text())
        if name not in known
    ]
    assert unknown == []
    assert {"events:home", "matches:entry", "clubs:player", "login"} <= known
