"""A view's path worked out once a process (`club.url_memo.path_of`): the path Django's
`reverse` gives, under the URL configuration and script prefix in use, failures not kept."""

import pytest
from django.http import HttpResponse
from django.test import override_settings
from django.urls import NoReverseMatch, path, set_script_prefix

from club.url_memo import _path, path_of


def other_view(request, match_pk):
    return HttpResponse()


app_name = "matches"
urlpatterns = [path("elsewhere/<int:match_pk>/", other_view, name="deal_add")]


@pytest.fixture(autouse=True)
def empty_memo():
    _path.cache_clear()
    yield
    _path.cache_clear()
    set_script_prefix("/")


def test_a_deal_form_posts_to_the_match_s_own_path():
    assert path_of("matches:deal_add", 17) == "/m/17/deal/"
    assert path_of("matches:deal_correct", 17, 3) == "/m/17/deals/3/correct/"  # urls_matches.py


def test_a_path_asked_for_again_is_not_worked_out_again():
    path_of("matches:deal_add", 17)
    path_of("matches:deal_add", 17)
    path_of("matches:deal_add", 18)
    info = _path.cache_info()
    assert (info.hits, info.misses) == (1, 2)


def test_a_site_served_under_a_sub_path_gets_its_prefix():
    assert path_of("matches:deal_add", 17) == "/m/17/deal/"
    set_script_prefix("/club/")
    assert path_of("matches:deal_add", 17) == "/club/m/17/deal/"


def test_another_url_configuration_is_another_key_and_empties_the_memo():
    assert path_of("matches:deal_add", 17) == "/m/17/deal/"
    with override_settings(ROOT_URLCONF="tests.club.test_url_memo_urls"):
        assert _path.cache_info().currsize == 0
        assert path_of("matches:deal_add", 17) == "/elsewhere/17/"
    assert path_of("matches:deal_add", 17) == "/m/17/deal/"


def test_an_unknown_view_is_refused_and_nothing_is_kept():
    with pytest.raises(NoReverseMatch):
        path_of("matches:no_such_view", 17)
    assert _path.cache_info().currsize == 0
