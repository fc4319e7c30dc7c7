"""Translated names of knockout rounds ("Final", "Semifinal", "Round of 16"), from the stable
keys of `formats.knockout.bracket.round_names`."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from formats.knockout.bracket import round_names

ROUND_NAMES = {
    "final": gettext_lazy("Final"),
    "semifinal": gettext_lazy("Semifinal"),
    "quarterfinal": gettext_lazy("Quarterfinal"),
}
THIRD_PLACE = gettext_lazy("Third-place match")


def round_label(number: int, count: int) -> str:
    """The name of round `number` (1-based) of a knockout of `count` rounds."""
    key = round_names(2**count)[number - 1]
    if key in ROUND_NAMES:
        return str(ROUND_NAMES[key])
    players = int(key.removeprefix("round_of_"))
    # Translators: a knockout round named by the number of players still in: "Round of 16".
    return _("Round of %(count)s") % {"count": players}


def round_labels(count: int) -> dict[int, str]:
    """{round number: name} for the `count` rounds of a knockout."""
    return {number: round_label(number, count) for number in range(1, count + 1)}


def pairing_label(pairing, count: int, first: int = 1) -> str:
    """The round name of a knockout pairing, or "Third-place match" (`count` rounds in the
    bracket, the first numbered `first`: 1, or the round after a group stage)."""
    if pairing.is_third_place:
        return str(THIRD_PLACE)
    return round_label(pairing.round.number - first + 1, count)
