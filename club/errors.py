"""The one error an organiser (or any user) can fix: a stable code and the values it names.

Services raise `UserError` subclasses (`scoring.services.RecordingError`,
`tournaments.services.TournamentError`, `tournaments.printing.jobs.PrintError`) with a code
and parameters only -- the deal number, the table, the limit -- never a sentence:
`club.messages.user_message(error)` turns code and parameters into the sentence in the active
language, so Bulgarian and English name the same numbers (STYLE.md "Errors as data until the
last moment", like Django's `ValidationError(message, code, params)`).

Pure Python (no Django import), so any layer may raise it. `scoring.rules.InvalidDeal` is the
pure rules module's own error and does not derive from this class (the rules import nothing of
the site); `user_message` speaks for both.
"""

from typing import Any


class UserError(Exception):
    """Something the user can fix: nothing was written, and `club.messages.user_message`
    says why.

    `UserError(code, **params)`: `code` is stable (a snake_case word, one per refusal; tests
    and the message catalogue key on it); `params` are the plain values the sentence names
    (numbers, seats, names), e.g. `RecordingError("undo_not_last", number=4, last_number=5)`.
    `str(error)` is the code and parameters, for logs; it is not shown to users.
    """

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
