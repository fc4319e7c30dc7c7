"""The WeasyPrint plumbing shared by every printed document: a template rendered to A4 PDF
bytes, with the print stylesheet, system fonts, nothing fetched, progress reported.

Nothing is fetched while rendering: the stylesheet (`static/css/print.css`) is read from disk,
fonts come from the system (DejaVu covers Cyrillic), images are PNG data URIs, and the URL
fetcher refuses every scheme but `data:`.

Speed: the stylesheet is parsed and the fonts are configured once per process and thread
(`_weasyprint`), not once per document: together they cost a document more than laying out a
page of scorecards (bench/print_bench.py). The stylesheet is handed to WeasyPrint as a user
stylesheet, so a template's own `<style>` (the scorecards' form images) comes after it in the
cascade, as it did when the stylesheet was inlined before it.

`template_version` is the fingerprint of what a template prints with: its source, the templates
it extends or includes, and the stylesheet. It is part of every document's data version
(`printing.kinds`), so a changed template can never serve a stale PDF.
"""

import re
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import get_template, render_to_string

from core.fingerprints import fingerprint
from printing import collector

Progress = Callable[[int], None] | None
"""Called with a percentage (0-100) as a document's parts are rendered."""

STYLESHEET = "css/print.css"
"""The stylesheet of every printed document, a static file path."""

_REFERENCES = re.compile(r"""{%\s*(?:extends|include)\s+["']([^"']+)["']""")


def stylesheet() -> str:
    """The text of `STYLESHEET`, read from disk (found as the static files are)."""
    with open(finders.find(STYLESHEET), encoding="utf-8") as css:
        return css.read()


def _template_sources(name: str, seen: set[str]) -> list[tuple[str, str]]:
    """(name, source) of template `name` and, depth first, of each template it extends or
    includes by a literal name."""
    if name in seen:
        return []
    seen.add(name)
    source = Path(get_template(name).origin.name).read_text(encoding="utf-8")
    found = [(name, source)]
    for other in _REFERENCES.findall(source):
        found += _template_sources(other, seen)
    return found


@lru_cache(maxsize=32)
def template_version(template: str) -> str:
    """The fingerprint of `template` (a name under `templates/`): its source, the sources of
    the templates it extends or includes (by literal name, recursively) and the stylesheet.
    Worked out once per process: templates do not change under a running site.

    Raises `TemplateDoesNotExist` for an unknown template (a bug)."""
    return fingerprint(_template_sources(template, set()), stylesheet())


@lru_cache(maxsize=1)
def _fetcher():
    """WeasyPrint's URL fetcher, refusing every scheme but `data:`."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols={"data"})


_local = threading.local()


def _weasyprint():
    """This thread's WeasyPrint font configuration and the parsed `STYLESHEET`, made on first
    use and kept: the stylesheet does not change under a running site (as `template_version`
    assumes), and a font configuration (Pango's font map) is not shared between threads.

    WeasyPrint is imported here, not at the top: it takes about half a second to load, which
    every command, web worker and test process would otherwise pay without printing."""
    if not hasattr(_local, "css"):
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        fonts = FontConfiguration()
        _local.fonts = fonts
        _local.css = CSS(string=stylesheet(), font_config=fonts, url_fetcher=_fetcher(),
                         base_url=str(settings.BASE_DIR))
    return _local.fonts, _local.css


def render_html(htmls: Sequence[str], progress: Progress = None) -> bytes:
    """Lay out each HTML document of `htmls` with the print stylesheet and join their pages
    into one PDF; return its bytes. Fonts and images are shared by the documents; the garbage
    collector is paused meanwhile (`collector.paused`). `progress` gets 0-90 as they are laid
    out, then 100."""
    from weasyprint import HTML

    fonts, css = _weasyprint()
    images: dict = {}
    documents = []
    with collector.paused():
        for done, html in enumerate(htmls, start=1):
            documents.append(HTML(
                string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetcher()
            ).render(stylesheets=[css], font_config=fonts, cache=images))
            if progress:
                progress(int(90 * done / len(htmls)))
        pages = [page for document in documents for page in document.pages]
        pdf = documents[0].copy(pages).write_pdf()
        del documents, pages
    if progress:
        progress(100)
    return pdf


def render_pdf(parts: Sequence[tuple[str, dict]], progress: Progress = None) -> bytes:
    """Render each (template, context) part (`render_html`: one WeasyPrint document each) and
    join their pages into one PDF; return its bytes. `progress` gets 0-90 as the parts are
    laid out, then 100."""
    return render_html(
        [render_to_string(template, context) for template, context in parts], progress
    )
