"""The live pages' streams (`live.views.streams`, `live.watcher`): a stream opens with the
reconnection delay, says `changed` with the new version as soon as a change commits (or at
once when the page was drawn at an older version), stays quiet while nothing changes, checks
the visitor as the page does, and says `gone` when the page may no longer be seen this way.

Each test runs the stream in an event loop of its own, as a server process does, with the
database written by the test's own thread: every write is committed (transaction=True)."""

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connections
from django.test import AsyncClient

from events import services
from events.models import Pairing, Tournament
from live import watcher as watcher_module
from live.views import streams
from scoring import rules
from scoring import services as scoring_services
from scoring.models import Match
from tableside import link_guesses, table_entry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_watcher(monkeypatch):
    monkeypatch.setattr(watcher_module, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 1)
    monkeypatch.setattr(streams, "RECHECK_SECONDS", 0)
    yield
    # The streams' database work ran in asgiref's one thread for sync code; a stream left
    # open by a test keeps that thread's connection, which would hold the test database
    # open for the tests after it (a restore refuses a database in use).
    run(sync_to_async(connections.close_all)())


@pytest.fixture
def started(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def match(started) -> Match:
    return Pairing.objects.get(round__tournament=started, round__number=1, table=1).match


def deal(match: Match) -> None:
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 1, "won"), by=None)


async def lines_until(stream, wanted: str, seconds: float = 5.0) -> str:
    """What `stream` sends until a message holding `wanted` (raises TimeoutError after
    `seconds`)."""
    received = ""

    async def read():
        nonlocal received
        async for chunk in stream:
            received += chunk.decode() if isinstance(chunk, bytes) else chunk
            if wanted in received:
                return received
        return received

    return await asyncio.wait_for(read(), seconds)


def run(coroutine):
    return asyncio.run(coroutine)


def test_an_event_stream_says_changed_when_a_deal_commits(started, match):
    version = Tournament.objects.get(pk=started.pk).version

    async def scenario():
        # Asked for gzip as every browser asks: a stream that only says `changed` is never
        # compressed (gzip would hold its small messages back).
        response = await AsyncClient().get(f"/t/{started.pk}/live/?v={version}",
                                           headers={"Accept-Encoding": "gzip, br"})
        assert response.asgi_request.headers["Accept-Encoding"] == "gzip, br"
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        assert not response.has_header("Content-Encoding")
        stream = aiter(response.streaming_content)
        first = await lines_until(stream, "retry:")
        assert "changed" not in first
        quiet = await lines_until(stream, "keep-alive", seconds=3)
        assert "changed" not in quiet  # nothing moved: a comment line only
        await sync_to_async(deal)(match)
        said = await lines_until(stream, "event: changed")
        now = await sync_to_async(
            lambda: Tournament.objects.get(pk=started.pk).version)()
        assert f"id: {now}\nevent: changed\ndata: {now}\n" in said
        await response.streaming_content.aclose()

    run(scenario())


def test_a_page_drawn_at_an_older_version_is_told_at_once(started, match):
    version = Tournament.objects.get(pk=started.pk).version
    deal(match)

    async def scenario():
        response = await AsyncClient().get(f"/t/{started.pk}/live/?v={version}")
        said = await lines_until(aiter(response.streaming_content), "event: changed", 2)
        assert said.startswith("retry: 2000\n\n")
        await response.streaming_content.aclose()

    run(scenario())


def test_a_reconnecting_browser_catches_up_from_its_last_event_id(started, match):
    version = Tournament.objects.get(pk=started.pk).version
    deal(match)

    async def scenario():
        # The browser sends the id of the last message it had; the page's ?v= is older.
        response = await AsyncClient().get(f"/t/{started.pk}/live/?v=0",
                                           headers={"Last-Event-ID": str(version)})
        said = await lines_until(aiter(response.streaming_content), "event: changed", 2)
        now = await sync_to_async(
            lambda: Tournament.objects.get(pk=started.pk).version)()
        assert now > version and f"id: {now}\n" in said
        await response.streaming_content.aclose()

    run(scenario())


def test_a_match_stream_ignores_another_table(started, match):
    other = Pairing.objects.get(round__tournament=started, round__number=1, table=2).match
    version = Match.objects.get(pk=match.pk).version

    async def scenario():
        response = await AsyncClient().get(f"/m/{match.pk}/live/?v={version}")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")
        await sync_to_async(deal)(other)
        quiet = await lines_until(stream, "keep-alive", seconds=3)
        assert "changed" not in quiet
        await sync_to_async(deal)(match)
        await lines_until(stream, "event: changed")
        await response.streaming_content.aclose()

    run(scenario())


def test_a_private_event_has_no_stream_for_the_public_and_its_stream_ends(started, organiser):
    Tournament.objects.filter(pk=started.pk).update(is_public=False)

    async def refused():
        for path in (f"/t/{started.pk}/live/", f"/t/{started.pk + 99}/live/"):
            assert (await AsyncClient().get(path)).status_code == 404

    run(refused())
    Tournament.objects.filter(pk=started.pk).update(is_public=True)
    version = Tournament.objects.get(pk=started.pk).version

    async def made_private():
        response = await AsyncClient().get(f"/t/{started.pk}/live/?v={version}")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")

        def hide():
            event = Tournament.objects.get(pk=started.pk)
            event.is_public = False
            event.save()

        await sync_to_async(hide)()
        said = await lines_until(stream, "event: gone")
        assert "changed" not in said
        assert [chunk async for chunk in stream] == []  # the stream has ended

    run(made_private())


