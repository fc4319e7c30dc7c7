"""`{% loopback_warning %}`: the one warning of a site address no phone can open
(`core.site_address`), for every page that shows or prints the players' links and QR codes."""

from django import template

from core.site_address import is_loopback, site_url

register = template.Library()


@register.inclusion_tag("partials/loopback_warning.html")
def loopback_warning() -> dict:
    """The warning (empty when `SITE_URL` is an address phones can open)."""
    url = site_url()
    return {"url": url, "loopback": is_loopback(url)}
