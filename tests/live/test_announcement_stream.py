"""An announcement set moves the event on to a new version, so the streams tell its pages:
the event's stream (projector, rounds, standings) and each match's (the match pages) say
`changed` with their new version once it commits. Run as `test_streams` runs its streams."""

import random

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from events import services
from events.announcements import announcement_set
from events.models import Pairing, Tournament
from scoring.models import Match
from tests.live.test_streams import lines_until, quick_watcher, run  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("stream", ["event", "match"])
def test_the_streams_say_changed_once_an_announcement_is_set(started, stream):
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    if stream == "event":
        url, version = f"/t/{started.pk}/live/", started.version
    else:
        url, version = f"/m/{match.pk}/live/", match.version

    def read_version() -> int:
        model, pk = (Tournament, started.pk) if stream == "event" else (Match, match.pk)
        return model.objects.get(pk=pk).version

    async def scenario():
        response = await AsyncClient().get(f"{url}?v={version}")
        lines = aiter(response.streaming_content)
        assert "changed" not in await lines_until(lines, "retry:")
        await sync_to_async(announcement_set)(tournament=started, text="Кръг 3 започва в 20:15",
                                              by=None)
        said = await lines_until(lines, "event: changed")
        now = await sync_to_async(read_version)()
        assert now > version
        assert f"id: {now}\nevent: changed\ndata: {now}\n" in said
        await response.streaming_content.aclose()

    run(scenario())
