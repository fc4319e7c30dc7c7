"""Validation of the text people type: names of players and events, and every other free
text (a dispute, a correction's reason, a venue, a club's name and city): no control or
invisible characters, and a length limit.

A name is plain text. Unicode's control characters (category Cc: NUL, escape, ...) and format
characters (Cf: the right-to-left override U+202E, the zero-width space U+200B, the byte-order
mark U+FEFF, ...) are refused wherever a name comes in: the model fields, every form that takes
a name, and the CSV import (`exchange.importing`). An invisible character would otherwise
make "Иван Петров" and "Иван Петров" + U+200B two players, or turn the text of a page around;
a NUL byte cannot even be stored in PostgreSQL. Free text (`clean_text`, the forms'
`PlainTextField`) follows the same rule, except that a text of several lines keeps its line
ends and tabs; it is refused, not trimmed, when longer than its limit.
"""

import unicodedata

from django import forms
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


MULTILINE_ALLOWED = frozenset("\n\t")
"""The control characters a text of several lines may hold: the line end and the tab (a
Windows line end, CR LF, and a lone CR are made LF first)."""

TEXT_NOT_PLAIN = _(
    "The text may not contain the control or invisible character %(code)s; type it as plain "
    "text."
)
TEXT_TOO_LONG = _(
    "The text is %(length)s characters long; at most %(limit)s fit. Shorten it."
)


def refused_text_character(value: str, *, multiline: bool = False) -> str | None:
    """The first character of `value` that a free text may not hold (`REFUSED_CATEGORIES`;
    with `multiline`, LF and tab are allowed), or None."""
    allowed = MULTILINE_ALLOWED if multiline else frozenset()
    return next(
        (char for char in value
         if char not in allowed and unicodedata.category(char) in REFUSED_CATEGORIES), None
    )


def clean_text(value: str, *, max_length: int, multiline: bool = False) -> str:
    """`value` as a free text is stored: surrounding whitespace stripped (a single-line text:
    every line end or tab made a space; a multi-line one: CR LF and CR made LF). Raises
    `ValidationError` with code `text_not_plain` (param `code`: the first refused character as
    U+XXXX) or `text_too_long` (params `length`, `limit`); nothing is cut off silently."""
    text = value.replace("\r\n", "\n").replace("\r", "\n")
    if not multiline:
        text = text.replace("\n", " ").replace("\t", " ")
    text = text.strip()
    char = refused_text_character(text, multiline=multiline)
    if char is not None:
        raise ValidationError(
            TEXT_NOT_PLAIN, code="text_not_plain", params={"code": character_code(char)}
        )
    if len(text) > max_length:
        raise ValidationError(
            TEXT_TOO_LONG, code="text_too_long", params={"length": len(text), "limit": max_length}
        )
    return text


class PlainTextField(forms.CharField):
    """A form's free-text field checked by `clean_text` (the one rule, with its own two
    sentences in place of Django's length and NUL ones): `max_length` is required;
    `multiline` keeps line ends and tabs (a textarea)."""

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs):
        self.text_limit, self.multiline = max_length, multiline
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}) if multiline else None)
        if kwargs["widget"] is None:
            del kwargs["widget"]
        super().__init__(strip=False, **kwargs)
        self.widget.attrs.setdefault("maxlength", str(max_length))

    def to_python(self, value):
        text = super().to_python(value)
        if text in self.empty_values:
            return text
        return clean_text(text, max_length=self.text_limit, multiline=self.multiline)


class NameField(forms.CharField):
    """A form's name field: `clean_name` (whitespace joined, no control or invisible character,
    a NUL byte included, with the names' sentence) before Django's own checks."""

    def to_python(self, value):
        name = super().to_python(value)
        return clean_name(name) if name not in self.empty_values else name
