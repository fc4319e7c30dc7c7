"""Validation of the names people type: players, events (no control or invisible
characters).

A name is plain text. Unicode's control characters (category Cc: NUL, escape, ...) and format
characters (Cf: the right-to-left override U+202E, the zero-width space U+200B, the byte-order
mark U+FEFF, ...) are refused wherever a name comes in: the model fields, every form that takes
a name, and the CSV import (`exchange.importing`). An invisible character would otherwise
make "Иван Петров" and "Иван Петров" + U+200B two players, or turn the text of a page around.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

REFUSED_CATEGORIES = ("Cc", "Cf")
"""Unicode general categories a name may not contain: control and format characters."""

NOT_PLAIN_TEXT = _(
    "A name may not contain the control or invisible character %(code)s; type the name as "
    "plain text."
)


def refused_character(value: str) -> str | None:
    """The first character of `value` that a name may not hold (`REFUSED_CATEGORIES`), or
    None."""
    return next(
        (char for char in value if unicodedata.category(char) in REFUSED_CATEGORIES), None
    )


def character_code(char: str) -> str:
    """`char` as its code point, e.g. "U+202E": how messages name an invisible character."""
    return f"U+{ord(char):04X}"


def validate_plain_text(value: str) -> None:
    """Django validator: raise `ValidationError` (code `not_plain_text`, param `code`: the
    first refused character as U+XXXX) when `value` holds a control or format character."""
    char = refused_character(value)
    if char is not None:
        raise ValidationError(
            NOT_PLAIN_TEXT, code="not_plain_text", params={"code": character_code(char)}
        )


def clean_name(value: str) -> str:
    """`value` as a name is stored: surrounding whitespace stripped and every run of
    whitespace (Python's `str.split`: spaces of any kind, tabs, line ends, the separators
    U+001C-U+001F) made one space; then raises `ValidationError` (`validate_plain_text`) for a
    control or format character left. The site's forms and the CSV import both call it."""
    name = " ".join(value.split())
    validate_plain_text(name)
    return name
