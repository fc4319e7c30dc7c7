"""The players' secret links never reach a log: every log record's message and arguments have
the token of a match's link `/p/<token>/...` and of a player's pass `/pass/<token>/...` replaced
by "…" (`/p/…/deal/`, `/pass/…/`), whoever logs it -- Django's
`django.request` ("Gone: /p/…/"), runserver's `django.server`, the access lines of uvicorn
(`make run`) and of gunicorn with uvicorn workers (`serve_club`).

Those servers set up their own loggers and handlers, some before Django starts, so a filter on
one handler would miss them: `install()` (called by the settings, in every process that loads
them) makes `MaskLinks` run on every record as it is created (`logging.setLogRecordFactory`).
The same filter is also named in `LOGGING` for handlers configured there.
"""

import logging
import re

LINK = re.compile(r"(/p/|/pass/)[^/\s\"'?#]+")
"""A players' link's or pass's token in a path: what follows `/p/` or `/pass/` up to the next
`/`, space, quote, query or fragment."""

HIDDEN = r"\1…"


def mask_links(text: str) -> str:
    """`text` with the token of every players' link replaced by "…"."""
    return LINK.sub(HIDDEN, text) if "/p" in text else text


def _masked(value):
    return mask_links(value) if isinstance(value, str) else value


class MaskLinks(logging.Filter):
    """A logging filter that masks the players' links in a record's message, arguments and
    traceback (strings only; other arguments, numbers for %d, are left as they are). Lets
    every record through."""

    def filter(self, record: logging.LogRecord) -> bool:
        mask(record)
        return True


_TRACEBACKS = logging.Formatter()


def mask(record: logging.LogRecord) -> logging.LogRecord:
    """Mask the links in `record`'s `msg` and `args` (a tuple or a mapping), and in its
    traceback (formatted now into `exc_text`, which formatters then print as it is: an
    exception's text may quote a request, `<WSGIRequest: GET '/p/…/'>`), in place."""
    if record.exc_info and not record.exc_text:
        record.exc_text = mask_links(_TRACEBACKS.formatException(record.exc_info))
    if record.stack_info:
        record.stack_info = mask_links(record.stack_info)
    record.msg = _masked(record.msg)
    if isinstance(record.args, tuple):
        record.args = tuple(_masked(arg) for arg in record.args)
    elif isinstance(record.args, dict):
        record.args = {key: _masked(value) for key, value in record.args.items()}
    return record


def install() -> None:
    """Mask the links of every record created from now on in this process (once)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "masks_links", False):
        return

    def masking_factory(*args, **kwargs) -> logging.LogRecord:
        return mask(factory(*args, **kwargs))

    masking_factory.masks_links = True
    logging.setLogRecordFactory(masking_factory)
