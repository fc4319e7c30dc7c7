"""The site's paths are a promise: each scorecard printed so far carries its match page's
address as a QR code (`/m/<id>/`, `matches:entry`; tests/tournaments/test_printing.py checks
the code's address), and organisers share the links of events, standings, brackets, rounds,
players and clubs. URL names may change (they did: one namespace per area); the paths and the
views they lead to may not.

Each row: a path as printed or shared, the name it has now, the view that answers it (as it
did before the namespaces) and the values read from the path.
"""

import re
from pathlib import Path

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse

PRINTED_OR_SHARED = [
    ("/m/7/", "matches:entry", "tournaments.views.matches.match_entry", {"match_pk": 7}),
    ("/", "tournaments:home", "tournaments.views.pages.home", {}),
    ("/t/3/", "tournaments:detail", "tournaments.views.pages.tournament_detail", {"pk": 3}),
    ("/t/3/standings/", "tournaments:standings", "tournaments.views.standings.standings",
     {"pk": 3}),
    ("/t/3/bracket/", "tournaments:bracket", "tournaments.views.bracket.bracket", {"pk": 3}),
    ("/t/3/groups/", "tournaments:groups", "tournaments.views.groups.groups", {"pk": 3}),
    ("/t/3/rounds/2/", "tournaments:round", "tournaments.views.rounds.round_detail",
     {"pk": 3, "number": 2}),
    ("/t/3/night/", "nights:detail", "tournaments.views.club_nights.club_night_detail",
     {"pk": 3}),
    ("/players/11/", "clubs:player", "tournaments.views.players.player_detail",
     {"player_pk": 11}),
    ("/club/5/", "clubs:club", "tournaments.views.seasons.club_detail", {"club_pk": 5}),
    ("/club/5/seasons/6/", "clubs:season", "tournaments.views.seasons.season_detail",
     {"club_pk": 5, "season_pk": 6}),
    ("/t/3/standings.csv", "data:standings_csv", "tournaments.views.data.standings_csv",
     {"pk": 3}),
    ("/t/3/standings.xlsx", "data:standings_xlsx", "tournaments.views.data.standings_xlsx",
     {"pk": 3}),
    ("/t/3/deals.csv", "data:deals_csv", "tournaments.views.data.deals_csv", {"pk": 3}),
]

