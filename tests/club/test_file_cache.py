"""The site's file cache (`club.file_cache`): the fastest zlib level, the same file layout as
Django's `FileBasedCache`, so either reads what the other wrote."""

import zlib

from django.core.cache.backends.filebased import FileBasedCache

from club.file_cache import FastFileBasedCache


def test_a_value_comes_back_and_django_s_own_file_cache_reads_it(tmp_path):
    ours = FastFileBasedCache(str(tmp_path), {})
    theirs = FileBasedCache(str(tmp_path), {})
    value = {"svg": "<svg>" + "<line/>" * 1000 + "</svg>", "places": [[1, 2], [2, 1]]}
    ours.set("race", value, 60)
    assert ours.get("race") == value
    assert theirs.get("race") == value
    assert ours.touch("race", 120)
    assert theirs.get("race") == value
    theirs.set("table", "<table></table>", 60)
    assert ours.get("table") == "<table></table>"


def test_an_expired_value_is_gone(tmp_path):
    ours = FastFileBasedCache(str(tmp_path), {})
    ours.set("gone", "x", -1)
    assert ours.get("gone", "missing") == "missing"


def test_values_are_written_at_level_one(tmp_path, monkeypatch):
    levels = []
    real = zlib.compress
    monkeypatch.setattr(zlib, "compress", lambda data, level=-1: levels.append(level)
                        or real(data, level))
    FastFileBasedCache(str(tmp_path), {}).set("k", "v" * 100, 60)
    assert levels == [1]


def test_the_default_cache_is_ours_and_the_live_parts_keep_their_own_directory():
    from tests.club.test_settings import run_settings

    result = run_settings({}, "from django.conf import settings as s; "
                          "print(s.CACHES['default']['BACKEND']); "
                          "print(s.CACHES['live']['LOCATION'].endswith('cache.live'))")
    assert result.stdout.split() == ["club.file_cache.FastFileBasedCache", "True"], result.stderr
