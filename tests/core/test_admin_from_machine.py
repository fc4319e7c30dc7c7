"""The admin answers only on the site's own machine (docs/deployment.md "The admin"):
`config.middleware.AdminFromMachineMiddleware` answers 404 to /admin/ from any other address
(the address the site trusts: behind a declared proxy, the one it forwards), unless
`ADMIN_FROM_NETWORK` is set; the page header offers the admin's link only where it answers."""

import ipaddress

import pytest
from django.test import Client, override_settings

from tests.core.test_settings import run_settings

pytestmark = pytest.mark.django_db

NETWORK = "192.168.1.20"  # a phone on the club's wifi
PROXY = [ipaddress.ip_network("127.0.0.1/32")]  # nginx on the site's machine


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("chief", password="pass-chief-1")


def visitor(address: str, **headers) -> Client:
    return Client(REMOTE_ADDR=address, **headers)


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1"])
def test_the_admin_answers_on_the_sites_machine(address):
    assert visitor(address).get("/admin/login/").status_code == 200


@pytest.mark.parametrize("address", [NETWORK, "10.0.0.7", "2001:db8::5"])
def test_the_admin_is_not_there_for_the_network(address, staff):
    client = visitor(address)
    assert client.get("/admin/").status_code == 404
    assert client.get("/admin/login/").status_code == 404
    # No password can be tried from there either, right or wrong.
    answer = client.post("/admin/login/", {"username": "chief", "password": "pass-chief-1"})
    assert answer.status_code == 404
    assert "_auth_user_id" not in client.session
    # The rest of the site answers as ever.
    assert client.get("/").status_code == 200


def test_a_logged_in_staff_member_on_the_network_gets_404_too(staff):
    client = visitor(NETWORK)
    client.force_login(staff)
    assert client.get("/admin/").status_code == 404
    assert client.get("/admin/events/tournament/").status_code == 404


@override_settings(ADMIN_FROM_NETWORK=True)
def test_a_club_may_open_the_admin_to_the_network(staff):
    client = visitor(NETWORK)
    assert client.get("/admin/login/").status_code == 200
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


@override_settings(TRUSTED_PROXIES=PROXY)
def test_behind_a_declared_proxy_the_forwarded_address_counts():
    through_proxy = visitor("127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert through_proxy.get("/admin/login/").status_code == 404
    # The organiser's browser on the proxy's machine: forwarded as 127.0.0.1.
    on_the_machine = visitor("127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert on_the_machine.get("/admin/login/").status_code == 200
    # Not from the proxy: what the client claims is not believed.
    claiming = visitor(NETWORK, HTTP_X_FORWARDED_FOR="127.0.0.1")
    assert claiming.get("/admin/login/").status_code == 404


@pytest.mark.parametrize("header", ["HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED"])
def test_a_proxy_nobody_declared_does_not_make_everyone_local(header):
    """No TRUSTED_PROXIES, and the request came through a proxy on the site's machine: its own
    loopback address says nothing of the visitor."""
    value = "203.0.113.9" if header == "HTTP_X_FORWARDED_FOR" else "for=203.0.113.9"
    assert visitor("127.0.0.1", **{header: value}).get("/admin/login/").status_code == 404


def test_the_header_offers_the_admin_only_where_it_answers(staff):
    here = visitor("127.0.0.1")
    here.force_login(staff)
    assert 'href="/admin/"' in here.get("/").content.decode()
    away = visitor(NETWORK)
    away.force_login(staff)
    page = away.get("/").content.decode()
    assert away.get("/").status_code == 200
    assert 'href="/admin/"' not in page


@pytest.mark.real_process
@pytest.mark.parametrize(("value", "expected"), [(None, "False"), ("true", "True"),
                                                 ("false", "False")])
def test_the_setting_comes_from_the_environment(value, expected):
    env = {} if value is None else {"ADMIN_FROM_NETWORK": value}
    result = run_settings(env, "from django.conf import settings; "
                               "print(settings.ADMIN_FROM_NETWORK)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == expected
