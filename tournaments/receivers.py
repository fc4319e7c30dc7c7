"""Receivers of `scoring` signals (DESIGN.md "Layering"): each hands the match to its
tournament's format (`tournaments.formats`), which makes one service call; a match outside a
tournament is ignored. Also: every write the event pages show is counted once its transaction
commits (`tournaments.live_commits`)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from club.models import Player
from scoring.models import Deal, Match
from scoring.signals import match_finished, match_reopened
from tournaments import formats, live_commits
from tournaments.models import Entry, MatchEvent, Pairing, PlayerRating, Tournament
from tournaments.table_entry import clear_sign_off_on_reopen

for _model in (Match, Deal, Entry, Tournament, Player, Pairing, PlayerRating, MatchEvent):
    for _signal in (post_save, post_delete):  # what the event pages show (tournaments.live)
        _signal.connect(live_commits.count_this_transaction, sender=_model,
                        dispatch_uid=f"live-commits-{_signal is post_save}-{_model.__name__}")


@receiver(match_finished, sender=Match)
def match_finished_received(sender, match: Match, **kwargs) -> None:
    """A knockout sends the winner on; a round robin may be finished."""
    event_format = formats.for_match(match)
    if event_format is not None:
        event_format.on_match_finished(match)


@receiver(match_reopened, sender=Match)
def match_reopened_received(sender, match: Match, confirmed: bool = False, **kwargs) -> None:
    """A knockout takes back what the match's result sent on (or asks for confirmation by
    raising `scoring.services.ConfirmationRequired`); a round robin may be running again.
    The players' signatures of the old result are cleared (`table_entry`)."""
    clear_sign_off_on_reopen(match)
    event_format = formats.for_match(match)
    if event_format is not None:
        event_format.on_match_reopened(match, confirmed=confirmed)