# The organisers' pages and what they post: bookmarked, or open in a tab across a deploy.
WORKING = [
    ("/t/new/", "tournaments:create", "tournaments.views.setup.tournament_create", {}),
    ("/t/3/edit/", "tournaments:edit", "tournaments.views.setup.tournament_edit", {"pk": 3}),
    ("/t/3/players/", "tournaments:players", "tournaments.views.setup.players", {"pk": 3}),
    ("/t/3/players/add/", "tournaments:player_add", "tournaments.views.setup.player_add",
     {"pk": 3}),
    ("/t/3/players/4/remove/", "tournaments:player_remove",
     "tournaments.views.setup.player_remove", {"pk": 3, "entry_pk": 4}),
    ("/t/3/players/4/withdraw/", "tournaments:player_withdraw",
     "tournaments.views.setup.player_withdraw", {"pk": 3, "entry_pk": 4}),
    ("/t/3/draw/", "tournaments:draw", "tournaments.views.setup.draw_numbers", {"pk": 3}),
    ("/t/3/draw/lot/", "tournaments:draw_lot", "tournaments.views.setup.draw_by_lot",
     {"pk": 3}),
    ("/t/3/seed-from/", "tournaments:seed_from_standings",
     "tournaments.views.setup.seed_from_standings", {"pk": 3}),
    ("/t/3/start/", "tournaments:start", "tournaments.views.setup.tournament_start", {"pk": 3}),
    ("/t/3/groups/knockout/", "tournaments:knockout_start",
     "tournaments.views.groups.knockout_start", {"pk": 3}),
    ("/m/7/deal/", "matches:deal_add", "tournaments.views.matches.deal_add", {"match_pk": 7}),
    ("/m/7/deal/sync/", "matches:deal_sync", "tournaments.views.offline.deal_sync",
     {"match_pk": 7}),
    # A phone that installed the site keeps its service worker's address and the manifest's.
    ("/sw.js", "offline:service_worker", "tournaments.views.offline.service_worker", {}),
    ("/manifest.webmanifest", "offline:manifest", "tournaments.views.offline.manifest", {}),
    ("/m/7/deal/details/", "matches:deal_details_form",
     "tournaments.views.matches.deal_details_form", {"match_pk": 7}),
    ("/m/7/undo/", "matches:deal_undo", "tournaments.views.matches.deal_undo",
     {"match_pk": 7}),
    ("/m/7/deals/2/correct/", "matches:deal_correct", "tournaments.views.matches.deal_correct",
     {"match_pk": 7, "number": 2}),
    ("/t/import/", "data:import", "tournaments.views.data.import_upload", {}),
    ("/t/import/preview/", "data:import_preview", "tournaments.views.data.import_preview", {}),
    ("/t/import/confirm/", "data:import_confirm", "tournaments.views.data.import_confirm", {}),
    ("/t/import/4/", "data:import_job", "tournaments.views.data.import_job", {"pk": 4}),
    ("/t/3/print/", "printing:request", "tournaments.views.printing.print_request", {"pk": 3}),
    ("/t/3/print/8/", "printing:status", "tournaments.views.printing.print_status",
     {"pk": 3, "job_pk": 8}),
    ("/t/3/print/8/file/", "printing:download", "tournaments.views.printing.print_download",
     {"pk": 3, "job_pk": 8}),
    ("/club/5/seasons/6/print/", "printing:season_request",
     "tournaments.views.printing.season_print_request", {"club_pk": 5, "season_pk": 6}),
    ("/club/5/seasons/6/print/8/", "printing:season_status",
     "tournaments.views.printing.season_print_status",
     {"club_pk": 5, "season_pk": 6, "job_pk": 8}),
    ("/club/5/seasons/6/print/8/file/", "printing:season_download",
     "tournaments.views.printing.season_print_download",
     {"club_pk": 5, "season_pk": 6, "job_pk": 8}),
    ("/night/new/", "nights:create", "tournaments.views.club_nights.club_night_create", {}),
    ("/t/3/night/pair/", "nights:pair", "tournaments.views.club_nights.club_night_pair",
     {"pk": 3}),
    ("/t/3/night/close/", "nights:close", "tournaments.views.club_nights.club_night_close",
     {"pk": 3}),
    ("/t/3/night/m/7/take-back/", "nights:unpair",
     "tournaments.views.club_nights.club_night_unpair", {"pk": 3, "match_pk": 7}),
    ("/t/3/control/", "control:room", "tournaments.views.control_room.control", {"pk": 3}),
    ("/t/3/control/links/", "control:links", "tournaments.views.control_room.links",
     {"pk": 3}),
    ("/t/3/control/m/7/approve/", "control:approve", "tournaments.views.control_room.approve",
     {"pk": 3, "match_pk": 7}),
    ("/t/3/control/m/7/renew/", "control:renew", "tournaments.views.control_room.renew",
     {"pk": 3, "match_pk": 7}),
    ("/t/3/control/m/7/card/", "control:card", "tournaments.views.control_room.card",
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
    """A page named without its namespace (`'match_entry'` for `'matches:entry'`), e.g. by a
    branch written before the namespaces, fails here rather than on the page that uses it."""
    known = url_names()
    sources = [
        *[(path, NAMED_IN_TEMPLATES) for path in (ROOT / "templates").rglob("*.html")],
        *[(path, NAMED_IN_PYTHON) for folder in ("club", "scoring", "tournaments", "bench",
                                                  "tests")
          for path in (ROOT / folder).rglob("*.py")],
    ]
    unknown = [
        f"{path.relative_to(ROOT)}: {name}"
        for path, pattern in sources
        for name in pattern.findall(path.read_text())
        if name not in known
    ]
    assert unknown == []
    assert {"tournaments:home", "matches:entry", "clubs:player", "login"} <= known
