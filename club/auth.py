"""The signed-in user read from the cache instead of the database on every request.

Django's `AuthenticationMiddleware` asks the session's backend for the user on each request
that looks at `request.user` (`django.contrib.auth.get_user`): one query every time. Here the
user row is kept in the site's cache (`CACHES["default"]`, which every worker shares) under
its id, for `USER_SECONDS`. Django still compares the session's auth hash with the user's
password hash on every request, and every save or deletion of a user drops its cached copy
(`forget_user`, connected in `club.apps`), so a password change still logs out the user's
other sessions, and a deactivated or demoted account loses its rights, from the next request.
"""

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

USER_SECONDS = 300
"""How long a cached user lasts: the bound on staleness should a user row ever change
without a save (a bulk `update()`; the site does none)."""


def _key(user_id) -> str:
    return f"auth-user:{user_id}"


class CachedModelBackend(ModelBackend):
    """`ModelBackend` (username and password) whose `get_user` reads the cache first."""

    def get_user(self, user_id):
        """The active user of primary key `user_id` (an int, or the session's string), or
        None: from the cache, else from the database (then cached)."""
        key = _key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, USER_SECONDS)
        return user


def forget_user(sender, instance, **kwargs) -> None:
    """Signal receiver (post_save, post_delete of the user model): drop the cached copy."""
    cache.delete(_key(instance.pk))
