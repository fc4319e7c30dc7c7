"""A match as its players see it at the table (`MatchTable`: the secret link, the seats' sign-off)
and the log of what happened there (`MatchEvent`)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models import Match, Seat


class MatchTable(models.Model):
    """A match as its players see it at the table: the secret link and the sign-off.

    The link's token (`secrets.token_urlsafe(24)`: 192 bits) is looked up by its SHA-256
    (`token_hash`, unique); the token itself is kept too (`token`, never shown outside the
    organiser's pages, the scorecard and `entry_links`), because the scorecard printed later
    must carry the same link and a hash cannot give it back. Revoking writes a new token.
    `signed_a` / `signed_b`: when each player signed the result; `approved_at`: the organiser
    approved it without (all) signatures; `pending`: a deal entered under
    `players_confirm_each` that waits for the opponent (`{"number", "winner", "game_points",
    "reason", "seat", "device"}`), not yet a deal; `players_entered`: a player entered a deal
    of it (under `players_sign` its result then waits for the signatures).

    `holder_a` / `holder_b`: the SHA-256 (hex) of the device id of the browser that holds each
    seat (`table_entry.device_hash`; the id itself is only in that browser's cookie), "" for a
    free seat: the first browser to take a seat holds it until the organiser frees it or
    renews the link. `signed_alike`: both signatures came from one browser (`DEVICE`) or one
    address (`ADDRESS`), "" otherwise or while not both have signed: the control room marks
    the match until an organiser approves it.

    `undo_asked_by` / `undo_number`: after a signature, the seat of the player who asked (from
    their pass) to undo deal `undo_number`, the last deal, and waits for the other signer's
    consent (`table_entry.undo_ask`); "" / None when no request waits. One per match at a
    time; a correction, a dispute or an approval drops it."""

    class Alike(models.TextChoices):
        DEVICE = "device", _("one phone")
        ADDRESS = "address", _("one address")

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
    holder_a = models.CharField(max_length=64, blank=True)
    holder_b = models.CharField(max_length=64, blank=True)
    signed_alike = models.CharField(max_length=8, choices=Alike.choices, blank=True)
    undo_asked_by = models.CharField(max_length=1, choices=Seat.choices, blank=True)
    undo_number = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("match at the table")

    def __str__(self) -> str:
        return f"table link of match {self.match_id}"

    def signed(self, seat: str) -> bool:
        return bool(self.signed_a if seat == Seat.A else self.signed_b)

    def holder(self, seat: str) -> str:
        """The device hash of the browser holding `seat` ("A"/"B"), "" when it is free."""
        return self.holder_a if seat == Seat.A else self.holder_b

    def seat_held_by(self, device: str) -> str:
        """The seat ("A"/"B") the browser of device hash `device` holds, "" for none."""
        if device and device == self.holder_a:
            return Seat.A
        if device and device == self.holder_b:
            return Seat.B
        return ""

    @property
    def signed_any(self) -> bool:
        """A player has signed: the phones can no longer change the result."""
        return bool(self.signed_a or self.signed_b)

    @property
    def is_final(self) -> bool:
        """Both signed, or the organiser approved: locked for the players."""
        return bool(self.approved_at or (self.signed_a and self.signed_b))


class MatchEvent(models.Model):
    """Who did what at the table (or the organiser on the sign-off): every seat taken or
    freed, deal, undo, confirmation, signature, dispute, approval, signatures cleared, link
    renewal, and an undo after a signature asked, allowed, refused or withdrawn, with the seat
    (for an organiser's step: `user`, and the seat it freed), the time, the client's address
    and, for a phone's step, `device`: a short label of its browser (the first characters of
    `MatchTable.holder_a`/`holder_b`'s hash, never the id), so two steps from one phone can be
    told apart from two phones. `via`: a player's step taken from their
    pass (`PASS`; the history says "pass of <name>", never the token) or confirmed with their
    personal code on the other player's phone (`CODE`), "" from the match's link."""

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
        CLAIMED = "claimed", _("seat taken")
        FREED = "freed", _("seat freed by the organiser")
        CLEARED = "cleared", _("signatures cleared: the result changed")
        UNDO_ASKED = "undo_asked", _("undo of a signed result asked")
        UNDO_ALLOWED = "undo_allowed", _("undo allowed by the signer")
        UNDO_REFUSED = "undo_refused", _("undo refused by the signer")
        UNDO_DROPPED = "undo_dropped", _("undo request withdrawn")

    class Via(models.TextChoices):
        LINK = "", _("the match's link")
        PASS = "pass", _("the player's pass")
        CODE = "code", _("the player's personal code")

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
    device = models.CharField(max_length=8, blank=True)
    via = models.CharField(max_length=4, choices=Via.choices, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.seat or self.user_id} #{self.number or ''}"


class RetiredLink(models.Model):
    """A players' link that opens no match any more, known by the SHA-256 of its token only
    (`token_hash`, as `MatchTable` looks links up; the token itself is never kept): the link
    was renewed (`RENEWED`: the phone is told to scan the new card, 410), or its match was
    deleted by a change upstream (`REMOVED`: a knockout correction, a withdrawal, a pairing
    taken back; the players' pages say so with the organiser's sentence, 409). Either answer
    is not a wrong link, so it does not count toward the guessing limit
    (`tableside.link_guesses`). No foreign keys: the match, or its whole event, may be gone;
    `language` is the event's, for the pages of a link that no longer finds it."""

    class Reason(models.TextChoices):
        RENEWED = "renewed", _("renewed")
        REMOVED = "removed", _("match removed")

    token_hash = models.CharField(max_length=64, unique=True)
    match_id = models.BigIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    change_reason = models.CharField(max_length=100, blank=True)
    language = models.CharField(max_length=8, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.reason} link of match {self.match_id}"
