"""The data version of a printed document follows its templates and stylesheet: no layout
number to bump by hand (`pdf.template_version`)."""

import pytest

from printing import kinds, pdf


@pytest.fixture
def templates(settings, tmp_path):
    """A template folder of our own: print/page.html extends print/frame.html and includes
    print/part.html."""
    folder = tmp_path / "templates"
    (folder / "print").mkdir(parents=True)
    (folder / "print" / "frame.html").write_text("<html>{% block body %}{% endblock %}</html>")
    (folder / "print" / "part.html").write_text("<p>part</p>")
    (folder / "print" / "page.html").write_text(
        '{% extends "print/frame.html" %}{% block body %}{% include "print/part.html" %}'
        "{% endblock %}"
    )
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [folder], "APP_DIRS": False}]
    pdf.template_version.cache_clear()
    yield folder / "print"
    pdf.template_version.cache_clear()


def version_after(change) -> str:
    change()
    pdf.template_version.cache_clear()
    return pdf.template_version("print/page.html")


def test_a_template_its_parents_its_parts_and_the_stylesheet_make_its_version(
    templates, monkeypatch
):
    first = pdf.template_version("print/page.html")
    assert pdf.template_version("print/page.html") == first  # same sources, same version
    frame = version_after(lambda: (templates / "frame.html").write_text("<html>{% block body %}"
                                                                         "{% endblock %}!</html>"))
    part = version_after(lambda: (templates / "part.html").write_text("<p>part 2</p>"))
    monkeypatch.setattr(pdf, "stylesheet", lambda: "body { color: red }")
    css = version_after(lambda: None)
    assert len({first, frame, part, css}) == 4


def test_every_kinds_version_includes_its_templates_and_layout_code(monkeypatch):
    versions = []
    for template in ("print/scorecard.html", "print/round_sheet.html", "print/standings.html",
                     "print/bracket.html", "print/partials/scorecard.html"):
        versions.append(pdf.template_version(template))
    assert len(set(versions)) == 5
    tournament = type("T", (), {"name": "Купа", "date": None, "venue": "", "format": "rr",
                                "tie_breaks": [], "withdrawal_policy": "", "game_target": 11,
                                "records": "deals"})
    before = kinds._tournament_part(tournament, "print/scorecard.html")
    monkeypatch.setattr(kinds, "template_version", lambda template: "another layout")
    after_template = kinds._tournament_part(tournament, "print/scorecard.html")
    assert after_template != before
    monkeypatch.setattr(kinds, "layout_code_version", lambda: "another grid")
    assert kinds._tournament_part(tournament, "print/scorecard.html") != after_template