def test_a_stream_checks_its_visitor_again_at_most_every_recheck_seconds(started, match,
                                                                        monkeypatch):
    """Three deals within a minute, with a minute between checks: three `changed`, and the
    visitor checked once, when the stream opened; with no time between checks, at each."""
    checks = []
    real = streams._event_visible
    monkeypatch.setattr(streams, "_event_visible",
                        lambda user, pk: checks.append(pk) or real(user, pk))

    def three_deals(recheck_seconds: int) -> int:
        checks.clear()
        monkeypatch.setattr(streams, "RECHECK_SECONDS", recheck_seconds)
        version = Tournament.objects.get(pk=started.pk).version

        async def scenario():
            response = await AsyncClient().get(f"/t/{started.pk}/live/?v={version}")
            stream = aiter(response.streaming_content)
            await lines_until(stream, "retry:")
            for _ in range(3):
                await sync_to_async(deal)(match)
                await lines_until(stream, "event: changed")
            await response.streaming_content.aclose()

        run(scenario())
        return len(checks)

    assert three_deals(60) == 1
    assert three_deals(0) == 4


def test_an_organiser_follows_a_private_event(started, organiser):
    Tournament.objects.filter(pk=started.pk).update(is_public=False)
    client = AsyncClient()
    client.force_login(organiser)

    async def scenario():
        response = await client.get(f"/t/{started.pk}/live/")
        assert response.status_code == 200
        await lines_until(aiter(response.streaming_content), "retry:")
        await response.streaming_content.aclose()

    run(scenario())


def test_a_players_link_stream_ends_when_the_link_is_renewed(match, organiser):
    token = table_entry.table_of(match).token

    async def scenario():
        response = await AsyncClient().get(f"/p/{token}/live/?v=0")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "event: changed")  # drawn at 0: told at once
        await sync_to_async(table_entry.link_renew)(match=match, by=organiser)
        await lines_until(stream, "event: gone")

    run(scenario())


def test_a_wrong_link_has_no_stream_and_counts_as_a_guess(match):
    cache.clear()

    async def scenario():
        client = AsyncClient()
        wrong = "x" * 32
        assert (await client.get(f"/p/{wrong}/live/")).status_code == 404
        for _ in range(link_guesses.GUESS_LIMIT):
            await client.get(f"/p/{wrong}/live/")
        assert (await client.get(f"/p/{wrong}/live/")).status_code == 429
        token = await sync_to_async(lambda: table_entry.table_of(match).token)()
        response = await client.get(f"/p/{token}/live/?v=0")  # the right link still opens
        assert response.status_code == 200
        await lines_until(aiter(response.streaming_content), "event: changed")

    run(scenario())
    cache.clear()


def test_a_renewed_link_s_stream_says_gone_and_is_no_guess(match, organiser):
    cache.clear()
    old = table_entry.table_of(match).token
    table_entry.link_renew(match=match, by=organiser)

    async def scenario():
        client = AsyncClient()
        for _ in range(link_guesses.GUESS_LIMIT + 5):
            response = await client.get(f"/p/{old}/live/?v=0")
            assert response.status_code == 200
            assert "event: gone" in await lines_until(aiter(response.streaming_content),
                                                      "event: gone")
        assert (await client.get(f"/p/{'x' * 32}/live/")).status_code == 404  # not 429

    run(scenario())
    cache.clear()


def test_a_stream_is_get_only(started):
    async def scenario():
        assert (await AsyncClient().post(f"/t/{started.pk}/live/")).status_code == 405

    run(scenario())


def test_a_running_jobs_stream_ticks_until_the_job_is_done(started, organiser):
    from printing.models import PrintJob

    job = PrintJob.objects.create(tournament=started, kind="round", round_number=1,
                                  language="en", progress=40)
    client = AsyncClient()
    client.force_login(organiser)

    async def scenario():
        response = await client.get(f"/t/{started.pk}/print/{job.pk}/live/")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "event: changed", seconds=3)
        await sync_to_async(PrintJob.objects.filter(pk=job.pk).update)(
            status=PrintJob.Status.DONE, progress=100)
        said = await lines_until(stream, "event: gone", seconds=3)
        assert said.endswith("event: gone\ndata: gone\n\n")

    run(scenario())


def test_someone_elses_job_has_no_stream(started):
    from printing.models import PrintJob

    job = PrintJob.objects.create(tournament=started, kind="scorecards", round_number=1,
                                  language="en")

    async def scenario():
        response = await AsyncClient().get(f"/t/{started.pk}/print/{job.pk}/live/")
        assert response.status_code in (302, 403)  # the page's own answer: log in first
        assert (await AsyncClient().get("/t/import/1/live/")).status_code == 404

    run(scenario())
