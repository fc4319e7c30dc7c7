"""The record of play: matches and their deals.

Rows are written only through `scoring.services`, which locks the match, checks the deals with
`scoring.rules` and keeps the match's running score in step with its deals.
"""

import functools

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from club.models import Player
from core.models import Versioned
from scoring import rules


class Seat(models.TextChoices):
    """The database's choices for `rules.Seat`: the one seat type, labelled."""

    A = rules.SEATS[0], _("seat A")
    B = rules.SEATS[1], _("seat B")


class Reason(models.TextChoices):
    """Why a deal scored what it did: the values of `rules.REASONS`. These labels are those of
    the default house rules; what a match shows comes from `reason_label`, which names the
    match's own schneider threshold."""

    WON = "won", _("66, loser 33 or more")
    SCHNEIDER = "schneider", _("66, loser under 33")
    CAPOT = "capot", _("capot: loser took no trick")
    FALSE_CLAIM = "false_claim", _("false claim of 66")
    CLOSER_FAILED = "closer_failed", _("closer failed")
    OPPONENT_OUT_AFTER_CLOSE = "opponent_out_after_close", _("opponent of the closer went out")
    LAST_TRICK = "last_trick", _("last trick wins the deal")
    DRAW = "draw", _("draw")


assert tuple(Reason.values) == rules.REASONS, "Reason must list rules.REASONS, in order"


def reason_label(reason: str, house_rules: rules.HouseRules) -> str:
    """The label of `reason` (one of `rules.REASONS`) under `house_rules`, in the active
    language: a plain win and a schneider name the loser's total that separates them,
    `house_rules.schneider_below` card points (33 by default, 31 under that house rule;
    docs/rules.md §2, §7). Raises `ValueError` for an unknown reason (a bug)."""
    threshold = {"points": house_rules.schneider_below}
    if reason == Reason.WON:
        # Translators: the reason of a deal; %(points)s is a loser's total (33, or 31).
        return gettext("66, loser %(points)s or more") % threshold
    if reason == Reason.SCHNEIDER:
        # Translators: the reason of a deal; %(points)s is a loser's total (33, or 31).
        return gettext("66, loser under %(points)s") % threshold
    return str(Reason(reason).label)



def _house_rule_choices(name: str, labels: dict | None = None) -> list[tuple]:
    """The form and model choices of house rule `name`: the values
    `rules.ALLOWED_HOUSE_RULE_VALUES[name]` allows, in its order (default first), each labelled
    from `labels`, or by the value itself (numbers) when `labels` is None. Raises `KeyError` when
    `labels` misses an allowed value or names one the rules do not allow (a bug, at import)."""
    values = rules.ALLOWED_HOUSE_RULE_VALUES[name]
    if labels is None:
        return [(value, str(value)) for value in values]
    if set(labels) != set(values):
        raise KeyError(f"Labels of {name!r} must be exactly {values!r}, not {tuple(labels)!r}.")
    return [(value, labels[value]) for value in values]


