"""The attributes of a live page (`live.pages`).

    <body{% live_stream %}>          the page's stream, on the body (it outlives every swap)
    <div {% live_region "live-standings" %}>…</div>

`live_region` gives the element its id and has htmx fetch the page's part again (the same
address, query string included) each time the stream says `changed`, and swap it in whole; or
swap in the part the stream pushes (`part`, `live.pushed`).
`static/js/live.js` holds a fetch back while a form inside the region is being filled. Put
the region's element at the top of the part's template, so the answer replaces it.
"""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag(takes_context=True)
def live_stream(context) -> str:
    """` hx-ext="sse" sse-connect="…" sse-close="gone"` for a live page, else nothing."""
    live = getattr(context.get("request"), "live", None)
    if live is None:
        return ""
    return format_html(' hx-ext="sse" sse-connect="{}" sse-close="gone" data-live-stream',
                       live.stream)


@register.simple_tag(takes_context=True)
def live_region(context, region_id: str, url: str = "") -> str:
    """`id`, `data-live` and the htmx attributes for the element `region_id`; `url` defaults
    to the page's own address. A page drawn as the answer to a post (a refusal, 4xx) is not at
    its own address: its view names that in the context (`live_url`), or the part would be
    fetched from the post's address (405)."""
    request = context["request"]
    if not url:
        url = request.get_full_path()
        if request.method not in ("GET", "HEAD"):
            url = context.get("live_url") or url
    return format_html(
        'id="{}" data-live hx-get="{}" hx-trigger="sse:changed" sse-swap="part" '
        'hx-swap="outerHTML"',
        region_id, url,
    )
