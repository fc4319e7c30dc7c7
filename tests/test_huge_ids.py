"""Every URL that takes an id, found by walking the URLconf (so new pages are covered too),
asked for an id past the database's integer range: 404 on SQLite as on PostgreSQL, never a 500
(SQLite's driver raises OverflowError for an integer over 2**63 - 1)."""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404

from core.converters import ID_MAX, IdConverter

HUGE = "99999999999999999999"  # 20 digits; 2**63 - 1 = 9223372036854775807 has 19
OWN_APPS = ("core", "club", "scoring", "events", "standings", "ratings", "formats", "tableside",
        "live", "printing", "exchange", "feeds", "server")


def id_routes(value: str, resolver=None, prefix="", namespace=""):
    """(name, path, ours) for each URL pattern of the site that takes a value in its path (an
    id or a number; the admin's object ids too), with `value` in every place; names with their
    namespace (`matches:entry`). `ours`: served by this project's own views (not the
    admin's)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from id_routes(value, entry, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern) and entry.pattern.converters:
            route = re.sub(r"<(\w+:)?\w+>", value, prefix + str(entry.pattern))
            module = getattr(entry.callback, "__module__", "")
            name = namespace + entry.name if entry.name else route
            yield name, "/" + route, module.split(".")[0] in OWN_APPS


def test_the_walk_finds_the_pages_of_each_kind_of_id():
    names = {name for name, _path, ours in id_routes(HUGE) if ours}
    assert names >= {
        "events:detail", "events:round", "matches:entry", "matches:deal_undo",
        "matches:deal_correct", "events:player_remove", "printing:download", "clubs:club",
        "clubs:season", "clubs:player", "nights:unpair",
    }


@pytest.mark.parametrize("value", [HUGE, str(ID_MAX + 1), "0", "-1"])
def test_an_id_out_of_range_matches_no_url_of_ours(value):
    for name, path, ours in id_routes(value):
        if ours:
            with pytest.raises(Resolver404):
                resolve(path)
                pytest.fail(f"{name} matched {path}")


def test_the_id_converter_takes_1_to_2_63_minus_1():
    converter = IdConverter()
    assert converter.to_python("1") == 1
    assert converter.to_python("9223372036854775807") == 9223372036854775807
    for value in ("0", "9223372036854775808", HUGE):
        with pytest.raises(ValueError):
            converter.to_python(value)
    assert converter.to_url(42) == "42"
    with pytest.raises(ValueError):
        converter.to_url(0)


@pytest.fixture
def staff_client(django_user_model, home_club, tournament):
    """A superuser (every admin page) who also organises the club and its tournament."""
    user = django_user_model.objects.create_superuser("staff", password="pass-staff-1")
    home_club.organisers.add(user)
    tournament.organisers.add(user)
    client = Client()
    client.force_login(user)
    return client


def answers_to(client, value: str) -> dict[tuple[str, str], tuple[int, bool]]:
    """{(url name, method): (status, ours)} for a GET and a POST of every URL with an id."""
    client.raise_request_exception = False  # a crash is a 500 answer, listed with the others
    answers = {}
    data = {"number": "1", "winner": "A", "reason": "won", "confirmed": "1"}
    for name, path, ours in id_routes(value):
        answers[(name, "GET")] = client.get(path).status_code, ours
        answers[(name, "POST")] = client.post(path, data).status_code, ours
    return answers


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "organiser", "staff"])
def test_a_huge_id_is_404_for_everyone(who, request, tournament):
    client = {
        "anonymous": Client, "organiser": lambda: request.getfixturevalue("organiser_client"),
        "staff": lambda: request.getfixturevalue("staff_client"),
    }[who]()
    answers = answers_to(client, HUGE)
    crashes = sorted(key for key, (status, _ours) in answers.items() if status >= 500)
    assert crashes == []
    # Our own pages: not found, whatever the method or the visitor (before any log-in
    # redirect). The admin answers a visitor with its log-in page and staff with a redirect
    # to the list ("no such object"); only that it does not crash is ours to hold.
    not_404 = sorted(
        (key, status) for key, (status, ours) in answers.items() if ours and status != 404
    )
    assert not_404 == []


@pytest.mark.django_db
def test_the_largest_id_reaches_the_view_and_is_not_found(staff_client):
    answers = answers_to(staff_client, str(ID_MAX))
    assert sorted(key for key, (status, ours) in answers.items() if ours and status != 404
                  and status != 405) == []
