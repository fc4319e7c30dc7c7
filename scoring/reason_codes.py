"""The reason codes of a scorecard's legend ("1", "2", "3", "FC", "CF", "OO", "LT", "="): what
the printed card writes for each of `rules.REASONS`, and what the scorecard grid on the match
page (`scoring.scorecard_entry`) accepts when a paper card is copied in. One place for
both, so the screen reads exactly what the paper says."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext_lazy

from scoring import rules
from scoring.models import reason_label

REASON_CODES = {
    "won": "1",
    "schneider": "2",
    "capot": "3",
    # Translators: short code printed on scorecards for "false claim of 66" (2-3 letters).
    "false_claim": pgettext_lazy("reason code", "FC"),
    # Translators: short code printed on scorecards for "closer failed" (2-3 letters).
    "closer_failed": pgettext_lazy("reason code", "CF"),
    # Translators: short code on scorecards for "opponent of the closer went out" (2-3 letters).
    "opponent_out_after_close": pgettext_lazy("reason code", "OO"),
    # Translators: short code on scorecards for "last trick wins the deal" (2-3 letters).
    "last_trick": pgettext_lazy("reason code", "LT"),
    "draw": "=",
}
"""The code a scorecard prints for each of `rules.REASONS` (translated where it is letters)."""


def legend(house_rules: rules.HouseRules) -> list[dict]:
    """The reason codes `house_rules` allow, in `rules.REASONS` order, each with its reason,
    its label (`reason_label`, in the active language) and the game points it scores: "2/3"
    as printed (`game_points`) and as numbers (`points`), from
    `rules.game_points_by_reason`."""
    return [
        {"code": str(REASON_CODES[reason]), "reason": reason,
         "label": reason_label(reason, house_rules),
         "game_points": "/".join(str(p) for p in points), "points": points}
        for reason, points in rules.game_points_by_reason(house_rules).items() if points
    ]


def reason_of_code(code: str) -> str | None:
    """The reason (one of `rules.REASONS`) whose legend code is `code`, in any of the site's
    languages (a card printed in English is copied on a Bulgarian page), ignoring case and
    spaces; None for a code no legend has."""
    wanted = code.strip().casefold()
    if not wanted:
        return None
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for reason, printed in REASON_CODES.items():
                if str(printed).casefold() == wanted:
                    return reason
    return None


def codes_of(reason: str) -> list[str]:
    """Every code `reason` (one of `rules.REASONS`) has in the site's languages, the active
    language's first, each once: ["НО", "FC"] on a Bulgarian page."""
    codes = [str(REASON_CODES[reason])]
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            code = str(REASON_CODES[reason])
        if code not in codes:
            codes.append(code)
    return codes
