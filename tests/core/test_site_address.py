"""A phone cannot open 127.0.0.1: where `SITE_URL` is this computer's own address, every page
that shows or prints the players' links (the control room's links page and its renewed-link
notice, the organiser's match page, the round page's scorecard buttons, the projector's join
code) warns, naming the
command that serves the club's network; with an address phones reach, nothing is said. One
decision (`core.site_address.is_loopback`) and one partial (`{% loopback_warning %}`)."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from core.site_address import is_loopback
from tableside import table_entry
from tests.tableside.test_control_room import at_table, event  # noqa: F401 - the fixture

WARNING = {
    "en": "These links and QR codes open {url}, this computer's own address: a phone cannot "
          "open it. Serve the site to the club's network with <code>make club</code> (or "
          "<code>manage.py serve_club</code>), which gives the address the phones reach, then "
          "print again.",
    "bg": "Тези връзки и QR кодове отварят {url}, собствения адрес на този компютър: телефон "
          "не може да го отвори. Пуснете сайта в мрежата на клуба с <code>make club</code> "
          "(или <code>manage.py serve_club</code>), който дава адреса, до който стигат "
          "телефоните, и тогава отпечатайте отново.",
}


@pytest.mark.parametrize("url, loopback", [
    ("http://127.0.0.1:8000", True), ("http://127.8.9.10/", True), ("http://[::1]:8000", True),
    ("http://localhost:8000", True), ("http://LocalHost.:8000", True),
    ("http://club.localhost", True), ("http://0.0.0.0:8000", True),
    ("http://192.168.1.20:8000", False), ("https://santase.club.lan:8443", False),
    ("http://10.0.0.7", False), ("http://128.0.0.1", False), ("https://localhost.club.bg", False),
])
def test_which_addresses_only_this_computer_opens(url, loopback):
    assert is_loopback(url) is loopback


def pages(event, organiser, organiser_client):  # noqa: F811
    match = at_table(event, 1)
    table_entry.link_renew(match=match, by=organiser)  # the control room's renewed-link notice
    return [
        reverse("control:links", args=[event.pk]),
        reverse("control:room", args=[event.pk]) + f"?renewed={match.pk}",
        reverse("matches:entry", args=[match.pk]),
        reverse("events:round", args=[event.pk, 1]),
        reverse("live:projector", args=[event.pk]),  # the join code's slide
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "bg"])
@pytest.mark.parametrize("site", ["http://127.0.0.1:8000", "http://localhost:8000"])
def test_every_page_with_the_links_warns_of_a_loopback_address(
        event, organiser, organiser_client, settings, language, site):  # noqa: F811
    settings.SITE_URL = site
    organiser_client.cookies["django_language"] = language
    for url in pages(event, organiser, organiser_client):
        response = organiser_client.get(url)
        assert response.status_code == 200, url
        assert response.content.decode().count(WARNING[language].format(url=site)) == 1, url


@pytest.mark.django_db
def test_an_address_phones_reach_draws_no_warning(event, organiser, organiser_client,  # noqa: F811
                                                  settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    organiser_client.cookies["django_language"] = "en"
    for url in pages(event, organiser, organiser_client):
        page = organiser_client.get(url).content.decode()
        assert "loopback-warning" not in page and "make club" not in page, url


@pytest.mark.django_db
@pytest.mark.parametrize("site, warned", [("http://127.0.0.1:8000", True),
                                          ("http://192.168.1.20:8000", False)])
def test_the_entry_links_command_warns_too(event, settings, site, warned):  # noqa: F811
    settings.SITE_URL = site
    out, err = io.StringIO(), io.StringIO()
    call_command("entry_links", str(event.pk), stdout=out, stderr=err)
    assert f"{site}/p/" in out.getvalue()
    assert (f"These links open {site}, this computer's own address: a phone cannot open it. "
            "Serve the club's network with `make club` (or `manage.py serve_club`)."
            in err.getvalue()) is warned
