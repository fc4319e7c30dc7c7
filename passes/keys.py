"""The key the players' passes are derived from (`passes.services`): 32 random bytes in a file
of their own, `PASS_KEY_FILE` (by default `var/pass_key`, beside the database), made on first
use readable by its owner only (0600).

Why not `SECRET_KEY`: a pass is printed on a slip and kept in a player's wallet for seasons;
rotating Django's secret key (after a leak, or moving the site) must not silently kill every
printed pass. The pass key changes only when its file is deleted or replaced, which is a
decision about the passes themselves (every pass then answers 404 and the organiser prints the
slips again). A backup that holds the database without this file reveals no working pass.
"""

import os
import secrets
from pathlib import Path

from django.conf import settings

KEY_BYTES = 32

_cache: dict[str, bytes] = {}


def key_path() -> Path:
    return Path(settings.PASS_KEY_FILE)


def pass_key() -> bytes:
    """The pass key (32 bytes), read once per process, made if the file does not exist yet
    (created exclusively with mode 0600: two processes at once make one key)."""
    path = key_path()
    cached = _cache.get(str(path))
    if cached is not None:
        return cached
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_hex(KEY_BYTES) + "\n")
    key = bytes.fromhex(path.read_text().strip())
    if len(key) < 16:
        raise ValueError(f"{path} holds no pass key (expected {KEY_BYTES} bytes in hex)")
    _cache[str(path)] = key
    return key


def forget() -> None:
    """Read the key file again next time (tests that switch `PASS_KEY_FILE`)."""
    _cache.clear()
