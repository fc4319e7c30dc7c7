"""A club organiser prints the season's cross-table from a phone (390 px): the button on the
season's cross-table page, the status page, the PDF. The season is the winter one of
`tests/standings/test_seasons_views.py`; its organiser is logged in without the form
(`log_in`)."""

import pytest
from django.urls import reverse

from tests.browser.conftest import log_in
from tests.standings import test_seasons_views as winter

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

season = winter.season


def test_a_club_organiser_prints_the_season_cross_table_on_a_phone(browser_page, live_site,
                                                                   organiser, season):
    page = browser_page
    log_in(page, live_site, organiser)
    page.goto(live_site.url + reverse("clubs:season_crosstable",
                                        args=[season.club_id, season.pk]))
    button = page.locator(".print-buttons button[value=crosstable]")
    assert button.inner_text() == "Print the cross-table"
    assert button.bounding_box()["height"] >= 44
    button.click()
    page.wait_for_selector("a.button >> text=Open the PDF")
    assert "/print/" in page.url and page.locator("text=Cross-table · English").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    pdf = page.request.get(live_site.url + page.get_attribute("a.button", "href"))
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
