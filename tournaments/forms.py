"""Forms of the organiser's pages. Validation of the game itself stays in `scoring.rules`."""

from django import forms
from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.access import sees_everything
from club.models import Club, Player
from club.validators import clean_name
from scoring import rules
from scoring.models import HouseRulesFields, Match
from tournaments import formats
from tournaments.messages import where_playing
from tournaments.models import EntryMode, Records, Tournament
from tournaments.pure.standings import TIE_BREAKS

TIE_BREAK_LABELS = {
    "buchholz": _("Buchholz (opponents' scores)"),
    "buchholz_cut_1": _("Buchholz cut 1 (without the lowest)"),
    "median_buchholz": _("median Buchholz (without the highest and the lowest)"),
    "progressive_score": _("progressive score (the running scores added up)"),
    "direct_encounter": _("direct encounter among the tied players"),
    "head_to_head": _("head-to-head among the tied players"),
    "game_point_difference": _("game-point difference"),
    "game_points_scored": _("game points scored"),
    "sonneborn_berger": _("Sonneborn–Berger"),
    "lots": _("drawing of lots"),
}
TIE_BREAK_SHORT_LABELS = {
    "buchholz": _("BH"),
    "buchholz_cut_1": _("BH-1"),
    "median_buchholz": _("Med. BH"),
    "progressive_score": _("Prog."),
    "direct_encounter": _("DE"),
    "head_to_head": _("H2H"),
    "game_point_difference": _("Diff."),
    "game_points_scored": _("Scored"),
    "sonneborn_berger": _("SB"),
    "lots": _("Lot"),
}
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

    class Meta:
        model = Tournament
        fields = [
            "name", "date", "venue", "club", "format", "third_place_match", "swiss_rounds",
            "bye_scores_win", "group_count", "group_advance", "is_public", "withdrawal_policy",
            "entry_mode", "language", "records",
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
        offered = formats.keys_where(lambda event_format: event_format.offered_on_the_form)
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
        if rules_frozen:
            for name in HouseRulesFields.HOUSE_RULE_FIELDS:
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed: deals have been entered.")
            self.fields["entry_mode"].disabled = True
            self.fields["entry_mode"].help_text = _("Fixed: deals have been entered.")

    EVENT_FIELDS = (
        "name", "date", "venue", "club", "format", "third_place_match", "swiss_rounds",
        "bye_scores_win", "group_count", "group_advance", "is_public", "withdrawal_policy",
        "entry_mode", "language", "records",
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
        if not (chosen and formats.format_class(chosen).has_third_place_match):
            cleaned["third_place_match"] = False
        if chosen and formats.format_class(chosen).pairs_round_by_round:
            if not cleaned.get("swiss_rounds"):
                self.add_error("swiss_rounds", _("Say how many rounds will be played."))
        else:
            cleaned["swiss_rounds"] = None
        if chosen and formats.format_class(chosen).has_groups:
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
    """Either a player from the club's register or a new name (Cyrillic or Latin)."""

    player = forms.ModelChoiceField(
        label=_("From the register"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("Or a new player"), max_length=120, required=False)

    def __init__(self, *args, tournament: Tournament, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["player"].queryset = Player.objects.visible_to(user).exclude(
            entries__tournament=tournament
        ).order_by("name")

    def clean_new_name(self):
        return clean_name(self.cleaned_data["new_name"])

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
            format__in=formats.keys_where(lambda event_format: event_format.seeds_a_knockout),
            status=Tournament.Status.FINISHED,
        ).exclude(pk=tournament.pk)
        if not sees_everything(user):
            sources = sources.filter(organisers=user)
        self.fields["source"].queryset = sources.order_by("-date", "name")


# --- Club nights (issue 7) -------------------------------------------------------------------


class ClubNightForm(forms.Form):
    """A new club night: which club (one the user organises, or none), date, name, rules."""

    club = forms.ModelChoiceField(
        label=_("Club"), queryset=Club.objects.none(), required=False,
        empty_label=_("(no club)"),
    )
    date = forms.DateField(
        label=_("Date"), initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    name = forms.CharField(
        label=_("Name"), max_length=Tournament._meta.get_field("name").max_length,
        required=False, help_text=_("Leave empty for “Club night” and the date."),
    )
    rules = forms.ChoiceField(
        label=_("House rules"), choices=list(PRESET_LABELS.items()), initial="default",
    )
    entry_mode = forms.ChoiceField(
        label=_("who enters the results"), choices=EntryMode.choices,
        initial=EntryMode.PLAYERS_SIGN, required=False,
    )
    language = forms.ChoiceField(
        label=_("language"), choices=settings.LANGUAGES, initial=settings.LANGUAGE_CODE,
        required=False,
        help_text=Tournament._meta.get_field("language").help_text,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs_for(user)
        if not self.is_bound and len(self.fields["club"].queryset) == 1:
            self.initial["club"] = self.fields["club"].queryset[0].pk

    def clean_name(self):
        return clean_name(self.cleaned_data["name"])

    def clean(self):
        cleaned = super().clean()
        cleaned["entry_mode"] = cleaned.get("entry_mode") or EntryMode.PLAYERS_SIGN
        cleaned["language"] = cleaned.get("language") or settings.LANGUAGE_CODE
        name = cleaned.get("name", "")
        if not name and cleaned.get("date"):
            # Translators: the default name of a club night, e.g. "Club night 27.11.2026".
            name = _("Club night %(date)s") % {"date": cleaned["date"].strftime("%d.%m.%Y")}
        cleaned["name"] = name
        return cleaned


class RegisterChoiceField(forms.ModelChoiceField):
    """Players of the register; those in an unfinished match tonight say at which table, and
    those in an unfinished match of another event (`elsewhere`: `selectors.matches_elsewhere`)
    name that event with the table."""

    def __init__(self, *args, busy: dict[int, int], elsewhere=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.busy = busy
        self.elsewhere = elsewhere or {}

    def label_from_instance(self, player):
        if player.pk in self.busy:
            return _("%(name)s (playing at table %(table)s)") % {
                "name": player.name, "table": self.busy[player.pk],
            }
        if player.pk in self.elsewhere:
            # Translators: a player with an unfinished match of another event, e.g.
            # "Иван Петров (unfinished match: Table 3 · Зимен турнир 2026)".
            return _("%(name)s (unfinished match: %(where)s)") % {
                "name": player.name, "where": where_playing(self.elsewhere[player.pk]),
            }
        return player.name


class ClubNightPairForm(forms.Form):
    """Two present players, each from the register or a new name, and a table.

    The register is the night's club (or, for a night of no club, the players of no club)
    as `user` may see them (`Player.objects.visible_to`), and the night's own players."""

    player_a = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    new_name_a = forms.CharField(max_length=120, required=False)
    player_b = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    new_name_b = forms.CharField(max_length=120, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999)

    def __init__(self, *args, night: Tournament, user, busy: dict[int, int], elsewhere=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.night = night
        members = Player.objects.visible_to(user).filter(
            Q(club=night.club) if night.club_id else Q(club__isnull=True)
        )
        register = Player.objects.filter(
            Q(pk__in=members.values("pk")) | Q(entries__tournament=night)
        ).distinct().order_by("name")
        for seat, label in (("a", _("Seat A (deals first)")), ("b", _("Seat B"))):
            self.fields[f"player_{seat}"] = RegisterChoiceField(
                label=label, queryset=register, required=False, busy=busy,
                elsewhere=elsewhere, empty_label=_("— from the register —"),
            )
            self.fields[f"new_name_{seat}"].label = _("or a new player")
            self.fields[f"new_name_{seat}"].widget.attrs["placeholder"] = _("New name")

    def seats(self):
        """(register field, new-name field) for seat A, then seat B."""
        return [(self["player_a"], self["new_name_a"]), (self["player_b"], self["new_name_b"])]

    def clean_new_name_a(self):
        return clean_name(self.cleaned_data["new_name_a"])

    def clean_new_name_b(self):
        return clean_name(self.cleaned_data["new_name_b"])

    def clean(self):
        cleaned = super().clean()
        for seat in ("a", "b"):
            if f"new_name_{seat}" in self.errors:  # a character a name may not hold
                continue
            name = cleaned.get(f"new_name_{seat}", "")
            cleaned[f"new_name_{seat}"] = name
            if bool(cleaned.get(f"player_{seat}")) == bool(name):
                self.add_error(f"player_{seat}", _(
                    "Pick a player from the register or type a new name (one of the two)."
                ))
        a = cleaned.get("player_a") or cleaned.get("new_name_a")
        b = cleaned.get("player_b") or cleaned.get("new_name_b")
        if a and b and (a == b or str(a).casefold() == str(b).casefold()):
            raise forms.ValidationError(_("A player cannot play against themselves."))
        return cleaned
