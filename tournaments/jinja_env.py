"""The Jinja2 environment of the match pages' partials (`jinja2/`, settings.TEMPLATES).

A deal post answers with the match's score, its next form and the new row, drawn from a dozen
partials; through Django's template engine that answer was the largest part of a post's CPU
beyond its writes (docs/speed.md, "Session 9"). Jinja2 compiles each template to a Python
function and draws the same HTML for less: the answer's render about a third less CPU, the
organiser's whole match page about a fifth (docs/speed.md, "Session 12").
The partials use what Django's templates gave them, under the same names where Jinja2 allows:

- `_()` and `{% trans %}` take Django's catalogues (`jinja2.ext.i18n` with Django's
  `gettext`; the message ids are the ones Django's `{% blocktranslate %}` makes, so one
  catalogue serves both engines);
- `url(name, *args)` is `django.urls.reverse` (once a process: `club.url_memo`),
  `csrf_input` comes with the request (Django's Jinja2 backend), and `cached_fragment` is
  Django's `{% cache %}` tag;
- the filters `date` (in local time, as Django's), `capfirst`, `default_if_none`;
- an unknown name or attribute renders as nothing (`ChainableUndefined`), as in Django.

Django's templates draw a partial with `{% jinja "name" %}` (`club.templatetags.jinja`).
"""

from django.core.cache import caches
from django.core.cache.utils import make_template_fragment_key
from django.template import defaultfilters
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from markupsafe import Markup, escape

from jinja2 import ChainableUndefined, Environment


def translate(message: str) -> str:
    """`{{ _("…") }}`: Django's `{% translate %}`, escaped as Django escapes it (`{% trans %}`
    blocks, like `{% blocktranslate %}`, keep their text as written and escape the values)."""
    return escape(gettext(message))


def date(value, format_string: str) -> str:
    """Django's `date` filter, the value first turned to local time as Django's templates do."""
    if value in (None, ""):
        return ""
    if hasattr(value, "tzinfo") and timezone.is_aware(value):
        value = timezone.localtime(value)
    return defaultfilters.date(value, format_string)


def default_if_none(value, default=""):
    """Django's `default_if_none` filter: `default` for None only (0 and "" are kept)."""
    return default if value is None else value


def cached_fragment(name: str, *vary_on, caller, timeout: int = 3600) -> Markup:
    """`{% call cached_fragment(name, vary…) %}…{% endcall %}`: Django's `{% cache %}` tag in
    the "fragments" cache, under the key Django's tag would use."""
    key = make_template_fragment_key(name, vary_on)
    fragments = caches["fragments"]
    html = fragments.get(key)
    if html is None:
        html = str(caller())
        fragments.set(key, html, timeout)
    return Markup(html)  # noqa: S704 (drawn by the autoescaping template above)


def environment(**options) -> Environment:
    """The environment Django's Jinja2 backend builds (settings.TEMPLATES' "environment")."""
    options["undefined"] = ChainableUndefined  # Django's backend would set its own
    options.setdefault("extensions", ["jinja2.ext.i18n"])
    env = Environment(**options)
    from tournaments.templatetags.charts import match_race_chart

    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    env.globals.update(_=translate, url=lambda name, *args: reverse(name, args=args),
                       cached_fragment=cached_fragment, match_race_chart=match_race_chart)
    env.filters.update(date=date, capfirst=defaultfilters.capfirst,
                       default_if_none=default_if_none)
    return env
