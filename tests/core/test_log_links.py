"""No players' link reaches a log (config/log_links.py): a whole evening at a table through
the link's pages -- a seat, deals, a bad deal (422), a dispute before the end (409), an old
renewed link (410), wrong links (404), the stream -- with every logger at DEBUG (SQL included)
and a capturing handler on each, leaves no token in any record; the servers' access lines
(uvicorn's, gunicorn's) are masked too, whichever handler they go to."""

import io
import logging

import pytest
from django.db import connection
from django.test import Client

from config.log_links import MaskLinks, mask_links
from tableside import table_entry

pytest_plugins = ["tests.tableside.table_fixtures"]


class Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def every_logger_at_debug():
    """A capturing handler on the root and on every logger, each at DEBUG (levels and
    handlers put back after), and the database's queries logged."""
    capture = Capture()
    loggers = [logging.getLogger()] + [
        logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    loggers += [logging.getLogger(name) for name in ("uvicorn.access", "gunicorn.access",
                                                     "django.server", "django.request")]
    saved = [(logger, logger.level, logger.disabled) for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.DEBUG)
        logger.disabled = False
        logger.addHandler(capture)
    connection.force_debug_cursor = True
    try:
        yield capture
    finally:
        connection.force_debug_cursor = False
        for logger, level, disabled in saved:
            logger.removeHandler(capture)
            logger.setLevel(level)
            logger.disabled = disabled


def everything_logged(records) -> str:
    """Each record as a handler prints it (with its traceback), and its raw message and
    arguments."""
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(f"{formatter.format(record)} {record.msg!r} {record.args!r}"
                     for record in records)


def test_mask_links_hides_the_token_and_keeps_the_rest():
    assert mask_links("Gone: /p/AbC-d_e12/deal/sync/") == "Gone: /p/…/deal/sync/"
    assert (mask_links('"GET /p/tok123/live/?v=4 HTTP/1.1" 200 -')
            == '"GET /p/…/live/?v=4 HTTP/1.1" 200 -')
    assert mask_links("/p/tok123") == "/p/…"
    assert mask_links("/print/12/ and /t/3/live/") == "/print/12/ and /t/3/live/"


@pytest.mark.django_db
@pytest.mark.usefixtures("empty_cache")
def test_a_table_s_evening_through_its_link_logs_no_token(match, organiser,
                                                          every_logger_at_debug):
    old = table_entry.table_of(match).token
    token = table_entry.link_renew(match=match, by=organiser).token  # before the capture's SQL
    every_logger_at_debug.records.clear()
    phone = Client()
    assert phone.post(f"/p/{token}/seat/", {"seat": "A"}).status_code == 302
    assert phone.get(f"/p/{token}/").status_code == 200
    for number, winner in [(1, "A"), (2, "B")]:
        answer = phone.post(f"/p/{token}/deal/", {"number": number, "winner": winner,
                                                  "reason": "won", "game_points": 1})
        assert answer.status_code == 302
    assert phone.post(f"/p/{token}/deal/", {"number": 3, "winner": "A", "reason": "won",
                                            "game_points": 7}).status_code == 422
    assert phone.post(f"/p/{token}/dispute/", {"text": "deal 2"}).status_code == 409
    assert phone.post(f"/p/{token}/deal/sync/", {"number": 3, "winner": "A", "reason": "won",
                                                 "game_points": 1},
                      HTTP_ACCEPT="application/json").status_code == 200
    assert phone.get(f"/p/{old}/").status_code == 410
    assert phone.get(f"/p/{token[:-1]}x/").status_code == 404
    assert Client().get(f"/p/{token}/seat/").status_code == 405

    logged = everything_logged(every_logger_at_debug.records)
    requests = {record.getMessage() for record in every_logger_at_debug.records
                if record.name == "django.request"}
    assert requests == {"Unprocessable Entity: /p/…/deal/", "Conflict: /p/…/dispute/",
                        "Gone: /p/…/", "Not Found: /p/…/", "Method Not Allowed (GET): /p/…/seat/"}
    assert "SELECT" in logged  # the queries were logged too (by the token's hash only)
    for live in (token, old, token[:-1] + "x"):
        assert live not in logged
    assert match.deals.count() == 3


@pytest.mark.parametrize("logger_name, fmt, args, shown", [
    ("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
     ("192.168.1.31:50312", "POST", "/p/{token}/deal/sync/", "1.1", 409),
     '192.168.1.31:50312 - "POST /p/…/deal/sync/ HTTP/1.1" 409'),
    ("gunicorn.access", '%(h)s "%(r)s" %(s)s',
     {"h": "192.168.1.31", "r": "GET /p/{token}/live/?v=3 HTTP/1.1", "s": "200"},
     '192.168.1.31 "GET /p/…/live/?v=3 HTTP/1.1" 200'),
    ("django.server", '"%s" %s %s', ("GET /p/{token}/ HTTP/1.1", "404", "2331"),
     '"GET /p/…/ HTTP/1.1" 404 2331'),
])
def test_the_servers_access_lines_are_masked_on_their_own_handlers(logger_name, fmt, args,
                                                                   shown):
    token = "Qx7-kR2_vb9LmN0pZs4TyW1aE6cD8fGh"
    filled = ({k: v.replace("{token}", token) for k, v in args.items()}
              if isinstance(args, dict) else
              tuple(a.replace("{token}", token) if isinstance(a, str) else a for a in args))
    out = io.StringIO()
    handler = logging.StreamHandler(out)  # a server's own handler, not Django's
    logger = logging.getLogger(logger_name)
    saved = (logger.level, logger.propagate, logger.disabled)
    logger.setLevel(logging.INFO)
    logger.propagate, logger.disabled = False, False
    logger.addHandler(handler)
    try:
        logger.info(fmt, filled)  if isinstance(filled, dict) else logger.info(fmt, *filled)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate, logger.disabled = saved[1], saved[2]
    assert out.getvalue() == shown + "\n"


def test_the_filter_masks_a_record_made_before_it_was_installed():
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                               '%s "%s"', ("1.2.3.4", "GET /p/secretToken42/ HTTP/1.1"), None)
    record.msg, record.args = '%s "%s"', ("1.2.3.4", "GET /p/secretToken42/ HTTP/1.1")
    assert MaskLinks().filter(record) is True
    assert record.getMessage() == '1.2.3.4 "GET /p/…/ HTTP/1.1"'
