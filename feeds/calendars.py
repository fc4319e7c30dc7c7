"""Events as an iCalendar file (RFC 5545), written with the `icalendar` library, which folds
long lines and escapes commas, semicolons, backslashes and line breaks in the text.

An event has a date and no start time, so each is an all-day event: DTSTART is its date and
DTEND the next day (the end is not part of the event). Its UID is made from the event's id
and the site's own address (`SITE_URL`), not the address the feed was read from, so it stays
the same however the calendar reached the site, and a calendar program updates the event
rather than adding it again.
"""

import datetime
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

import icalendar

from core.site_address import site_url
from events.models import Tournament

PRODUCT_ID = "-//Santase club//Calendar feed//EN"
REFRESH_HOURS = 1
"""How often a calendar program is asked to read the feed again."""


def event_uid(tournament: Tournament) -> str:
    """The event's UID, e.g. `event-12@club.example.org`: the same at every reading."""
    host = urlsplit(site_url()).hostname or "localhost"
    return f"event-{tournament.pk}@{host}"


def calendar_bytes(name: str, events: Iterable[Tournament],
                   address: Callable[[str], str]) -> bytes:
    """An iCalendar file named `name` with one VEVENT per event of `events`, in that order.
    `address` turns a path of the site into an absolute URL (`request.build_absolute_uri`)."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("refresh-interval", datetime.timedelta(hours=REFRESH_HOURS),
                 parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", datetime.timedelta(hours=REFRESH_HOURS))
    for tournament in events:
        calendar.add_component(calendar_event(tournament, address))
    return calendar.to_ical()


def calendar_event(tournament: Tournament, address: Callable[[str], str]) -> icalendar.Event:
    """One event as an all-day VEVENT: its name, venue, format, the URL of its page and its
    UID (`event_uid`). DTSTAMP is when the event was created, so two readings are the same."""
    event = icalendar.Event()
    event.add("uid", event_uid(tournament))
    event.add("dtstamp", tournament.created_at.astimezone(datetime.UTC))
    event.add("dtstart", tournament.date)
    event.add("dtend", tournament.date + datetime.timedelta(days=1))
    event.add("summary", tournament.name)
    if tournament.venue:
        event.add("location", tournament.venue)
    event.add("description", str(tournament.get_format_display()))
    event.add("url", address(tournament.get_absolute_url()))
    event.add("transp", "TRANSPARENT")
    return event
