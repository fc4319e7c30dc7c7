"""Forms of the organiser's pages. Validation of the game itself stays in `scoring.rules`."""

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Player
from scoring import rules
from scoring.models import HouseRulesFields
from tournaments.models import Tournament
from tournaments.standings import TIE_BREAKS

TIE_BREAK_LABELS = {
    "head_to_head": _("head-to-head among the tied players"),
    "game_point_difference": _("game-point difference"),
    "game_points_scored": _("game points scored"),
    "sonneborn_berger": _("Sonneborn–Berger"),
    "lots": _("drawing of lots"),
}
TIE_BREAK_SHORT_LABELS = {
    "head_to_head": _("H2H"),
    "game_point_difference": _("Diff."),
    "game_points_scored": _("Scored"),
    "sonneborn_berger": _("SB"),
    "lots": _("Lot"),
}
TIE_BREAK_SLOTS = len(TIE_BREAKS)
PRESET_LABELS = {"default": _("Standard rules"), "pagat": _("pagat.com rules")}


class TournamentForm(forms.ModelForm):
    """Name, date, format and house rules; the tie-break order as numbered choices."""

    class Meta:
        model = Tournament
        fields = [
            "name", "date", "venue", "format", "third_place_match", "is_public",
            "withdrawal_policy", *HouseRulesFields.HOUSE_RULE_FIELDS,
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, rules_frozen: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = [
            (value, label) for value, label in Tournament.Format.choices
            if value in (Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN,
                         Tournament.Format.KNOCKOUT)
        ]
        current = list(self.instance.tie_breaks) if self.instance.pk else list(TIE_BREAKS)
        choices = [("", _("(none)"))] + [(key, TIE_BREAK_LABELS[key]) for key in TIE_BREAKS]
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": slot}, choices=choices, required=False,
                initial=current[slot - 1] if slot <= len(current) else "",
            )
        if self.instance.pk and self.instance.has_started:
            self.fields["format"].disabled = True
            self.fields["third_place_match"].disabled = True
        if rules_frozen:
            for name in HouseRulesFields.HOUSE_RULE_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed: deals have been entered.")

    EVENT_FIELDS = (
        "name", "date", "venue", "format", "third_place_match", "is_public", "withdrawal_policy",
    )

    def event_fields(self):
        return [self[name] for name in self.EVENT_FIELDS]

    def house_rule_fields(self):
        return [self[name] for name in HouseRulesFields.HOUSE_RULE_FIELDS]

    def tie_break_fields(self):
        return [self[f"tie_break_{slot}"] for slot in range(1, TIE_BREAK_SLOTS + 1)]

    def clean(self):
        cleaned = super().clean()
        order = [cleaned.get(f"tie_break_{slot}") for slot in range(1, TIE_BREAK_SLOTS + 1)]
        order = [key for key in order if key]
        if len(set(order)) != len(order):
            raise forms.ValidationError(_("Choose each tie-break at most once."))
        self.instance.tie_breaks = order
        if cleaned.get("format") != Tournament.Format.KNOCKOUT:
            cleaned["third_place_match"] = False
        return cleaned


def preset_initial(name: str) -> dict:
    """Initial form values for a house-rules preset (`rules.PRESETS`); unknown -> default."""
    preset = rules.PRESETS.get(name, rules.PRESETS["default"])
    return preset.to_dict()


class PlayerAddForm(forms.Form):
    """Either a player from the club's register or a new name (Cyrillic or Latin)."""

    player = forms.ModelChoiceField(
        label=_("From the register"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("Or a new player"), max_length=120, required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["player"].queryset = Player.objects.exclude(
            entries__tournament=tournament
        ).order_by("name")

    def clean_new_name(self):
        return " ".join(self.cleaned_data["new_name"].split())

    def clean(self):
        cleaned = super().clean()
        if bool(cleaned.get("player")) == bool(cleaned.get("new_name")):
            raise forms.ValidationError(
                _("Pick a player from the register or type a new name (one of the two).")
            )
        return cleaned


class DrawNumbersForm(forms.Form):
    """One number field per entry; together they must be 1..n, each once."""

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for entry in self.entries:
            self.fields[f"entry_{entry.pk}"] = forms.IntegerField(
                label=entry.player.name, min_value=1, max_value=len(self.entries),
                initial=entry.number,
            )

    def clean(self):
        cleaned = super().clean()
        numbers = [cleaned.get(f"entry_{entry.pk}") for entry in self.entries]
        if None not in numbers and sorted(numbers) != list(range(1, len(self.entries) + 1)):
            raise forms.ValidationError(
                _("Give each player a different number from 1 to %(n)s.") % {"n": len(numbers)}
            )
        return cleaned

    def order(self) -> list[int]:
        """Entry ids in draw-number order."""
        by_number = {self.cleaned_data[f"entry_{e.pk}"]: e.pk for e in self.entries}
        return [by_number[number] for number in sorted(by_number)]


class SeedFromStandingsForm(forms.Form):
    """A finished round robin the user organises, and how many of its players to take."""

    source = forms.ModelChoiceField(
        label=_("Round robin"), queryset=Tournament.objects.none(),
        help_text=_("A finished round robin you organise."),
    )
    count = forms.IntegerField(
        label=_("How many players"), min_value=2, max_value=128, required=False,
        help_text=_("The best of the standings; empty: all of them."),
    )

    def __init__(self, *args, user, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        sources = Tournament.objects.filter(
            format__in=[Tournament.Format.ROUND_ROBIN, Tournament.Format.DOUBLE_ROUND_ROBIN],
            status=Tournament.Status.FINISHED,
        ).exclude(pk=tournament.pk)
        if not user.is_staff:
            sources = sources.filter(organisers=user)
        self.fields["source"].queryset = sources.order_by("-date", "name")
