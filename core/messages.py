"""The one place an error's code and parameters become a sentence in the user's language.

`user_message(error)` speaks for every error a user can fix: a `core.errors.UserError` (any
subclass; its sentence is in the `messages` of its class, beside the code that raises it, or
of the class that first defined the code) and the errors of pure modules registered with
`speak_for` (the rules' `InvalidDeal`, said by `scoring.messages.rule_message`).
"""

from collections.abc import Callable
from contextlib import nullcontext

from django.utils import translation
from django.utils.translation import gettext

from core.errors import UserError

_SPEAKERS: dict[type, Callable[[Exception], str]] = {}


def speak_for(error_class: type, speaker: Callable[[Exception], str]) -> None:
    """Say errors of `error_class` (not a `UserError`: a pure module's own error) with
    `speaker(error) -> str`."""
    _SPEAKERS[error_class] = speaker


class _Shown(dict):
    """Parameters for a sentence: a missing one shows as "?" rather than failing the page."""

    def __missing__(self, key):
        return "?"


def user_message(error) -> str:
    """The sentence, in the active language, for an error the user can fix. The numbers the
    error carries (`params`) are named in every language. Raises `KeyError` for a code no
    class knows (a bug: the tests render every code)."""
    for error_class in type(error).__mro__:
        if error_class in _SPEAKERS:
            return _SPEAKERS[error_class](error)
    params = _Shown({k: v for k, v in error.params.items() if v is not None})
    return str(UserError.sentence_of(error)) % params


def failure_message(error, language: str | None = None) -> str:
    """What a background job that failed (a print job) stores for its status page, in
    `language` (a code of `settings.LANGUAGES`; None: the active one): the sentence of an
    error the user can fix (`user_message`), else one fixed sentence -- never the
    exception's type or text, which belong in the log."""
    with translation.override(language) if language else nullcontext():
        if isinstance(getattr(error, "code", None), str) and hasattr(error, "params"):
            try:
                return user_message(error)
            except KeyError:  # a code of some library's exception, not ours
                pass
        return gettext(
            "The PDF could not be made because of an error on the server; it has been "
            "logged. Try again, or tell the site's administrator."
        )
