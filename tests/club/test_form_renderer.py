"""The site's form renderer (`club.form_renderer`): Django's form templates in Jinja2, the same
HTML as Django's own renderer gives, and the admin's widgets still drawn."""

import re

import pytest
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.forms.renderers import DjangoTemplates
from django.template.backends.jinja2 import Template as JinjaTemplate

from club.form_renderer import SiteFormRenderer
from scoring.forms import DealDetailsForm, DealQuickForm


def normalised(html: str) -> str:
    """`html` with its whitespace between tags dropped and runs of it made one space: the
    Jinja2 templates put their line breaks elsewhere."""
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


def test_a_widget_template_comes_from_jinja2():
    template = SiteFormRenderer().get_template("django/forms/widgets/radio.html")
    assert isinstance(template, JinjaTemplate)


def test_a_template_jinja2_lacks_comes_from_djangos_engine():
    template = SiteFormRenderer().get_template("admin/widgets/related_widget_wrapper.html")
    assert not isinstance(template, JinjaTemplate)


@pytest.mark.parametrize("data", [None, {"number": "1", "card_points_a": "130",
                                         "card_points_b": "x"}])
def test_the_deal_forms_are_drawn_as_djangos_renderer_draws_them(data):
    """Unbound, and bound with errors (130 card points: more than a deal has; "x": no number):
    the same fields, values, choices, attributes and error lists."""
    for form_class in (DealQuickForm, DealDetailsForm):
        prefixed = form_class(renderer=DjangoTemplates()).add_prefix
        bound = {prefixed(name): value for name, value in data.items()} if data else None
        ours = form_class(bound, renderer=SiteFormRenderer())
        djangos = form_class(bound, renderer=DjangoTemplates())
        if data:
            assert not ours.is_valid() and not djangos.is_valid()
            assert "card_points_b" in ours.errors or form_class is DealQuickForm
        assert normalised(str(ours)) == normalised(str(djangos))
        assert f'name="{prefixed("number")}"' in str(ours)


def test_an_admin_widget_is_drawn_through_the_fallback():
    from django.contrib import admin
    from django.forms import Select

    from tournaments.models import Tournament

    field = Tournament._meta.get_field("club")
    wrapper = RelatedFieldWidgetWrapper(Select(choices=[("1", "Клуб")]), field.remote_field,
                                        admin.site)
    html = wrapper.render("club", "1", renderer=SiteFormRenderer())
    assert 'class="related-widget-wrapper"' in html and '<option value="1" selected>' in html
