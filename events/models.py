"""Events built from matches: tournaments (and club nights), their entries, rounds and
pairings."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.models import Club, Player
from core.access import sees_everything
from core.models import Versioned
from core.text import validate_plain_text
from scoring.models import HouseRulesFields, Match, Seat
from standings.tie_breaks import DEFAULT_TIE_BREAKS, TIE_BREAKS


class TournamentQuerySet(models.QuerySet):
    def visible_to(self, user) -> "TournamentQuerySet":
        """Public tournaments for everyone; staff and the organisers also see private ones."""
        if sees_everything(user):
            return self
        if user.is_authenticated:
            return self.filter(models.Q(is_public=True) | models.Q(organisers=user)).distinct()
        return self.filter(is_public=True)


ANNOUNCEMENT_LIMIT = 200
"""The most characters an event's announcement holds (`Tournament.announcement`)."""
ROUND_MINUTES_FEWEST, ROUND_MINUTES_MOST = 1, 300
"""The range of an event's minutes per round (`Tournament.round_minutes`)."""


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


class EntryMode(models.TextChoices):
    """Who may enter an event's results (`Tournament.entry_mode`)."""

    ORGANISER = "organiser", _("the organisers only")
    PLAYERS_SIGN = "players_sign", _("the players; both sign the result")
    PLAYERS_CONFIRM_EACH = "players_confirm_each", _(
        "the players; the opponent confirms each deal"
    )
    PLAYERS_TRUSTED = "players_trusted", _("the players; no signatures")


class Records(models.TextChoices):
    """What an event keeps of each match (`Tournament.records`)."""

    DEALS = "deals", _("every deal")
    FINAL_SCORE = "final_score", _("the final score only")


