"""The attributes that make a page's read-only part live (`live.versions`).

    {% load live %}
    <div {% live_region "live-standings" %}>…</div>

gives the element its id and has htmx fetch the page again every `live.POLL_SECONDS` seconds
(the same address, query string included) and swap in the element of that id from the
answer; `static/js/live.js` sends the ETag of what is shown, so an unchanged page answers 304
and nothing is swapped. Put no form inside a live region: a poll would swap away what is typed.
"""

from django import template
from django.utils.html import format_html

from live.versions import POLL_SECONDS

register = template.Library()


@register.simple_tag(takes_context=True)
def live_region(context, region_id: str, url: str = "") -> str:
    """`id`, `data-live` and the htmx polling attributes for the element `region_id`; `url`
    defaults to the page's own address. `data-etag`: the ETag of what the page shows, when the
    view has one (`request.live_etag`, `live.versions`), for the first poll to send."""
    request = context["request"]
    url = url or request.get_full_path()
    return format_html(
        'id="{}" data-live hx-get="{}" hx-trigger="every {}s" hx-select="#{}" '
        'hx-swap="outerHTML"{}',
        region_id, url, POLL_SECONDS, region_id, live_etag(context),
    )


@register.simple_tag(takes_context=True)
def live_etag(context) -> str:
    """` data-etag="…"` with the view's `request.live_etag`, or nothing: for a live element
    that writes its own htmx attributes."""
    etag = getattr(context["request"], "live_etag", None)
    return format_html(' data-etag="{}"', etag) if etag else ""


@register.simple_tag
def poll_seconds() -> int:
    """`live.POLL_SECONDS`, for a live element that writes its own htmx attributes."""
    return POLL_SECONDS
