"""The language a visitor picks in the header is kept for a year, not for the browser session."""

import pytest


@pytest.mark.django_db
def test_the_language_cookie_lasts_a_year(client):
    answer = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert answer.cookies["django_language"]["max-age"] == 365 * 24 * 60 * 60
