"""URLs worked out once a process: a view's path (`path_of`, the partials' `url()`) and a
polled path's view (`resolved`, the unchanged-poll gate).

`django.urls.reverse` matches a view's name against every pattern each time (about 50 µs on
this machine); a deal's answer asks for four paths. The URL patterns do not change while a
process runs, so a path is kept under everything `reverse` reads: the URL configuration in
use, the script prefix (the site served under a sub-path), the view's name and its arguments.
"""

import functools

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, resolve, reverse


def path_of(name: str, *args) -> str:
    """`reverse(name, args=args)`: the path of view `name` (a "namespace:name" string) with
    the positional `args` (ints or strings), from the memo. Raises `NoReverseMatch` as
    `reverse` does (and keeps no failure)."""
    return _path(get_urlconf(), get_script_prefix(), name, args)


@functools.lru_cache(maxsize=4096)
def _path(urlconf, prefix: str, name: str, args: tuple) -> str:
    return reverse(name, urlconf=urlconf, args=args)


@functools.lru_cache(maxsize=1024)
def resolved(urlconf: str, path: str):
    """The `ResolverMatch` of `path` (a request's `path_info`) under `urlconf` (a module's
    dotted name), as `django.urls.resolve(path, urlconf)` gives it, kept for the 1,024 paths
    polled most recently: the URL patterns never change while a process runs, and resolving a
    players' link afresh walked some 70 patterns, a fifth of a gated unchanged poll's CPU
    (`club.poll_gate`; docs/speed.md, "Session 11"). Raises Resolver404 (not kept) for a path
    no pattern matches."""
    return resolve(path, urlconf)


@receiver(setting_changed)
def _urlconf_changed(*, setting, **kwargs):
    if setting == "ROOT_URLCONF":
        _path.cache_clear()
        resolved.cache_clear()
