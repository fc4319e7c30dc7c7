"""Parts pushed down the stream (`live.pushed`): to a visitor who is not signed in, a stream
that names its page's part (`?part=`) sends the part itself at a change — what the page would
have fetched, byte for byte — rendered once for every stream of this process that waits for
it, and gzipped as one stream; to an organiser, or for an address that is not a live part of
that very event, it says `changed` as before."""

import asyncio
import random
import zlib

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client

from events import services
from events.models import Pairing, Tournament
from live import pushed
from live import watcher as watcher_module
from live.views import streams
from scoring import rules
from scoring import services as scoring_services
from standings import selectors as standings_selectors
from tests.live.test_streams import lines_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_watcher(monkeypatch):
    monkeypatch.setattr(watcher_module, "POLL_SECONDS", 0.05)
    monkeypatch.setattr(streams, "KEEP_ALIVE_SECONDS", 1)
    monkeypatch.setattr(streams, "RECHECK_SECONDS", 0)
    pushed._parts.clear()
    yield
    asyncio.run(sync_to_async(connections.close_all)())


@pytest.fixture
def started(tournament):
    services.tournament_start(tournament=tournament, rng=random.Random(1))
    return Tournament.objects.get(pk=tournament.pk)


def a_deal(event: Tournament) -> None:
    """Table 1 of round 1: seat A wins a capot (3 game points)."""
    match = Pairing.objects.get(round__tournament=event, round__number=1, table=1).match
    scoring_services.deal_record(match=match, score=rules.quick_result("A", 3, "capot"),
                                 by=None)


def data_of(said: str) -> str:
    """The data of the last `part` message in `said`, its lines joined as a browser joins
    them."""
    message = said[said.rindex("event: part\n"):].split("\n\n", 1)[0]
    return "\n".join(line[len("data: "):] for line in message.split("\n")
                     if line.startswith("data: "))


def stream_address(event: Tournament, part: str) -> str:
    return f"/t/{event.pk}/live/?v={event.version}&part={part}"


def said_after_a_deal(client: AsyncClient, address: str, event: Tournament,
                      wanted: str) -> str:
    """What the stream at `address` sends, opened by `client`, from a deal at `event` until a
    message holding `wanted`."""

    async def scenario():
        response = await client.get(address)
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")
        await sync_to_async(a_deal)(event)
        said = await lines_until(stream, wanted)
        await response.streaming_content.aclose()
        return said

    return asyncio.run(scenario())


def test_a_spectator_s_stream_pushes_the_part_the_page_would_fetch(started):
    page = f"/t/{started.pk}/standings/"
    said = said_after_a_deal(AsyncClient(), stream_address(started, page), started,
                             "event: part")
    now = Tournament.objects.get(pk=started.pk).version
    assert f"id: {now}\nevent: part\n" in said
    assert "event: changed" not in said
    fetched = Client().get(page, headers={"HX-Request": "true"})
    assert data_of(said) == fetched.content.decode().replace("\r\n", "\n")
    assert 'id="live-standings"' in data_of(said)
    assert fetched["X-Live-Version"] == str(now)


def test_the_page_names_its_part_to_its_stream_for_the_public_only(started, organiser):
    page = f"/t/{started.pk}/rounds/1/"
    public = Client().get(page).content.decode()
    assert (f'sse-connect="/t/{started.pk}/live/?v={started.version}&amp;part=/t/{started.pk}'
            f'/rounds/1/"') in public
    assert 'sse-swap="part"' in public
    signed_in = Client()
    signed_in.force_login(organiser)
    assert "part=" not in signed_in.get(page).content.decode()


