"""Events built from matches: tournaments and their entries (DESIGN.md "The record")."""

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from club.access import sees_everything
from club.history import History
from club.models import Club, Player, Season
from club.validators import validate_plain_text
from scoring.models import HouseRulesFields, Match, Seat
from tournaments.pure.ratings import PROVISIONAL_MATCHES
from tournaments.pure.standings import DEFAULT_TIE_BREAKS, TIE_BREAKS


class TournamentQuerySet(models.QuerySet):
    def visible_to(self, user) -> "TournamentQuerySet":
        """Public tournaments for everyone; staff and the organisers also see private ones."""
        if sees_everything(user):
            return self
        if user.is_authenticated:
            return self.filter(models.Q(is_public=True) | models.Q(organisers=user)).distinct()
        return self.filter(is_public=True)


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


class Tournament(HouseRulesFields):
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
    venue = models.CharField(_("venue"), max_length=160, blank=True)
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
    created_at = models.DateTimeField(auto_now_add=True)
    history = History(excluded_fields=["created_at"])

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        unknown = [key for key in self.tie_breaks if key not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValidationError({"tie_breaks": _("Choose each tie-break at most once.")})

    @property
    def event_format(self):
        """The tournament's format object (`tournaments.formats.for_tournament`), for the
        templates' questions (`event_format.has_bracket`, `event_format.seeded`, ...)."""
        from tournaments import formats  # formats import this module

        return formats.for_tournament(self)

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
    history = History()

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
        return reverse("tournaments:round", args=[self.tournament_id, self.number])


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


class PrintJob(models.Model):
    """One PDF build (pretix `CachedFile`): what to print, how far the build is, the file.

    A job prints a tournament's document or a club season's (the season's cross-table): exactly
    one of `tournament` and `season` is set (a check constraint). Built by the task
    `build_print_job` of `tournaments.printing.jobs`; the status page polls the row, so it works
    the same with eager tasks and with a worker. `data_version` fingerprints the data the file
    was built from: a request for the same key and version reuses the file instead of building
    it again.
    """

    class Kind(models.TextChoices):
        SCORECARDS = "scorecards", _("scorecards")
        ROUND = "round", _("round sheet and scorecards")
        STANDINGS = "standings", _("standings")
        BRACKET = "bracket", _("bracket")
        CROSSTABLE = "crosstable", _("cross-table")
        GROUP_SHEETS = "group_sheets", _("round sheets of every group")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("being built")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="print_jobs",
        verbose_name=_("tournament"), null=True, blank=True,
    )
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="print_jobs", verbose_name=_("season"),
        null=True, blank=True,
    )
    kind = models.CharField(_("what"), max_length=16, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    filled = models.BooleanField(_("with the entered deals"), default=False)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    file = models.FileField(_("file"), upload_to="print/", blank=True)
    error = models.TextField(_("error"), blank=True)
    data_version = models.CharField(_("data version"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        constraints = [
            # Two organisers asking at once get one build: one waiting or running job per key.
            # Coalesce: NULL round numbers (standings) would otherwise never be equal.
            models.UniqueConstraint(
                "tournament", "kind", Coalesce("round_number", models.Value(0)), "language",
                "filled", condition=models.Q(status__in=["queued", "running"]),
                name="printjob_one_active_per_key",
            ),
            models.UniqueConstraint(
                fields=["season", "kind", "language"], condition=models.Q(
                    season__isnull=False, status__in=["queued", "running"]
                ), name="printjob_one_active_per_season_key",
            ),
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=False, season__isnull=True)
                | models.Q(tournament__isnull=True, season__isnull=False),
                name="printjob_of_a_tournament_or_a_season",
            ),
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="printjob_progress_0_to_100"
            ),
        ]

    def __str__(self) -> str:
        owner = self.tournament or self.season
        return f"{owner} · {self.kind} {self.round_number or ''} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class ImportClaim(models.Model):
    """One confirmed import preview (`tournaments.importing.import_plan_apply`): the preview's
    digest, which only one import may take (a unique key, so two confirms sent at once, a
    double click, make one tournament), and the tournament that import made, to which a second
    confirm of the same preview is sent. Written in the import's own transaction."""

    digest = models.CharField(_("preview digest"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="+", verbose_name=_("imported by"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
        verbose_name=_("tournament"),
    )
    created_at = models.DateTimeField(_("imported at"), auto_now_add=True)

    class Meta:
        verbose_name = _("import")
        verbose_name_plural = _("imports")

    def __str__(self) -> str:
        return f"{self.digest[:12]} → {self.tournament_id}"


class ImportJob(models.Model):
    """One import of a deal log through the site (`tournaments.import_jobs`): the file kept
    under MEDIA_ROOT/imports/ between the preview and the confirmation, what it becomes
    (name, date, house-rules preset, club, for `user`), and how it went.

    `previewed` (checked in the upload's request, waiting for the confirmation), then the
    task `run_import_job`: `queued`, `checking` (the file read again), `writing` (one
    transaction), `done` (`tournament` set) or `failed` (`errors`, sentences in `language`).
    The status page polls the row; the counts of a running import (rows checked, deals
    written) are in the cache (`import_jobs.import_job_progress`), because the writing
    transaction holds the database until it commits. The file is deleted once the job ends.
    """

    class Status(models.TextChoices):
        PREVIEWED = "previewed", _("waiting for confirmation")
        QUEUED = "queued", _("waiting")
        CHECKING = "checking", _("checking the file")
        WRITING = "writing", _("writing the deals")
        DONE = "done", _("imported")
        FAILED = "failed", _("not imported")

    ACTIVE = (Status.QUEUED, Status.CHECKING, Status.WRITING)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+",
        verbose_name=_("imported by"),
    )
    file = models.FileField(_("file"), upload_to="imports/", blank=True)
    name = models.CharField(_("name"), max_length=160)
    date = models.DateField(_("date"))
    rules = models.CharField(_("house rules"), max_length=16)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("club"),
    )
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PREVIEWED
    )
    lines = models.PositiveIntegerField(_("lines of the file"), default=0)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    errors = models.JSONField(_("errors"), default=list, blank=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("tournament"),
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class Glicko2Fields(models.Model):
    """A Glicko-2 state: `rating` and `deviation` in rating points, `volatility` the sigma of
    Glickman's paper, `matches` the rated matches counted into it."""

    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("rating deviation"))
    volatility = models.FloatField(_("volatility"))
    matches = models.PositiveIntegerField(_("rated matches"))

    class Meta:
        abstract = True


