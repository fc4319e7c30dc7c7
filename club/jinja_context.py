"""What every Jinja2 partial may use beside its view's context (settings.TEMPLATES)."""

from django.template.backends.utils import csrf_input as csrf_input_html
from django.utils.functional import SimpleLazyObject


def csrf_input(request) -> dict:
    """`{{ csrf_input }}`, the CSRF token's hidden input, drawn once a render: Django's Jinja2
    backend gives a lazy string that masks the token again at each use (an answer with an
    entry form and an undo form uses it twice)."""
    return {"csrf_input": SimpleLazyObject(lambda: csrf_input_html(request))}