def test_a_pushed_stream_is_one_gzip_stream_flushed_at_each_message(started):
    page = f"/t/{started.pk}/rounds/1/"

    async def scenario():
        plain = await AsyncClient().get(stream_address(started, page))
        assert not plain.has_header("Content-Encoding")  # gzip was not asked for
        await plain.streaming_content.aclose()
        response = await AsyncClient().get(stream_address(started, page),
                                           headers={"Accept-Encoding": "gzip, br"})
        assert response["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response["Vary"]
        decompressor = zlib.decompressobj(31)
        text = ""

        async def until(wanted: str) -> None:
            nonlocal text
            async for chunk in response.streaming_content:
                text += decompressor.decompress(chunk).decode()
                if wanted in text:
                    return

        await asyncio.wait_for(until("retry:"), 5)
        await sync_to_async(a_deal)(started)
        await asyncio.wait_for(until("event: part"), 5)
        assert text.endswith("\n\n")  # the whole message came at once, none held back
        await response.streaming_content.aclose()
        return text

    text = asyncio.run(scenario())
    fetched = Client().get(page, headers={"HX-Request": "true"}).content.decode()
    assert data_of(text) == fetched.replace("\r\n", "\n")


@pytest.mark.parametrize("part", [
    "/",                                   # not a live part
    "/t/{other}/standings/",               # another event's
    "//evil.example/t/{pk}/standings/",    # another site
    "/t/{pk}/standings/%07",               # a control character
    "/t/{pk}/standings/" + "x" * 400,      # too long
    "/t/{pk}/control/",                    # the organiser's control room
])
def test_a_stream_whose_part_is_not_a_public_part_of_its_event_says_changed(
        started, tournament, part, home_club):
    other = Tournament.objects.create(name="Друга купа", date=started.date, club=home_club,
                                      format=Tournament.Format.ROUND_ROBIN)
    address = stream_address(started, part.format(pk=started.pk, other=other.pk))
    said = said_after_a_deal(AsyncClient(), address, started, "event: changed")
    assert "event: part" not in said


def test_an_organiser_s_stream_says_changed(started, organiser):
    client = AsyncClient()
    client.force_login(organiser)
    address = stream_address(started, f"/t/{started.pk}/standings/")
    said = said_after_a_deal(client, address, started, "event: changed")
    assert "event: part" not in said


def test_many_spectators_streams_cost_one_render_of_each_version(started, monkeypatch):
    renders = []
    real = pushed.render
    monkeypatch.setattr(pushed, "render", lambda *args: renders.append(args) or real(*args))
    page = f"/t/{started.pk}/standings/"

    async def scenario():
        responses = [await AsyncClient().get(stream_address(started, page)) for _ in range(5)]
        streams_ = [aiter(response.streaming_content) for response in responses]
        for stream in streams_:
            await lines_until(stream, "retry:")
        await sync_to_async(a_deal)(started)
        said = [await lines_until(stream, "event: part") for stream in streams_]
        for response in responses:
            await response.streaming_content.aclose()
        return said

    said = asyncio.run(scenario())
    assert len(renders) == 1
    assert len({data_of(text) for text in said}) == 1


def test_two_server_processes_draw_a_version_once_between_them(started, monkeypatch):
    """Two processes (two `Parts`, sharing Django's cache as gunicorn's workers do) asked for
    the same version at once: one draws the standings, the other waits and takes its part
    from the cache."""
    drawn = []
    real = standings_selectors.standings_with_withdrawn
    monkeypatch.setattr(standings_selectors, "standings_with_withdrawn",
                        lambda *args: drawn.append(args) or real(*args))
    a_deal(started)
    version = Tournament.objects.get(pk=started.pk).version
    page = f"/t/{started.pk}/standings/"

    async def both():
        return await asyncio.gather(*(
            pushed.Parts().part(page, "testserver", "http", "en", version) for _ in range(2)))

    first, second = asyncio.run(both())
    assert len(drawn) == 1
    assert first == second
    assert first.startswith(f"id: {version}\nevent: part\n".encode())


def test_an_event_made_private_ends_the_pushed_stream(started):
    page = f"/t/{started.pk}/standings/"

    async def scenario():
        response = await AsyncClient().get(stream_address(started, page))
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")

        def hide():
            event = Tournament.objects.get(pk=started.pk)
            event.is_public = False
            event.save()

        await sync_to_async(hide)()
        return await lines_until(stream, "event: gone")

    said = asyncio.run(scenario())
    assert "event: part" not in said


def test_a_part_s_lines_become_data_fields_and_only_line_ends_split_them():
    body = '<div id="x">\r\n<p>Иван\u2028Петров</p>\r<p>2</p>\n</div>'
    assert pushed.message(7, body) == (
        "id: 7\nevent: part\n"
        'data: <div id="x">\n'
        "data: <p>Иван\u2028Петров</p>\n"
        "data: <p>2</p>\n"
        "data: </div>\n\n"
    )
