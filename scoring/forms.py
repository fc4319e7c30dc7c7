"""Forms for entering and correcting deals: validation is delegated to `scoring.rules`.

Each form is given the match (for the house rules and the players' names on the seat choices).
`clean()` asks `rules.quick_result` or `rules.score_deal`; an `rules.InvalidDeal` becomes a form
error on the field it names, in the user's language (`scoring.messages.user_message`). A valid
form carries `score` (a `rules.DealScore`) and `record` (the `rules.DealRecord`, or None) for
`scoring.services`.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from core.messages import user_message
from core.text import PlainTextField
from scoring import rules
from scoring.messages import DEAL_NUMBER_MISSING, DRAW_WITH_WINNER
from scoring.models import Reason, reason_label

GAME_POINTS = (0, 1, 2, 3)


def draws_allowed(house_rules: rules.HouseRules) -> bool:
    """Whether a deal may end drawn, 0 game points each, under `house_rules` (docs/rules.md §7;
    `rules.game_points_by_reason`): the quick form's draw button."""
    return bool(rules.game_points_by_reason(house_rules)["draw"])


def _seat_choices(match) -> list[tuple[str, str]]:
    """Seat choices labelled with the players' names when the match is known."""
    if match is None:
        return [("A", _("seat A")), ("B", _("seat B"))]
    return [("A", match.player_a.name), ("B", match.player_b.name)]


def _deal_number_field() -> forms.IntegerField:
    """The hidden deal number a deal form or the undo button sends: the deal the page showed
    (the next one to enter, the last one to undo). Missing or not a whole number: the form's
    error, `DEAL_NUMBER_MISSING`. Whether the number fits the match is decided by
    `scoring.services` under the match's lock (`deal_number_out_of_range`,
    `undo_number_out_of_range`), where the deals entered meanwhile are known."""
    messages = {"required": DEAL_NUMBER_MISSING, "invalid": DEAL_NUMBER_MISSING}
    return forms.IntegerField(widget=forms.HiddenInput, error_messages=messages)


class DealUndoForm(forms.Form):
    """The undo button: `number`, the deal the page showed as the last one, so a double tap
    (or a page drawn before someone else's undo) never undoes a second deal."""

    number = _deal_number_field()


