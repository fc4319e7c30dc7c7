"""Every URL of the site, found by walking the URLconf (so new pages are covered too):
anonymous visitors and outsiders write nothing anywhere, and a private tournament shows
nothing to the public."""

import pytest
from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from events import services
from events.models import Pairing
from scoring import rules
from scoring import services as scoring_services

pytestmark = pytest.mark.django_db

APPS = ("core", "club", "scoring", "events", "standings", "ratings", "formats", "tableside",
        "live", "printing", "exchange", "feeds", "server")
REFUSED_ANONYMOUS = {400, 403, 404, 405}
# The views that change a tournament someone organises (the others only read, or create
# the visitor's own tournament or import).
WRITE_URLS = {
    "events:edit", "events:player_add", "events:player_remove",
    "events:player_withdraw", "events:draw", "events:draw_lot", "events:start",
    "matches:deal_add", "matches:deal_undo", "matches:deal_correct", "printing:request",
    "nights:pair", "nights:close", "nights:unpair", "matches:link_renew",
    "matches:result_approve", "control:approve", "control:renew", "groups:knockout_start",
    "matches:seat_free", "control:seat_free", "events:announcement",
    "control:claim_approve", "control:claim_refuse",
}


def site_patterns(resolver=None, namespace=""):
    """(name, route) of every named URL served by our own apps' views; names with their
    namespace (`matches:deal_add`)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from site_patterns(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            module = getattr(entry.callback, "__module__", "")
            if module.split(".")[0] in APPS:
                yield namespace + entry.name, entry.pattern.converters.keys()


def row_counts() -> dict[str, int]:
    return {model._meta.label: model.objects.count()
            for app in APPS for model in apps.get_app_config(app).get_models()}


@pytest.fixture
def started(tournament, organiser):
    services.tournament_start(tournament=tournament)
    match = Pairing.objects.exclude(match=None).first().match
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 1, "won"),
                                 by=organiser)
    return tournament, match


def urls_for(tournament, match):
    values = {"pk": tournament.pk, "match_pk": match.pk, "number": 1,
              "entry_pk": tournament.entries.first().pk, "job_pk": 1,
              "club_pk": tournament.club_id, "season_pk": 1, "player_pk": match.player_a_id,
              "seat": "A", "claim_pk": 1,
              "token": "a-guessed-token-that-opens-nothing"}  # players: 404, rate-limited
    for name, params in site_patterns():
        if set(params) - set(values):
            raise AssertionError(f"add a value for {set(params) - set(values)} ({name})")
        yield name, reverse(name, kwargs={key: values[key] for key in params}), set(params)


def test_the_walk_finds_every_write_url(started):
    assert {name for name, _url, _params in urls_for(*started)} >= WRITE_URLS


def test_anonymous_posts_write_nothing_anywhere(client, started):
    # Row counts include the history tables, so an update anywhere would show too.
    before = row_counts()
    for name, url, _params in urls_for(*started):
        response = client.post(url, {"new_name": "Натрапник", "winner": "A", "reason": "won"})
        assert response.status_code != 500, name
        if name in WRITE_URLS:
            assert response.status_code in REFUSED_ANONYMOUS or (
                response.status_code == 302 and "/accounts/login/" in response["Location"]
            ), (name, response.status_code)
    assert row_counts() == before


def test_outsider_posts_write_nothing_in_someone_elses_tournament(outsider_client, started):
    before = row_counts()
    for name, url, _params in urls_for(*started):
        response = outsider_client.post(url, {"new_name": "Натрапник", "winner": "A",
                                              "reason": "won"})
        assert response.status_code != 500, name
        if name in WRITE_URLS:
            assert response.status_code in {403, 404, 405}, (name, response.status_code)
    assert row_counts() == before


def test_a_private_tournament_shows_the_public_nothing(client, started):
    tournament, _ = started
    tournament.is_public = False
    tournament.save()
    for name, url, params in urls_for(*started):
        if not params & {"pk", "match_pk"}:
            continue  # pages of no tournament: home, log-in, new tournament, import, clubs,
            # seasons and players (tests/club/test_player_page.py,
            # tests/standings/test_seasons_views.py)
        response = client.get(url)
        assert response.status_code in {302, 403, 404, 405}, (name, url, response.status_code)
