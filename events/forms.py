"""Forms of the organiser's pages. Validation of the game itself stays in `scoring.rules`."""

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from club.models import Club, Player
from core.access import sees_everything
from core.text import NameField, PlainTextField, clean_name
from events import registry
from events.models import (
    ANNOUNCEMENT_LIMIT,
    ROUND_MINUTES_FEWEST,
    ROUND_MINUTES_MOST,
    EntryMode,
    Records,
    Tournament,
)
from scoring import rules
from scoring.models import HouseRulesFields, Match
from standings.labels import TIE_BREAK_LABELS
from standings.tie_breaks import TIE_BREAKS

TIE_BREAK_SLOTS = len(TIE_BREAKS)


PRESET_LABELS = {"default": _("Standard rules"), "pagat": _("pagat.com rules")}


def clubs_for(user) -> QuerySet[Club]:
    """The clubs `user` may hold events for: those whose organisers include them (staff: all)."""
    clubs = Club.objects.all() if sees_everything(user) else user.organised_clubs.all()
    return clubs.order_by("name")


def own_club(user) -> Club | None:
    """The user's club when they organise exactly one (a new event's default club), else None."""
    clubs = list(user.organised_clubs.all()[:2]) if user.is_authenticated else []
    return clubs[0] if len(clubs) == 1 else None


class TournamentForm(forms.ModelForm):
    """Name, date, club, format and house rules; the tie-break order as numbered choices.

    The club (its page and season ladders list the event) is one the user organises (staff:
    any), by default their club when they organise exactly one; an event keeps the club it has
    when another organiser edits it.
    """

    name = NameField(label=_("name"), max_length=Tournament._meta.get_field("name").max_length)
    venue = PlainTextField(label=_("venue"), required=False,
                           max_length=Tournament._meta.get_field("venue").max_length)

    class Meta:
        model = Tournament
        fields = [
            "name", "date", "venue", "club", "format", "third_place_match", "swiss_rounds",
            "bye_scores_win", "group_count", "group_advance", "is_public", "withdrawal_policy",
            "entry_mode", "language", "records", "round_minutes",
            *HouseRulesFields.HOUSE_RULE_FIELDS,
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, user, rules_frozen: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        clubs = clubs_for(user)
        if self.instance.club_id:
            clubs = (clubs | Club.objects.filter(pk=self.instance.club_id)).distinct()
        self.fields["club"].queryset = clubs
        self.fields["club"].empty_label = _("(no club)")
        if not self.instance.pk and not self.is_bound:
            club = own_club(user)
            self.initial.setdefault("club", club.pk if club else None)
        offered = registry.keys_where(lambda event_format: event_format.offered_on_the_form)
        self.fields["format"].choices = [
            (value, label) for value, label in Tournament.Format.choices
            if value in offered
            or value == self.instance.format  # e.g. a club night's own (fixed) format
        ]
        current = list(self.instance.tie_breaks) if self.instance.pk else list(TIE_BREAKS)
        choices = [("", _("(none)"))] + [(key, TIE_BREAK_LABELS[key]) for key in TIE_BREAKS]
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": slot}, choices=choices, required=False,
                initial=current[slot - 1] if slot <= len(current) else "",
            )
        # Left out (an older form): the event keeps its mode, a new one gets the default.
        self.fields["entry_mode"].required = False
        self.fields["language"].required = False
        self.fields["records"].required = False
        if self.instance.pk and Match.objects.filter(
            pairing__round__tournament=self.instance
        ).exclude(status=Match.Status.SCHEDULED).exists():
            self.fields["records"].disabled = True
            self.fields["records"].help_text = _("Fixed: results have been entered.")
        if self.instance.pk and self.instance.has_started:
            self.fields["format"].disabled = True
            self.fields["third_place_match"].disabled = True
            self.fields["swiss_rounds"].disabled = True
            self.fields["bye_scores_win"].disabled = True
            self.fields["group_count"].disabled = True
            self.fields["group_advance"].disabled = True
        self.fields["swiss_rounds"].widget.attrs.update({"min": 1, "max": 30})
        self.fields["round_minutes"].widget.attrs.update(
            {"min": ROUND_MINUTES_FEWEST, "max": ROUND_MINUTES_MOST})
        if rules_frozen:
            for name in HouseRulesFields.HOUSE_RULE_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed: deals have been entered.")
            self.fields["entry_mode"].disabled = True
            self.fields["entry_mode"].help_text = _("Fixed: deals have been entered.")

    EVENT_FIELDS = (
        "name", "date", "venue", "club", "format", "third_place_match", "swiss_rounds",
        "bye_scores_win", "group_count", "group_advance", "is_public", "withdrawal_policy",
        "entry_mode", "language", "records", "round_minutes",
    )

    def clean_entry_mode(self) -> str:
        return self.cleaned_data.get("entry_mode") or self.instance.entry_mode

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.instance.language

    def clean_records(self) -> str:
        return self.cleaned_data.get("records") or self.instance.records

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
        chosen = cleaned.get("format")
        if not (chosen and registry.format_class(chosen).has_third_place_match):
            cleaned["third_place_match"] = False
        if chosen and registry.format_class(chosen).pairs_round_by_round:
            if not cleaned.get("swiss_rounds"):
                self.add_error("swiss_rounds", _("Say how many rounds will be played."))
        else:
            cleaned["swiss_rounds"] = None
        if chosen and registry.format_class(chosen).has_groups:
            for name in ("group_count", "group_advance"):
                if not cleaned.get(name) and name not in self.errors:
                    self.add_error(name, _("A group stage needs this number (1 or more)."))
        else:
            cleaned["group_count"] = cleaned["group_advance"] = None
        if (cleaned.get("records") == Records.FINAL_SCORE
                and cleaned.get("entry_mode", EntryMode.ORGANISER) != EntryMode.ORGANISER):
            self.add_error("records", _(
                "With the final score only, the organisers enter the results: choose "
                "“the organisers only” under who enters the results."
            ))
        return cleaned


