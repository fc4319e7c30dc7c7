"""The site's file cache (the default when no CACHE_URL is set): Django's `FileBasedCache`,
its values compressed with zlib's fastest level instead of the default (6).

The standings page of a 100-player round robin writes a 258 KB race chart into the cache
after each new result: level 6 takes about 11 ms of CPU for it, level 1 under 2 ms, for a
file a quarter larger (84 KB against 68 KB). Reading is the same (`zlib.decompress` reads
any level), so files written before stay readable.

Django's `FileBasedCache` also lists its whole directory at every write, to see whether it
holds more than `MAX_ENTRIES` files (its cull): with the sessions of a club night in it (300
to 1,500 files) that listing cost 0.4–2.1 ms a write, most of what adding one to the live
pages' commit count costs a deal (`tournaments.live_commits`). Ours looks once every
`CULL_CHECK_EVERY` writes of a process, so the directory may hold up to that many files a
process over `MAX_ENTRIES` before it is culled as Django's would.

`incr` (the live pages' commit count, once a deal) rewrites its file in place under an
exclusive lock instead of Django's `get` then `set`: a `set` writes a temporary file and
renames it over the old one, and on ext4 a rename over a file costs about 0.2 ms (the new
file's data is flushed first), and two processes' get-then-set could both write the same
count. `get` takes a shared lock on the file it reads, so it never reads half a rewrite.
"""

import pickle
import time
import zlib

from django.core.cache.backends.filebased import FileBasedCache
from django.core.files import locks

LEVEL = 1
"""zlib's compression level for every value written (1: fastest)."""

CULL_CHECK_EVERY = 50
"""A process counts its files for the cull at its first write, then once every this many."""


class FastFileBasedCache(FileBasedCache):
    """`FileBasedCache` whose values are compressed at `LEVEL` (the same file layout: the
    pickled expiry, then the zlib-compressed pickled value), that counts its files for the
    cull once every `CULL_CHECK_EVERY` writes instead of at each, and adds to a number in
    place under a lock (`incr`)."""

    _writes_before_cull_check = 0

    def _cull(self):
        if self._writes_before_cull_check > 0:
            self._writes_before_cull_check -= 1
            return
        self._writes_before_cull_check = CULL_CHECK_EVERY - 1
        super()._cull()

    def _write_content(self, file, timeout, value):
        expiry = self.get_backend_timeout(timeout)
        file.write(pickle.dumps(expiry, self.pickle_protocol))
        file.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), LEVEL))

    def get(self, key, default=None, version=None):
        fname = self._key_to_file(key, version)
        try:
            with open(fname, "rb") as f:
                locks.lock(f, locks.LOCK_SH)  # an `incr` rewrites files in place
                if not self._is_expired(f):
                    return pickle.loads(zlib.decompress(f.read()))
        except FileNotFoundError:
            pass
        return default

    def incr(self, key, delta=1, version=None):
        """Add `delta` to the number stored under `key` and return the sum, in the file
        itself under an exclusive lock: concurrent processes add one after another. Raises
        ValueError when the key is missing or expired, as Django's caches do."""
        fname = self._key_to_file(key, version)
        try:
            with open(fname, "r+b") as f:
                locks.lock(f, locks.LOCK_EX)
                expiry = pickle.load(f)
                if expiry is not None and expiry < time.time():
                    raise ValueError(f"Key '{key}' not found")
                value = pickle.loads(zlib.decompress(f.read())) + delta
                f.seek(0)
                f.write(pickle.dumps(expiry, self.pickle_protocol))
                f.write(zlib.compress(pickle.dumps(value, self.pickle_protocol), LEVEL))
                f.truncate()
                return value
        except FileNotFoundError:
            raise ValueError(f"Key '{key}' not found") from None
