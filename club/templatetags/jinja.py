"""`{% jinja "name" key=value … %}`: a Jinja2 partial (`jinja2/`, `tournaments.jinja_env`) drawn
inside a Django template, with the Django template's context and the given values, as
`{% include "name" with key=value %}` would draw a Django one."""

from django import template
from django.template import engines
from django.utils.safestring import SafeString, mark_safe

from club.jinja_context import csrf_input

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context, template_name: str, **values) -> SafeString:
    """The partial `template_name` (a path under `jinja2/`) drawn with `context` flattened,
    `values` over it, and the request's `csrf_input` (Django's Jinja2 backend gives its
    templates that name). Raises `TemplateDoesNotExist` for an unknown name."""
    partial = engines["jinja2"].get_template(template_name).template
    names = context.flatten()
    names.update(values)
    request = names.get("request")
    if request is not None and "csrf_input" not in names:
        names.update(csrf_input(request))
    return mark_safe(partial.render(names))  # noqa: S308 (Jinja2 escaped what it drew)
