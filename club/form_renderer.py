"""The site's form renderer: Django's own form and widget templates, drawn by Jinja2.

A deal's entry forms are most of what the deal pages render: on the players' page at the
table, two dozen widgets, each a Django template of its own (a radio button, a select's
options), took more than half of the page's render. Django ships each of those templates for
Jinja2 too (`django/forms/jinja2/`), and Jinja2 compiles a template to Python: the same HTML
(whitespace apart) in less time; the players' page went from 20.2 to 14.4 ms of CPU
(docs/speed.md, "Session 10"). Django's admin ships its widgets for Django's engine only, so a
template that Jinja2 does not have is drawn by Django's, as before.
"""

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist
from django.utils.functional import cached_property


class SiteFormRenderer(BaseRenderer):
    """`settings.FORM_RENDERER`: a form template from Django's Jinja2 set when it has one,
    else from Django's template engine (the admin's widgets)."""

    @cached_property
    def jinja2(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def django(self) -> DjangoTemplates:
        return DjangoTemplates()

    def get_template(self, template_name: str):
        try:
            return self.jinja2.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)
