"""What the projector reads: the round on show and its pairings."""

from events.models import Pairing, Round, Tournament
from events.selectors import current_round, pairings_of_round


def projector_pairings(tournament: Tournament, *, in_play_only: bool
                       ) -> tuple[Round | None, list[Pairing]]:
    """What the projector's "now playing" slide shows: the `current_round` and its pairings
    by table; `in_play_only` (a club night: one round all evening) keeps only the matches not
    over. Three queries at most; (None, []) before the start."""
    round_ = current_round(tournament)
    if round_ is None:
        return None, []
    pairings = list(pairings_of_round(round_))
    if in_play_only:
        pairings = [p for p in pairings if p.match and not p.match.is_over]
    return round_, pairings
