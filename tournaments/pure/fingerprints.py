"""A short digest of the data a page or a printed file shows: equal data, equal digest. Keys
derived from the content itself never go stale, so no change has to invalidate them."""

import hashlib
import json


def fingerprint(*parts) -> str:
    """40 hex digits of SHA-256 over `parts` (anything `json` can write, or its `str`)."""
    text = json.dumps(parts, default=str, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:40]
