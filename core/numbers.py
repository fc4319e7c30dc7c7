"""Numbers in sentences, written the way the reader's language writes them."""

from django.utils import formats


def grouped(number: int) -> str:
    """`number` (a whole number) with the active language's thousands separator between
    every three digits: "20,000" in English, "20 000" in Bulgarian (a no-break space: Django's
    `THOUSAND_SEPARATOR` of the language). Django's own `number_format` does not group in
    Bulgarian (its formats give no `NUMBER_GROUPING`), hence this."""
    return f"{number:,}".replace(",", formats.get_format("THOUSAND_SEPARATOR"))
