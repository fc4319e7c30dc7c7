"""The event's announcement: one line the organiser shows on every live page of the event
("Round 3 starts at 20:15"), stored on the event (`Tournament.announcement`, with the time it
was set in `announced_at`). Setting it saves the event, whose live pages and matches' pages
then move on to a new version (`events.versions`): every open page shows it within moments.
"""

import datetime

from django.db import transaction
from django.utils import timezone

from core.text import clean_text
from events.models import ANNOUNCEMENT_LIMIT, Tournament
from events.services import tournament_lock


@transaction.atomic
def announcement_set(*, tournament: Tournament, text: str, by,
                     now: datetime.datetime | None = None) -> Tournament:
    """Set `tournament`'s announcement to `text` (checked free text, one line, at most
    `ANNOUNCEMENT_LIMIT` characters: `core.text.clean_text`), set at `now` (default: the
    present) by the user `by` (for the history); an empty or blank `text` clears it. Returns
    the event as saved. Raises `ValidationError` (`text_not_plain`, `text_too_long`) before
    anything is written."""
    text = clean_text(text, max_length=ANNOUNCEMENT_LIMIT)
    tournament = tournament_lock(tournament)
    if text == tournament.announcement:
        return tournament
    tournament.announcement = text
    tournament.announced_at = (now or timezone.now()) if text else None
    tournament._history_user = by
    tournament.save(update_fields=["announcement", "announced_at"])
    return tournament