class Tournament(HouseRulesFields, Versioned):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
        KNOCKOUT = "knockout", _("Knockout")
        CLUB_NIGHT = "club_night", _("Club night")
        SWISS = "swiss", _("Swiss system")
        GROUPS_KNOCKOUT = "groups_knockout", _("Groups, then a knockout")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Registration")
        RUNNING = "running", _("In progress")
        FINISHED = "finished", _("Finished")

    class WithdrawalPolicy(models.TextChoices):
        FORFEIT_REST = "forfeit_rest", _("the remaining matches are lost by forfeit")
        FIDE = "fide", _(
            "all their results are cancelled if they played under half of their matches; "
            "otherwise their remaining matches are lost by forfeit"
        )
        LEAVE_UNPLAYED = "leave_unplayed", _("the remaining matches stay unplayed")

    name = models.CharField(_("name"), max_length=160, validators=[validate_plain_text])
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=160, blank=True,
                             validators=[validate_plain_text])
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments",
        verbose_name=_("club"),
    )
    format = models.CharField(_("format"), max_length=24, choices=Format.choices)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone may read the schedule and standings.")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments",
        verbose_name=_("organisers"),
    )
    tie_breaks = models.JSONField(
        _("tie-break order"), default=default_tie_breaks,
        help_text=_("Applied in this order after match wins."),
    )
    withdrawal_policy = models.CharField(
        _("when a player withdraws"), max_length=16, choices=WithdrawalPolicy.choices,
        default=WithdrawalPolicy.FORFEIT_REST,
    )
    third_place_match = models.BooleanField(
        _("third-place match"), default=False,
        help_text=_("Knockout: the losing semifinalists play for third place."),
    )
    swiss_rounds = models.PositiveSmallIntegerField(
        _("rounds"), null=True, blank=True,
        help_text=_("Swiss: how many rounds; ⌈log₂ players⌉ + 1 or + 2 is usual (9 players: 5 "
                    "or 6)."),
    )
    bye_scores_win = models.BooleanField(
        _("a bye scores a win"), default=True,
        help_text=_("Swiss: the player without an opponent scores a win (else nothing)."),
    )
    seeded_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="knockout_stages", verbose_name=_("seeded from"),
        help_text=_("The round robin whose standings gave this knockout its players and seeds."),
    )
    group_count = models.PositiveSmallIntegerField(
        _("groups"), null=True, blank=True,
        help_text=_("Groups, then a knockout: how many groups (each of 3 to 8 players)."),
    )
    group_advance = models.PositiveSmallIntegerField(
        _("go on from each group"), null=True, blank=True,
        help_text=_("Groups, then a knockout: this many of each group play the knockout."),
    )
    entry_mode = models.CharField(
        _("who enters the results"), max_length=24, choices=EntryMode.choices,
        default=EntryMode.PLAYERS_SIGN,
        help_text=_("May change until the first deal is entered."),
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE,
        help_text=_("The players' links and the printed scorecards use it."),
    )
    records = models.CharField(
        _("results kept"), max_length=12, choices=Records.choices, default=Records.DEALS,
        help_text=_("The final score only (e.g. 11:7, no deals): for events that keep only "
                    "match results. May change until the first result is entered."),
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("minutes per round"), null=True, blank=True,
        validators=[MinValueValidator(ROUND_MINUTES_FEWEST), MaxValueValidator(ROUND_MINUTES_MOST)],
        help_text=_("Optional, 1 to 300: the projector and the match pages count down each "
                    "round's time from its start; the control room marks the matches still "
                    "being played after it."),
    )
    announcement = models.CharField(
        _("announcement"), max_length=ANNOUNCEMENT_LIMIT, blank=True,
        validators=[validate_plain_text],
        help_text=_("One line the organiser shows on every live page of the event."),
    )
    announced_at = models.DateTimeField(_("announced at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords(excluded_fields=["created_at", "version"])

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("events:detail", args=[self.pk])

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        unknown = [key for key in self.tie_breaks if key not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValidationError({"tie_breaks": _("Choose each tie-break at most once.")})

    @property
    def event_format(self):
        """The tournament's format object (`events.registry.for_tournament`), for the
        templates' questions (`event_format.has_bracket`, `event_format.seeded`, ...)."""
        from events import registry

        return registry.for_tournament(self)

    @property
    def final_score_only(self) -> bool:
        """Its matches are recorded by their final score alone, without deals
        (`Records.FINAL_SCORE`)."""
        return self.records == Records.FINAL_SCORE

    @property
    def has_started(self) -> bool:
        return self.status != self.Status.DRAFT


class Entry(models.Model):
    """A player taking part in a tournament, with their draw number (round robin) or seed."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    number = models.PositiveSmallIntegerField(
        _("draw number"), null=True, blank=True,
        help_text=_("Berger table number in a round robin, seed in a knockout."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    group = models.PositiveSmallIntegerField(
        _("group"), null=True, blank=True,
        help_text=_("Groups, then a knockout: the player's group, 1 for A, 2 for B, ..."),
    )
    lot = models.PositiveIntegerField(
        _("lot"), null=True, blank=True,
        help_text=_("Drawn once when the tournament starts; the last tie-break (lower first)."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_unique_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"], name="entry_unique_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number or '–'}. {self.player}"

    @property
    def group_letter(self) -> str:
        """The group as the pages name it ("A", "B", ...); "" outside a group stage."""
        return group_letter(self.group) if self.group else ""


def group_letter(number: int) -> str:
    """Group 1 is "A", 2 "B", ... 26 "Z", 27 "AA" (more groups than that never happen)."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


class Round(models.Model):
    """One round of an event. `stage` tells a group stage's rounds from the knockout's in an
    event that has both (groups, then a knockout); "" in an event of one stage."""

    class Stage(models.TextChoices):
        ONLY = "", _("the event")
        GROUPS = "groups", _("group stage")
        KNOCKOUT = "knockout", _("knockout")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    stage = models.CharField(
        _("stage"), max_length=8, choices=Stage.choices, default=Stage.ONLY, blank=True
    )
    started_at = models.DateTimeField(
        _("started at"), null=True, blank=True,
        help_text=_("When the round became the one being played: its clock runs from here."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("events:round", args=[self.tournament_id, self.number])


class Pairing(models.Model):
    """Who meets whom in a round, at which table.

    Round robin: no `entry_b` (and no match) is a bye: `entry_a` rests. Knockout
    (`bracket_index` set): the entries fill in as the earlier rounds end, so either may be
    empty for a while; the match is created once both are known; `walkover` names the seat
    that went through without playing (a first-round bye, or the opponent withdrew).
    """

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    entry_a = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True,
        verbose_name=_("seat A"),
    )
    entry_b = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True,
        verbose_name=_("seat B"),
    )
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="pairing",
        verbose_name=_("match"),
    )
    bracket_index = models.PositiveSmallIntegerField(
        _("position in the bracket"), null=True, blank=True,
        help_text=_("Knockout: 0-based position of the match within its round, top to bottom."),
    )
    is_third_place = models.BooleanField(_("third-place match"), default=False)
    walkover = models.CharField(
        _("walkover"), max_length=1, choices=Seat.choices, blank=True,
        help_text=_("Knockout: this seat went through without playing."),
    )

    class Meta:
        ordering = ["round", "table"]
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        # No (round, table) uniqueness: a club night's one round reuses its tables all evening.
        # The round-robin start gives each match of a round its own table (tested there).
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=True)
                | models.Q(entry_a__isnull=False, entry_b__isnull=False),
                name="pairing_match_needs_both_entries",
            ),
            models.UniqueConstraint(
                fields=["round", "bracket_index", "is_third_place"],
                condition=models.Q(bracket_index__isnull=False),
                name="pairing_unique_bracket_position",
            ),
            models.CheckConstraint(
                condition=models.Q(walkover="") | models.Q(match__isnull=True),
                name="pairing_walkover_has_no_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry_a or '–'} – {self.entry_b or '(bye)'}"

    @property
    def is_bye(self) -> bool:
        """Round robin: `entry_a` rests this round. (A knockout bye is a `walkover`.)"""
        return self.entry_b_id is None

    def entry(self, seat: str) -> Entry | None:
        return self.entry_a if seat == Seat.A else self.entry_b

    def entry_id(self, seat: str) -> int | None:
        return self.entry_a_id if seat == Seat.A else self.entry_b_id
