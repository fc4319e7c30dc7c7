"""Behind a proxy (docs/deployment.md "Several web nodes on one PostgreSQL"):
`config.middleware.ForwardedForMiddleware` counts each visitor by the address the trusted proxy
forwards, so one visitor's wrong links or wrong passwords lock out that visitor, not everyone
who comes through the proxy; an address a client claims is never believed."""

import ipaddress

import pytest
from django.test import Client
from django.urls import reverse

from config.middleware import forwarded_client
from tableside import table_entry

pytest_plugins = ["tests.tableside.table_fixtures"]

PROXY = [ipaddress.ip_network("10.0.0.0/24")]
LOCKED = 429  # django-axes' AXES_HTTP_RESPONSE_CODE, and the players' links' guess limit


@pytest.mark.parametrize(("remote", "forwarded", "client"), [
    ("10.0.0.2", "203.0.113.9", "203.0.113.9"),  # one proxy
    # the visitor wrote "198.51.100.1"; the proxy appended the address it saw, a second proxy
    # of ours its own peer: the last address not of ours is the visitor
    ("10.0.0.2", "198.51.100.1, 203.0.113.9, 10.0.0.3", "203.0.113.9"),
    ("203.0.113.9", "10.0.0.7", "203.0.113.9"),  # not from the proxy: the header is ignored
    ("10.0.0.2", "", "10.0.0.2"),  # the proxy's own request
    ("10.0.0.2", "10.0.0.3", "10.0.0.2"),  # only proxies of ours on the way
    ("10.0.0.2", "203.0.113.9, not-an-address", "10.0.0.2"),  # a broken header: the proxy
    ("10.0.0.2", "2001:DB8:0:0::1", "2001:db8::1"),  # IPv6, written the usual way
])
def test_the_visitor_is_the_last_address_not_of_a_trusted_proxy(remote, forwarded, client):
    assert forwarded_client(remote, forwarded, PROXY) == client


def test_without_trusted_proxies_nothing_changes():
    assert forwarded_client("10.0.0.2", "203.0.113.9", []) == "10.0.0.2"


def visitor(address: str) -> Client:
    """A browser behind the proxy at 127.0.0.1 (the test client's REMOTE_ADDR), which forwards
    `address`."""
    client = Client(HTTP_X_FORWARDED_FOR=address)
    client.cookies["django_language"] = "en"
    return client


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
def test_one_visitors_wrong_links_leave_the_others_their_link(settings, match):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    token = table_entry.table_of(match).token
    guesser = visitor("198.51.100.7")
    for attempt in range(30):
        assert guesser.get(f"/p/a-wrong-token-number-{attempt:02d}/").status_code == 404
    assert guesser.get("/p/a-wrong-token-once-again/").status_code == LOCKED
    assert visitor("203.0.113.9").get("/p/a-wrong-token-once-again/").status_code == 404
    # A valid link is never refused, not even to the address that guessed.
    assert guesser.get(f"/p/{token}/").status_code == 200


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
def test_a_claimed_address_from_an_untrusted_peer_is_not_believed(settings, match):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.0/24")]  # not the test client
    for attempt in range(30):
        claimed = Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt + 1}")
        assert claimed.get(f"/p/a-wrong-token-number-{attempt:02d}/").status_code == 404
    assert Client(HTTP_X_FORWARDED_FOR="203.0.113.9").get(
        "/p/a-wrong-token-once-again/").status_code == LOCKED


@pytest.mark.django_db
def test_one_visitors_wrong_passwords_lock_out_that_visitor_only(settings, django_user_model):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    django_user_model.objects.create_user("maria", password="pass-maria-1")
    guesser = visitor("198.51.100.7")
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        guesser.post(reverse("login"), {"username": "maria", "password": "wrong"})
    right = {"username": "maria", "password": "pass-maria-1"}
    assert guesser.post(reverse("login"), right).status_code == LOCKED
    assert visitor("203.0.113.9").post(reverse("login"), right).status_code == 302
