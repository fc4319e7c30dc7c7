"""Forms of the organiser's pages. Validation of the game itself stays in `scoring.rules`."""

from dataclasses import dataclass

from django import forms
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club import messages as club_messages
from club.models import Club, Player
from club.services import players_like
from core.text import NameField, clean_name
from events.forms import PRESET_LABELS, clubs_for
from events.models import EntryMode, Tournament
from formats.club_night.messages import where_playing


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
    name = NameField(
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


@dataclass(frozen=True)
class PairSeat:
    """One seat of the pairing form as its template draws it: the register's field, the new
    name's, the hidden `insist` and `use` fields, and the question about the new name when
    it may mean a player of the register (`question`, a button per player in `like`,
    `add_new` the button that adds the name as it is)."""

    register: forms.BoundField
    new_name: forms.BoundField
    insist: forms.BoundField
    use: forms.BoundField
    typed: str = ""
    question: str = ""
    like: tuple = ()
    add_new: str = ""


class ClubNightPairForm(forms.Form):
    """Two present players, each from the register or a new name, and a table.

    The register is the night's club (or, for a night of no club, the players of no club)
    as `user` may see them (`Player.objects.visible_to`), and the night's own players.

    A new name that may mean a player of the register ("иван петров" for Иван Петров,
    `club.services.players_like`) is asked about (`names_like`) before anything is written.
    The question's buttons answer it: `use_<seat>`, the player of the register meant, or
    `insist_<seat>`, the name to add as a new player all the same (it counts for exactly
    that name). A table another event of the club uses tonight is asked about the same way
    (`confirm_table`)."""

    player_a = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    new_name_a = NameField(max_length=120, required=False)
    player_b = forms.ModelChoiceField(queryset=Player.objects.none(), required=False)
    new_name_b = NameField(max_length=120, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999)
    insist_a = NameField(max_length=120, required=False, widget=forms.HiddenInput)
    insist_b = NameField(max_length=120, required=False, widget=forms.HiddenInput)
    confirm_table = forms.IntegerField(
        min_value=1, max_value=999, required=False, widget=forms.HiddenInput,
    )
    """The table the organiser confirmed although another event of the club uses it tonight
    (the question's button posts it); it counts only while the table field says the same."""

    def __init__(self, *args, night: Tournament, user, busy: dict[int, int], elsewhere=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.night, self.user = night, user
        self.like: dict[str, list[Player]] = {}
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
            self.fields[f"use_{seat}"] = forms.ModelChoiceField(
                queryset=register, required=False, widget=forms.HiddenInput,
            )

    def seats(self) -> list[PairSeat]:
        """Seat A, then seat B, each with its question when `names_like` found one."""
        seats = []
        for seat in ("a", "b"):
            fields = {"register": self[f"player_{seat}"], "new_name": self[f"new_name_{seat}"],
                      "insist": self[f"insist_{seat}"], "use": self[f"use_{seat}"]}
            like = self.like.get(seat)
            if like:
                typed = self.cleaned_data[f"new_name_{seat}"]
                fields.update(
                    typed=typed,
                    question=club_messages.like_question(typed, like, club=self.night.club),
                    like=tuple((player, club_messages.use_player(player)) for player in like),
                    add_new=club_messages.add_new_player(typed),
                )
            seats.append(PairSeat(**fields))
        return seats

    def clean_new_name_a(self):
        return clean_name(self.cleaned_data["new_name_a"])

    def clean_new_name_b(self):
        return clean_name(self.cleaned_data["new_name_b"])

    def clean_insist_a(self):
        return clean_name(self.cleaned_data["insist_a"])

    def clean_insist_b(self):
        return clean_name(self.cleaned_data["insist_b"])

    def clean(self):
        cleaned = super().clean()
        for seat in ("a", "b"):
            if cleaned.get(f"use_{seat}") is not None:  # the question answered: this player
                cleaned[f"player_{seat}"] = cleaned[f"use_{seat}"]
                cleaned[f"new_name_{seat}"] = ""
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

    def table_confirmed(self) -> bool:
        """After `is_valid`: the organiser confirmed this very table (`confirm_table`)."""
        confirmed = self.cleaned_data.get("confirm_table")
        return confirmed is not None and confirmed == self.cleaned_data.get("table")

    def names_like(self) -> dict[str, list[Player]]:
        """After `is_valid`: for each seat ("a", "b") whose new name may mean players of the
        night's register (`club.services.players_like`, as the user may see them), those
        players; a seat whose name the organiser insisted on is not asked again. Kept in
        `like`, for `seats`. Empty: nothing to ask."""
        typed = {seat: self.cleaned_data[f"new_name_{seat}"] for seat in ("a", "b")
                 if self.cleaned_data[f"new_name_{seat}"]
                 and self.cleaned_data[f"new_name_{seat}"] != self.cleaned_data[f"insist_{seat}"]}
        found = players_like(typed.values(), club=self.night.club, user=self.user)
        self.like = {seat: found[name] for seat, name in typed.items() if name in found}
        return self.like

    def answered(self) -> "ClubNightPairForm":
        """The form again, bound to what was posted with the questions answered so far put
        in the fields (a seat answered with `use_<seat>` now picks that player from the
        register), so that the page asking the other seat's question keeps the answer."""
        data = self.data.copy()
        for seat in ("a", "b"):
            player = self.cleaned_data.get(f"use_{seat}")
            data.pop(f"use_{seat}", None)
            if player is not None:
                data[f"player_{seat}"], data[f"new_name_{seat}"] = str(player.pk), ""
        form = ClubNightPairForm(data, night=self.night, user=self.user, busy={})
        form.is_valid()
        form.like = self.like
        return form
