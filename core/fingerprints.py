"""A short digest of the data a page or a printed file shows: equal data, equal digest. Keys
derived from the content itself never go stale, so no change has to invalidate them."""

import hashlib
import json
import pickle


def fingerprint(*parts) -> str:
    """40 hex digits of SHA-256 over `parts` (anything `json` can write, or its `str`)."""
    text = json.dumps(parts, default=str, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def digest(value, before: bytes = b"") -> bytes:
    """16 bytes of BLAKE2b over `before` (another digest, to chain them) and the pickle of
    `value` (plain values: numbers, strings, tuples, lists; no sets). Equal digests mean equal
    values; equal values pickled apart may still differ (a value holding one object twice
    pickles it once), which for a cache key only costs a miss. Five times faster than
    `fingerprint` on many numbers (the race of 100 players over 198 rounds: 0.25 ms)."""
    return hashlib.blake2b(before + pickle.dumps(value, protocol=5), digest_size=16).digest()
