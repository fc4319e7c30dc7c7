"""The one error an organiser (or any user) can fix: a stable code and the values it names.

Services raise `UserError` subclasses (`scoring.errors.RecordingError`,
`events.errors.TournamentError`, `printing.errors.PrintError`, ...) with a code and
parameters only -- the deal number, the table, the limit -- never a sentence. Each subclass
holds the sentences of its codes (`messages`, lazily translated), in the `errors` module of the
app that raises them; `core.messages.user_message(error)` fills the sentence in the active
language, so Bulgarian and English name the same numbers (as Django's
`ValidationError(message, code, params)` keeps the numbers apart from the words).

Pure Python (no Django import), so any layer may raise it. `scoring.rules.InvalidDeal` is the
pure rules module's own error and does not derive from this class (the rules import nothing of
the site); `user_message` speaks for both.
"""

from collections.abc import Mapping
from typing import Any, ClassVar


class UserError(Exception):
    """Something the user can fix: nothing was written, and `core.messages.user_message`
    says why.

    `UserError(code, **params)`: `code` is stable (a snake_case word, one per refusal; tests
    and the message catalogue key on it); `params` are the plain values the sentence names
    (numbers, seats, names), e.g. `RecordingError("undo_not_last", number=4, last_number=5)`.
    `str(error)` is the code and parameters, for logs; it is not shown to users.
    """

    messages: ClassVar[Mapping[str, Any]] = {}
    """This class's codes and their sentences (a subclass's own)."""

    _catalogue: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for code, sentence in cls.__dict__.get("messages", {}).items():
            UserError._catalogue.setdefault(code, sentence)

    @classmethod
    def codes(cls) -> dict[str, Any]:
        """Every code a loaded subclass has a sentence for, with that sentence."""
        return dict(UserError._catalogue)

    @staticmethod
    def sentence_of(error: "UserError") -> Any:
        """The sentence of `error.code`: its class's own (or a base class's), else that of the
        class that first defined the code. Raises `KeyError` for an unknown code."""
        for error_class in type(error).__mro__:
            sentence = vars(error_class).get("messages", {}).get(error.code)
            if sentence is not None:
                return sentence
        return UserError._catalogue[error.code]

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = dict(params)

    def __str__(self) -> str:
        if not self.params:
            return self.code
        values = ", ".join(f"{name}={value!r}" for name, value in sorted(self.params.items()))
        return f"{self.code} ({values})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self!s})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses with their own __init__ (ConfirmationRequired) pickle too (Celery results).
        return (_restore, (type(self), self.code, self.params), dict(self.__dict__))


def _restore(cls: type[UserError], code: str, params: dict[str, Any]) -> UserError:
    error = cls.__new__(cls)
    Exception.__init__(error, code)
    error.code, error.params = code, dict(params)
    return error
