"""The URL of a live poll is resolved once a process (`club.url_memo.resolved`): the same
view and arguments as Django's `resolve`, unknown paths not kept, and a test's own URLconf
never answered from the site's."""

import pytest
from django.http import HttpResponse, HttpResponseNotModified
from django.test import RequestFactory, override_settings
from django.urls import Resolver404, path, resolve

from club.middleware import UnchangedPollMiddleware
from club.url_memo import resolved

TOKEN = "A" * 22


def fixed_poll(request):
    return HttpResponse("the page")


fixed_poll.unchanged_poll = lambda request: HttpResponseNotModified()

urlpatterns = [path(f"p/{TOKEN}/", fixed_poll)]


@pytest.fixture(autouse=True)
def empty_cache():
    resolved.cache_clear()
    yield
    resolved.cache_clear()


def test_a_players_link_resolves_to_the_same_view_and_token_as_djangos_resolve():
    url = f"/p/{TOKEN}/"
    kept = resolved("club.urls", url)
    fresh = resolve(url)
    assert (kept.func, kept.args, kept.kwargs) == (fresh.func, fresh.args, fresh.kwargs)
    assert kept.kwargs == {"token": TOKEN}


def test_a_path_polled_again_is_not_resolved_again():
    resolved("club.urls", f"/p/{TOKEN}/")
    resolved("club.urls", f"/p/{TOKEN}/")
    info = resolved.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 1, 1)


def test_an_unknown_path_raises_and_is_not_kept():
    with pytest.raises(Resolver404):
        resolved("club.urls", "/no-such-page/")
    assert resolved.cache_info().currsize == 0


@pytest.mark.django_db
def test_a_changed_urlconf_is_not_answered_from_the_sites():
    request = RequestFactory().get(f"/p/{TOKEN}/", HTTP_HX_REQUEST="true",
                                   HTTP_IF_NONE_MATCH='"x"')
    site_answer = UnchangedPollMiddleware.unchanged(request)
    assert site_answer is None  # the site's players' page: no such link, no 304
    with override_settings(ROOT_URLCONF=__name__):
        assert UnchangedPollMiddleware.unchanged(request).status_code == 304
    assert UnchangedPollMiddleware.unchanged(request) is None
