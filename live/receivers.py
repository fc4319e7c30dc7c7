"""Every write the event pages show is counted once its transaction commits
(`live.commits`)."""

from django.db.models.signals import post_delete, post_save

from club.models import Player
from events.models import Entry, Pairing, Tournament
from live import commits
from ratings.models import PlayerRating
from scoring.models import Deal, Match
from tableside.models import MatchEvent

for _model in (Match, Deal, Entry, Tournament, Player, Pairing, PlayerRating, MatchEvent):
    for _signal in (post_save, post_delete):
        _signal.connect(commits.count_this_transaction, sender=_model,
                        dispatch_uid=f"live-commits-{_signal is post_save}-{_model.__name__}")