class HouseRulesFields(models.Model):
    """The house rules of docs/rules.md §7 as columns, for the events that choose them.

    `house_rules()` turns them into the frozen `rules.HouseRules` the rules module takes.
    """

    game_target = models.PositiveSmallIntegerField(
        _("game target"), default=11,
        choices=_house_rule_choices("game_target"),
        help_text=_("Game points that win a match."),
    )
    first_trick_marriage = models.CharField(
        _("marriage before the first trick"), max_length=12, default="forbidden",
        choices=_house_rule_choices("first_trick_marriage", {
            "forbidden": _("not allowed: a marriage needs a won trick"),
            "pending": _("allowed; counts once its player wins a trick"),
        }),
    )
    last_trick = models.CharField(
        _("last trick when the stock ran out"), max_length=12, default="bonus",
        choices=_house_rule_choices("last_trick", {
            "bonus": _("+10 to its winner"),
            "none": _("no bonus"),
            "wins_deal": _("its winner wins the deal"),
        }),
    )
    draw_carry_over = models.BooleanField(
        _("draws carry over"), default=False,
        help_text=_("Each drawn deal adds 1 game point to the winner of the next deal."),
    )
    false_claim_points = models.PositiveSmallIntegerField(
        _("game points for a false claim"), default=3,
        choices=_house_rule_choices("false_claim_points"),
    )
    failed_close = models.CharField(
        _("closer fails"), max_length=16, default="flat",
        choices=_house_rule_choices("failed_close", {
            "flat": _("3 game points to the opponent"),
            "tricks_at_close": _("2, or 3 if the opponent had no trick at the close"),
            "tricks_at_end": _("2, or 3 if the opponent has no trick at the end"),
        }),
    )
    opponent_out_after_close_points = models.PositiveSmallIntegerField(
        _("game points when the closer's opponent goes out"), default=3,
        choices=_house_rule_choices("opponent_out_after_close_points"),
    )
    schneider_below = models.PositiveSmallIntegerField(
        _("loser's total for 2 game points: under"), default=33,
        choices=_house_rule_choices("schneider_below"),
    )
    capot_by = models.CharField(
        _("capot"), max_length=8, default="tricks",
        choices=_house_rule_choices("capot_by", {
            "tricks": _("the loser took no trick"),
            "points": _("the loser took no trick or has no points"),
        }),
    )
    next_dealer = models.CharField(
        _("next deal is dealt by"), max_length=10, default="winner",
        choices=_house_rule_choices("next_dealer", {
            "winner": _("the winner of the deal"),
            "loser": _("the loser of the deal"),
            "alternate": _("the players in turn"),
        }),
    )
    close_when = models.CharField(
        _("closing the stock"), max_length=16, default="stock_over_two",
        choices=_house_rule_choices("close_when", {
            "stock_over_two": _("while it holds more than two cards"),
            "stock_not_empty": _("while it holds any card"),
        }),
        help_text=_("Only the player on lead closes; this decides how late."),
    )

    HOUSE_RULE_FIELDS = tuple(rules.ALLOWED_HOUSE_RULE_VALUES)

    class Meta:
        abstract = True

    def house_rules(self) -> rules.HouseRules:
        return rules.HouseRules(**{name: getattr(self, name) for name in self.HOUSE_RULE_FIELDS})

    def set_house_rules(self, house_rules: rules.HouseRules) -> None:
        for name, value in house_rules.to_dict().items():
            setattr(self, name, value)


