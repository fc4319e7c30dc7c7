"""Python's cyclic garbage collector held off while a PDF is built (`paused`).

WeasyPrint allocates hundreds of thousands of objects laying out a document (styles, boxes,
text runs), most of them alive until the PDF is written. Each such burst makes the collector
run again and again, its full collections walking the whole heap (Django, the parsed
stylesheets, the fonts): a third of a round pack's time (bench/print_bench.py). Paused, the
objects stay in the youngest generation, and one young collection at the end frees what was
garbage among them: only what the build made is walked, once. Memory grows meanwhile only by
the build's own cyclic garbage (about 20 MB for a 32-card round pack).

The collector is process-wide, so pauses in several threads nest: it runs again when the last
of them ends, and only if it was running when the first began.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused() -> Iterator[None]:
    """Hold off the cyclic collector in the `with` block; on leaving it (an error too), turn
    it back on if it was on, and collect the youngest generation."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            resume = _depth == 0 and _was_enabled
            if resume:
                gc.enable()
        if resume:
            gc.collect(0)