class PlayerRating(Glicko2Fields):
    """A player's Glicko-2 rating over every public event, as last computed
    (`tournaments.rating_services.player_ratings_recompute`, from `tournaments.pure.ratings`).

    `rating` and `deviation` are rating points (1500 and 350 for a newcomer), `volatility` the
    Glicko-2 sigma; `matches`, `won` and `lost` count the rated matches (finished, not
    forfeited). The rows are replaced as a whole on each recomputation.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, related_name="rating", verbose_name=_("player")
    )
    won = models.PositiveIntegerField(_("won"))
    lost = models.PositiveIntegerField(_("lost"))
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["-rating", "deviation", "player_id"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.1f} ± {self.deviation:.1f}"

    @property
    def provisional(self) -> bool:
        """Fewer than `tournaments.pure.ratings.PROVISIONAL_MATCHES` rated matches."""
        return self.matches < PROVISIONAL_MATCHES


class RatingHistory(Glicko2Fields):
    """A player's rating at the end of an event they played (`rating`, `deviation`: rating
    points; `matches`: their rated matches up to and including it). Replaced with
    `PlayerRating`."""

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_history",
        verbose_name=_("player"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rating_history",
        verbose_name=_("tournament"),
    )

    class Meta:
        ordering = ["player", "tournament__date", "tournament_id"]
        verbose_name = _("rating after an event")
        verbose_name_plural = _("rating history")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "tournament"], name="ratinghistory_unique_player_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} · {self.tournament_id}: {self.rating:.1f}"


# --------------------------------------------------------------------------------------------
# Players entering their own match at the table (tournaments/table_entry.py)
# --------------------------------------------------------------------------------------------




class MatchTable(models.Model):
    """A match as its players see it at the table: the secret link and the sign-off.

    The link's token (`secrets.token_urlsafe(24)`: 192 bits) is looked up by its SHA-256
    (`token_hash`, unique); the token itself is kept too (`token`, never shown outside the
    organiser's pages, the scorecard and `entry_links`), because the scorecard printed later
    must carry the same link and a hash cannot give it back. Revoking writes a new token.
    `signed_a` / `signed_b`: when each player signed the result; `approved_at`: the organiser
    approved it without (all) signatures; `pending`: a deal entered under
    `players_confirm_each` that waits for the opponent (`{"number", "winner", "game_points",
    "reason", "seat"}`), not yet a deal; `players_entered`: a player entered a deal of it (under
    `players_sign` its result then waits for the signatures)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="table", verbose_name=_("match")
    )
    token = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    signed_a = models.DateTimeField(null=True, blank=True)
    signed_b = models.DateTimeField(null=True, blank=True)
    approved_at = models.DateTimeField(null=True, blank=True)
    disputed_by = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    dispute = models.CharField(max_length=500, blank=True)
    pending = models.JSONField(null=True, blank=True)
    players_entered = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("match at the table")

    def __str__(self) -> str:
        return f"table link of match {self.match_id}"

    def signed(self, seat: str) -> bool:
        return bool(self.signed_a if seat == Seat.A else self.signed_b)

    @property
    def is_final(self) -> bool:
        """Both signed, or the organiser approved: locked for the players."""
        return bool(self.approved_at or (self.signed_a and self.signed_b))


class MatchEvent(models.Model):
    """Who did what at the table (or the organiser on the sign-off): every deal, undo,
    confirmation, signature, dispute, approval and link renewal, with the seat ("" for an
    organiser: `user`), the time and the client's address."""

    class Kind(models.TextChoices):
        DEAL = "deal", _("deal entered")
        PENDING = "pending", _("deal entered, waiting for the opponent")
        CONFIRMED = "confirmed", _("deal confirmed")
        REJECTED = "rejected", _("deal rejected")
        UNDO = "undo", _("deal undone")
        SIGNED = "signed", _("result signed")
        DISPUTED = "disputed", _("result disputed")
        APPROVED = "approved", _("result approved by the organiser")
        RENEWED = "renewed", _("players' link renewed")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="table_events")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    seat = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=500, blank=True)
    address = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.seat or self.user_id} #{self.number or ''}"
