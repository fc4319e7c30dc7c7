"""The path converters: `<id:...>`, which every URL that takes an id or a number uses, and
`<token:...>`, a players' link.

Django's `<int:...>` matches any run of digits, and an id past the database's integer range
then crashes the query on SQLite (`OverflowError`: "Python int too large to convert to SQLite
INTEGER") where PostgreSQL finds nothing. `<id:...>` matches only 1 .. 2**63 - 1 (the range
of a `BigAutoField`, and of every round and deal number), so anything else is a plain 404
before a view runs, on every database.

The core app registers both when the site loads (`core.apps`).
"""

from django.urls import register_converter

ID_MAX = 2**63 - 1  # 9223372036854775807: a signed 64-bit integer, SQLite's and bigint's top


class IdConverter:
    """A positive id or number, 1 .. `ID_MAX`; anything else does not match (404)."""

    regex = "[0-9]+"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= ID_MAX:
            raise ValueError(f"{value} is not an id between 1 and {ID_MAX}")
        return number

    def to_url(self, value) -> str:
        return str(self.to_python(str(value)))


register_converter(IdConverter, "id")


class TokenConverter:
    """A link's token as `secrets.token_urlsafe` writes it: 22 to 64 URL-safe characters
    (22 is 128 bits; ours are 32). Anything else is no players' link at all (404)."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")