def preset_initial(name: str) -> dict:
    """Initial form values for a house-rules preset (`rules.PRESETS`); unknown -> default."""
    preset = rules.PRESETS.get(name, rules.PRESETS["default"])
    return preset.to_dict()


class PlayerAddForm(forms.Form):
    """Either a player from the club's register or a new name (Cyrillic or Latin).

    A new name that may mean a player of the register (`club.services.players_like`: "иван
    петров" for Иван Петров) is asked about first; `insist`, the name the organiser chose to
    add as a new player all the same, answers the question (a hidden field, set by the
    question's button, which counts only for exactly that name)."""

    player = forms.ModelChoiceField(
        label=_("From the register"), queryset=Player.objects.none(), required=False
    )
    new_name = NameField(label=_("Or a new player"), max_length=120, required=False)
    insist = NameField(max_length=120, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, tournament: Tournament, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["player"].queryset = Player.objects.visible_to(user).exclude(
            entries__tournament=tournament
        ).order_by("name")

    def clean_new_name(self):
        return clean_name(self.cleaned_data["new_name"])

    def clean_insist(self):
        return clean_name(self.cleaned_data["insist"])

    def clean(self):
        cleaned = super().clean()
        if bool(cleaned.get("player")) == bool(cleaned.get("new_name")):
            raise forms.ValidationError(
                _("Pick a player from the register or type a new name (one of the two).")
            )
        return cleaned

    def new_name_to_ask_about(self) -> str:
        """The new name typed, unless the organiser insisted on adding it as it is (after
        `is_valid`); "" when a player was picked from the register."""
        name = self.cleaned_data.get("new_name", "")
        return "" if name == self.cleaned_data.get("insist") else name


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
            format__in=registry.keys_where(lambda event_format: event_format.seeds_a_knockout),
            status=Tournament.Status.FINISHED,
        ).exclude(pk=tournament.pk)
        if not sees_everything(user):
            sources = sources.filter(organisers=user)
        self.fields["source"].queryset = sources.order_by("-date", "name")


class AnnouncementForm(forms.Form):
    """The event's announcement (`events.announcements`): one line of checked free text, at
    most `ANNOUNCEMENT_LIMIT` characters; empty clears it."""

    text = PlainTextField(label=_("Announcement"), max_length=ANNOUNCEMENT_LIMIT, required=False,
                          help_text=_("Shown on every live page of the event: the projector, "
                                      "the rounds, the standings and the match pages. Leave "
                                      "it empty to clear it."))