class _MatchForm(forms.Form):
    """Knows the match's house rules and turns `InvalidDeal` into a field error."""

    def __init__(self, *args, match=None, house_rules: rules.HouseRules | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.match = match
        if house_rules is None:
            house_rules = match.house_rules() if match is not None else rules.HouseRules()
        self.house_rules = house_rules
        self.score: rules.DealScore | None = None
        self.record: rules.DealRecord | None = None

    def _error_field(self, field: str | None) -> str | None:
        """The form field for an `InvalidDeal.field`: "card_points.A" -> "card_points_a"."""
        if not field:
            return None
        name, _sep, seat = field.partition(".")
        candidate = f"{name}_{seat.lower()}" if seat else name
        return candidate if candidate in self.fields else None

    def add_rule_error(self, error: rules.InvalidDeal) -> None:
        self.add_error(self._error_field(error.field), user_message(error))


class DealQuickForm(_MatchForm):
    """The organiser's fast path: who won, why, and (where the reason leaves a choice) how many
    game points. A draw is the `draw` submit button (or winner empty with reason "draw").

    `game_points` may be left out when the reason fixes them (won 1, schneider 2, capot 3, a
    false claim or going out after a close per the house rules); it is required for a failed
    close under `failed_close` other than "flat" (2 or 3) and for `last_trick` (1-3).

    The draw button with a winner chosen too is refused (an error on `winner`,
    `DRAW_WITH_WINNER`), not guessed; the form drawn again then has no winner checked, so the
    draw button works the second time.
    """

    # A correction's form is filled with the deal's winner, and its button says "Make it a
    # draw": there the draw replaces the winner (DealCorrectionForm).
    draw_overrides_winner = False

    number = _deal_number_field()
    winner = forms.ChoiceField(label=_("Who won the deal"), required=False,
                               widget=forms.RadioSelect)
    reason = forms.ChoiceField(label=_("Why"), choices=Reason.choices, widget=forms.RadioSelect)
    game_points = forms.TypedChoiceField(
        label=_("Game points"), required=False, coerce=int, empty_value=None,
        choices=[(points, str(points)) for points in GAME_POINTS], widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = _seat_choices(self.match)
        self.allowed_points = rules.game_points_by_reason(self.house_rules)
        self.draws_allowed = draws_allowed(self.house_rules)
        self.draw_with_winner = False

    @property
    def draw_requested(self) -> bool:
        return self.is_bound and bool(self.data.get(self.add_prefix("draw")))

    def winner_buttons(self) -> list[dict]:
        """The two seats, labelled with the players' names (written out in the template, not by
        the widget's own templates: this form is rendered after every deal)."""
        checked = None if self.draw_with_winner else self["winner"].value()
        return [
            {"value": value, "label": label, "checked": checked == value,
             "id": f"{self['winner'].auto_id}_{index}"}
            for index, (value, label) in enumerate(self.fields["winner"].choices)
        ]

    def reason_buttons(self) -> list[dict]:
        """The reasons possible under the house rules (not the draw, which has its own button),
        each labelled for these rules (`reason_label`: "loser under 31") with the game points it
        scores: "1", "2 / 3"."""
        checked = self["reason"].value()
        buttons = []
        for value in Reason.values:
            allowed = self.allowed_points[value]
            if value == "draw" or not allowed:
                continue
            buttons.append({
                "value": value, "label": reason_label(value, self.house_rules),
                "checked": checked == value,
                "game_points": " / ".join(str(p) for p in allowed), "fixed": len(allowed) == 1,
                "id": f"{self['reason'].auto_id}_{value}",
            })
        return buttons

    def game_point_buttons(self) -> list[dict]:
        """Game points to choose from, only where a possible reason leaves a choice."""
        open_points = sorted({
            p for reason, allowed in self.allowed_points.items() if len(allowed) > 1
            for p in allowed
        })
        checked = self["game_points"].value()
        return [
            {"value": p, "checked": str(checked) == str(p),
             "id": f"{self['game_points'].auto_id}_{p}"}
            for p in open_points
        ]

    def clean(self):
        cleaned = super().clean()
        if self.draw_requested:
            posted_winner = self.data.get(self.add_prefix("winner"))
            cleaned.update(winner="", reason="draw", game_points=0)
            for name in ("winner", "reason", "game_points"):
                self.errors.pop(name, None)
            if posted_winner and not self.draw_overrides_winner:
                self.draw_with_winner = True
                name = dict(self.fields["winner"].choices).get(posted_winner, posted_winner)
                self.add_error("winner", DRAW_WITH_WINNER % {"name": name})
                return cleaned
        winner = cleaned.get("winner") or None
        reason = cleaned.get("reason")
        if not reason:
            return cleaned  # the field's own "required" error says it
        points = cleaned.get("game_points")
        if points is None and "game_points" not in self.errors:
            allowed = self.allowed_points.get(reason, ())
            if len(allowed) > 1:
                self.add_error("game_points", _("Choose the game points: %(choices)s.") % {
                    "choices": ", ".join(str(p) for p in allowed)
                })
                return cleaned
            points = allowed[0] if allowed else 0
        if self.errors:
            return cleaned
        try:
            self.score = rules.quick_result(winner, points, reason, self.house_rules)
        except rules.InvalidDeal as error:
            self.add_rule_error(error)
            return cleaned
        cleaned.update(winner=winner or "", game_points=points)
        return cleaned


class DealCorrectionForm(DealQuickForm):
    """The quick fields again for an earlier deal, and why it is corrected (kept in history).
    Its "Make it a draw" button replaces the winner the form was filled with."""

    draw_overrides_winner = True

    correction_reason = PlainTextField(
        label=_("Why is the deal corrected?"), max_length=100,
        help_text=_("Kept with the deal's history, e.g. “scorecard misread”."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["number"]


class FinalScoreForm(forms.Form):
    """A match's final score alone, for events that keep only match results: each player's
    game points at the end (0-99). Whether they can end a match is the rules' answer
    (`rules.final_score_valid`), asked by `scoring.services.match_final_score_record`."""

    game_points_a = forms.IntegerField(label=_("Game points, seat A"), min_value=0,
                                       max_value=99)
    game_points_b = forms.IntegerField(label=_("Game points, seat B"), min_value=0,
                                       max_value=99)


END_CHOICES = [
    ("claim", _("A player claimed 66 (“Стига”)")),
    ("exhausted", _("The stock ran out; all 12 tricks played")),
    ("closed_played_out", _("The stock was closed; all 12 tricks played")),
]
MARRIAGE_POINTS = [(points, str(points)) for points in rules.MARRIAGE_POINT_SUMS]


def _points_input(maximum: int) -> forms.NumberInput:
    return forms.NumberInput(attrs={"min": 0, "max": maximum, "inputmode": "numeric"})


class DealDetailsForm(_MatchForm):
    """A deal as it was played: how it ended, card points, marriages and tricks of each player,
    who claimed, closed, or took the last trick. `rules.score_deal` works out the game points."""

    number = _deal_number_field()
    end = forms.ChoiceField(
        label=_("How the deal ended"), choices=END_CHOICES, widget=forms.RadioSelect
    )
    card_points_a = forms.IntegerField(label=_("Card points"), widget=_points_input(120))
    card_points_b = forms.IntegerField(label=_("Card points"), widget=_points_input(120))
    marriage_points_a = forms.TypedChoiceField(
        label=_("Marriages"), choices=MARRIAGE_POINTS, coerce=int, initial=0
    )
    marriage_points_b = forms.TypedChoiceField(
        label=_("Marriages"), choices=MARRIAGE_POINTS, coerce=int, initial=0
    )
    tricks_a = forms.IntegerField(label=_("Tricks"), widget=_points_input(12))
    tricks_b = forms.IntegerField(label=_("Tricks"), widget=_points_input(12))
    claim_by = forms.ChoiceField(label=_("Who claimed 66"), required=False)
    closed_by = forms.ChoiceField(label=_("Who closed the stock"), required=False)
    last_trick_by = forms.ChoiceField(label=_("Who won the last trick"), required=False)
    opponent_tricks_at_close = forms.IntegerField(
        label=_("Opponent's tricks when the stock was closed"), required=False,
        widget=_points_input(rules.MAX_OPPONENT_TRICKS_AT_CLOSE["stock_over_two"]),
        help_text=_("Only when the closer failed: 3 game points if this was 0, else 2."),
    )

    PAIRS = ("card_points", "marriage_points", "tricks")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("prefix", "details")
        super().__init__(*args, **kwargs)
        nobody = [("", "—")]
        for name in ("claim_by", "closed_by", "last_trick_by"):
            self.fields[name].choices = nobody + _seat_choices(self.match)
        if self.house_rules.failed_close != "tricks_at_close":
            del self.fields["opponent_tricks_at_close"]
        else:
            most = rules.MAX_OPPONENT_TRICKS_AT_CLOSE[self.house_rules.close_when]
            self.fields["opponent_tricks_at_close"].widget.attrs["max"] = most

    def pairs(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        """(label, seat A field, seat B field) for the side-by-side rows of the template."""
        return [
            (self[f"{name}_a"].label, self[f"{name}_a"], self[f"{name}_b"]) for name in self.PAIRS
        ]

    def seat_fields(self) -> list[forms.BoundField]:
        """Who claimed, closed, took the last trick (and tricks at the close, if asked)."""
        names = ("claim_by", "closed_by", "last_trick_by", "opponent_tricks_at_close")
        return [self[name] for name in names if name in self.fields]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        record = rules.DealRecord(
            end=cleaned["end"],
            **{
                name: {"A": cleaned[f"{name}_a"], "B": cleaned[f"{name}_b"]}
                for name in self.PAIRS
            },
            claim_by=cleaned.get("claim_by") or None,
            closed_by=cleaned.get("closed_by") or None,
            last_trick_by=cleaned.get("last_trick_by") or None,
            opponent_tricks_at_close=cleaned.get("opponent_tricks_at_close"),
        )
        try:
            self.score = rules.score_deal(record, self.house_rules)
        except rules.InvalidDeal as error:
            self.add_rule_error(error)
            return cleaned
        self.record = record
        return cleaned
