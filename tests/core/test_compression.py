"""Pages travel gzipped to a browser that asks (`config.middleware.CompressedPagesMiddleware`):
the same HTML in fewer bytes on a club's wifi; a browser that does not ask gets it as it is.
(The live pages' streams never are: tests/live/test_streams.py.)"""

import gzip

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_page_comes_gzipped_when_the_browser_asks(tournament):
    plain = Client().get(f"/t/{tournament.pk}/")
    packed = Client(headers={"Accept-Encoding": "gzip, deflate, br"}).get(f"/t/{tournament.pk}/")

    assert plain.status_code == packed.status_code == 200
    assert not plain.has_header("Content-Encoding")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert "Купа Пловдив" in html and html.rstrip().endswith("</html>")
    # Fewer bytes, the BREACH mitigation's up to 100 random bytes included.
    assert len(packed.content) + 100 < len(plain.content)


def test_an_htmx_part_comes_gzipped_too(tournament, organiser_client):
    answer = organiser_client.get(f"/t/{tournament.pk}/players/",
                                  headers={"HX-Request": "true", "Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert answer["Content-Encoding"] == "gzip"
    assert "Купа Пловдив" in gzip.decompress(answer.content).decode()
