"""The match pages' partials in Jinja2 (`jinja2/`, tournaments/jinja_env.py,
club/templatetags/jinja.py): they read Django's catalogue, Django's fragment cache and
Django's time zone as the Django templates they replaced did."""

import datetime
from pathlib import Path

import pytest
from django.core.cache import caches
from django.template import Context, Template, TemplateDoesNotExist, engines
from django.test import RequestFactory
from django.utils import translation
from jinja2.ext import babel_extract

ROOT = Path(__file__).resolve().parents[2]
SAME_IN_BULGARIAN = {"+"}  # the deal list's game-points column
PARTIALS = sorted((ROOT / "jinja2").rglob("*.html"))


def jinja(source: str, **context) -> str:
    return engines["jinja2"].from_string(source).render(context)


def messages_of(path: Path) -> list[str]:
    """Every message id a partial asks the catalogue for (`_()` and `{% trans %}`)."""
    with path.open("rb") as source:
        found = babel_extract(source, ("_", "gettext", "ngettext"), [], {})
        return [message for _line, _function, message, _comments in found]


def test_there_are_partials_and_each_asks_for_messages():
    assert len(PARTIALS) >= 18
    form = ROOT / "jinja2/tournaments/partials/match_form.html"
    assert "Save deal %(number)s" in messages_of(form)


@pytest.mark.parametrize("path", PARTIALS, ids=lambda p: p.name)
def test_every_message_of_a_partial_has_its_bulgarian_sentence(path):
    # Django's makemessages reads Django's templates only: a message id used by a partial
    # alone would lose its translation at the next run. The catalogue must hold each one.
    with translation.override("bg"):
        untranslated = [m for m in messages_of(path)
                        if translation.gettext(m) == m and m not in SAME_IN_BULGARIAN]
    assert untranslated == []


def test_translate_gives_the_bulgarian_sentence_escaped_as_django_escapes_it():
    with translation.override("bg"):
        assert jinja("{{ _(\"Players' link:\") }}") == "Връзка за играчите:"
    with translation.override("en"):
        assert jinja("{{ _(\"Players' link:\") }}") == "Players&#39; link:"


def test_a_trans_block_escapes_its_values_not_its_text():
    with translation.override("en"):
        html = jinja("{% trans name=name %}dealt by {{ name }}{% endtrans %}", name="<b>Иван</b>")
    assert html == "dealt by &lt;b&gt;Иван&lt;/b&gt;"


def test_an_unknown_name_or_attribute_draws_nothing_as_in_django():
    assert jinja("[{{ nobody }}|{{ nobody.name }}|{{ match.player.name }}]", match=None) == "[||]"


def test_dates_are_drawn_in_the_site_time_zone():
    # 22:30 UTC on 1 December is 00:30 on 2 December in Sofia (EET, UTC+2 in winter).
    when = datetime.datetime(2026, 12, 1, 22, 30, tzinfo=datetime.UTC)
    assert jinja('{{ when|date("d.m.Y H:i") }}', when=when) == "02.12.2026 00:30"
    assert jinja("{{ when|date('c') }}", when=when) == "2026-12-02T00:30:00+02:00"


def test_a_cached_fragment_is_the_one_django_cache_tag_stored():
    caches["fragments"].clear()
    django_tag = Template('{% load cache %}{% cache 60 quick_fields a b using="fragments" %}'
                          "first{% endcache %}")
    assert django_tag.render(Context({"a": "Иван", "b": "Мария"})) == "first"
    source = '{% call cached_fragment("quick_fields", a, b) %}second{% endcall %}'
    assert jinja(source, a="Иван", b="Мария") == "first"  # Django's entry, under Django's key
    assert jinja(source, a="Иван", b="Петя") == "second"  # another pair: drawn and stored
    assert jinja('{% call cached_fragment("quick_fields", a, b) %}third{% endcall %}',
                 a="Иван", b="Петя") == "second"


def test_a_django_template_draws_a_partial_with_its_context_and_the_values_given():
    request = RequestFactory().get("/")
    page = Template('{% load jinja %}{% jinja "tournaments/partials/match_undo.html" oob=True %}')
    html = page.render(Context({"request": request, "organiser": False}))
    assert html == '<div id="deal-undo" hx-swap-oob="true">\n  \n</div>'


def test_the_csrf_input_is_drawn_once_a_render_and_the_same_in_each_form():
    request = RequestFactory().get("/")
    html = engines["jinja2"].from_string("{{ csrf_input }}|{{ csrf_input }}").render({}, request)
    first, second = html.split("|")
    assert first == second and first.startswith('<input type="hidden" name="csrfmiddlewaretoken"')


def test_an_unknown_partial_is_refused():
    page = Template('{% load jinja %}{% jinja "tournaments/partials/nothing.html" %}')
    with pytest.raises(TemplateDoesNotExist):
        page.render(Context({}))