class Match(Versioned):
    """Two players playing deals until one reaches the game target.

    `house_rules` is a snapshot (`rules.HouseRules.to_dict()`) taken from the event when the
    match is created, so a match scores the same forever. `game_points_a`/`game_points_b` are
    kept equal to `rules.score_match` over the deals by `scoring.services`.
    """

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("not started")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        FORFEITED = "forfeited", _("forfeited")
        UNPLAYED = "unplayed", _("not played")

    OVER = (Status.FINISHED, Status.FORFEITED, Status.UNPLAYED)
    """No deal can be added: the match has a result, or was closed without one. An event whose
    matches are all over is over."""
    DECIDED = (Status.FINISHED, Status.FORFEITED)
    """Over with a winner: the results that standings, ladders and player pages count."""
    CLOSED = (Status.FORFEITED, Status.UNPLAYED)
    """Closed by a withdrawal: its deals can no longer be entered, undone or corrected.
    `UNPLAYED` is a match that will not be played (a withdrawn player's remaining matches under
    the FIDE policy when they played under half, or under `leave_unplayed`): no winner, no
    result; the deals entered before it was closed, if any, stay on record."""

    player_a = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="matches_as_a", verbose_name=_("seat A")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="matches_as_b", verbose_name=_("seat B")
    )
    first_dealer = models.CharField(
        _("first dealer"), max_length=1, choices=Seat.choices, default=Seat.A
    )
    house_rules_snapshot = models.JSONField(_("house rules"), default=dict)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED
    )
    game_points_a = models.PositiveSmallIntegerField(_("game points, seat A"), default=0)
    game_points_b = models.PositiveSmallIntegerField(_("game points, seat B"), default=0)
    winner = models.CharField(_("winner"), max_length=1, choices=Seat.choices, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_a=models.F("player_b")), name="match_two_different_players"
            ),
            models.CheckConstraint(
                condition=Q(winner="") | Q(status__in=["finished", "forfeited"]),
                name="match_winner_only_when_over",
            ),
        ]
        # The matches being played (`selectors.matches_in_play`, counted on the standings
        # and group pages) are a few among thousands: found from an index of those alone,
        # not by reading every match of the event (4 ms at 9,900 matches on SQLite). Only
        # them: an index of every status would be taken for "finished" too and read every
        # finished match of the site (SQLite keeps no statistics to know better).
        indexes = [models.Index(fields=["status"], condition=Q(status="playing"),
                                name="match_playing")]

    def __str__(self) -> str:
        return f"{self.player_a} – {self.player_b}"

    def house_rules(self) -> rules.HouseRules:
        """The match's house rules, from its snapshot (`rules.HouseRules.from_dict`, which
        raises `ValueError` for an unknown option or value); the same snapshot gives the same
        frozen object, built once a process (a deal post asks five times)."""
        return _house_rules_of(tuple(sorted(self.house_rules_snapshot.items())))

    def player(self, seat: str) -> Player:
        return self.player_a if seat == Seat.A else self.player_b

    def deal_scores(self) -> list[rules.DealScore]:
        """The match's deals in order, as `rules.DealScore` (game points), read in one query
        of three columns: what `rules.score_match` and its kin need."""
        rows = self.deals.order_by("number").values_list("winner", "game_points", "reason")
        return [_deal_score(*row) for row in rows]

    @property
    def is_over(self) -> bool:
        """No deal can be added (`OVER`): finished, forfeited or closed unplayed."""
        return self.status in self.OVER

    @property
    def is_decided(self) -> bool:
        """Over with a winner (`DECIDED`): a result that counts."""
        return self.status in self.DECIDED

    @property
    def is_closed(self) -> bool:
        """Closed by a withdrawal (`CLOSED`): no deal, undo or correction."""
        return self.status in self.CLOSED


class Deal(models.Model):
    """One deal of a match: who scored, how many game points and why.

    `details` holds the full `rules.DealRecord` (card points, marriages, tricks, closer,
    claimant) when the organiser entered them; the game points were then computed by
    `rules.score_deal`.
    """

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="deals", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    winner = models.CharField(_("winner"), max_length=1, choices=Seat.choices, blank=True)
    game_points = models.PositiveSmallIntegerField(_("game points"))
    reason = models.CharField(_("reason"), max_length=24, choices=Reason.choices)
    details = models.JSONField(_("details"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    history = HistoricalRecords()
    already_stored = False
    """Set on the deal `scoring.services.deal_record` returns for a resend of a stored deal
    (nothing was written); not a column."""
    match_scores: list[rules.DealScore] | None = None
    """Set on a new deal `scoring.services.deal_record` returns: its match's deals as
    `rules.DealScore`s (game points) in number order, this one last; not a column."""

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_from_1"),
            models.CheckConstraint(
                condition=Q(game_points__lte=3), name="deal_game_points_0_to_3"
            ),
            models.CheckConstraint(
                condition=(Q(winner="") & Q(game_points=0) & Q(reason="draw"))
                | (Q(winner__in=["A", "B"]) & Q(game_points__gte=1) & ~Q(reason="draw")),
                name="deal_draw_iff_no_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.winner or '='} {self.game_points}"

    def score(self) -> rules.DealScore:
        """This deal as the rules module's `DealScore` (totals unknown to the match record)."""
        return _deal_score(self.winner, self.game_points, self.reason)


def _deal_score(winner: str, game_points: int, reason: str) -> rules.DealScore:
    """A stored deal as `rules.DealScore`: no winner ("") is a draw; totals are not stored."""
    return rules.DealScore(winner=winner or None, game_points=game_points, totals=None,
                           reason=reason)


@functools.lru_cache(maxsize=256)
def _house_rules_of(options: tuple[tuple[str, object], ...]) -> rules.HouseRules:
    """`rules.HouseRules.from_dict` of the sorted (name, value) pairs of a snapshot."""
    return rules.HouseRules.from_dict(dict(options))
