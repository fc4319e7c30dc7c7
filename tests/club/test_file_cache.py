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


def test_the_directory_is_counted_for_the_cull_once_every_fifty_writes(tmp_path, monkeypatch):
    from club import file_cache

    monkeypatch.setattr(file_cache, "CULL_CHECK_EVERY", 50)
    ours = FastFileBasedCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 30, "CULL_FREQUENCY": 3}})
    listings = []
    real = ours._list_cache_files
    monkeypatch.setattr(ours, "_list_cache_files", lambda: listings.append(1) or real())

    def files():
        return len(list(tmp_path.glob("*.djcache")))

    for number in range(50):  # write 1 counts (0 files: no cull), writes 2-50 do not
        ours.set(f"k{number}", number)
    assert (len(listings), files()) == (1, 50)
    ours.set("k50", 50)  # write 51 counts 50 files >= 30: a third of them (16) go, then 1 more
    assert (len(listings), files()) == (2, 50 - 16 + 1)
    for number in range(51, 100):  # writes 52-100 do not count
        ours.set(f"k{number}", number)
    assert (len(listings), files()) == (2, 35 + 49)


def _add_ones(location: str, times: int) -> None:
    cache = FastFileBasedCache(location, {})
    for _ in range(times):
        cache.incr("count")


def test_processes_adding_at_once_lose_no_addition(tmp_path):
    import multiprocessing

    FastFileBasedCache(str(tmp_path), {}).set("count", 1000, None)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_add_ones, args=(str(tmp_path), 300)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [worker.exitcode for worker in workers] == [0, 0, 0, 0]
    theirs = FileBasedCache(str(tmp_path), {})
    assert theirs.get("count") == 1000 + 4 * 300  # Django's own cache reads the file


def test_adding_to_a_missing_or_expired_number_is_refused_as_django_s_caches_do(tmp_path):
    import pytest

    ours = FastFileBasedCache(str(tmp_path), {})
    with pytest.raises(ValueError):
        ours.incr("never-set")
    ours.set("gone", 5, -1)
    with pytest.raises(ValueError):
        ours.incr("gone")
    ours.set("kept", 5, 60)
    assert (ours.incr("kept"), ours.incr("kept", 10), ours.decr("kept", 3)) == (6, 16, 13)
    assert ours.get("kept") == 13
