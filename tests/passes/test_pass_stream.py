"""The pass page's stream (`live.views.streams.pass_stream`): `changed` when an event the
page shows moves on (a deal at the player's table), and when the player enters a new event;
`gone` when the pass is renewed or revoked; a wrong token counts as a guess. Run as the tests
of tests/live/test_streams.py: the stream in an event loop of its own, every write committed."""

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from events import services as event_services
from events.models import Entry, Pairing, Tournament
from passes import services
from tableside import table_entry
from tests.live.test_streams import deal, lines_until, quick_watcher, run, started  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def _path(player) -> tuple[str, str]:
    player_pass = services.pass_make(player)
    return services.token_of(player_pass), f"/pass/{services.token_of(player_pass)}/"


def _version(client_path: str, client) -> int:
    response = client.get(client_path)
    return int(response["X-Live-Version"])


def test_a_deal_at_the_players_table_says_changed(client, started):  # noqa: F811
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    token, path = _path(match.player_a)
    version = _version(path, client)

    async def scenario():
        response = await AsyncClient().get(f"/pass/{token}/live/?v={version}")
        assert response.status_code == 200
        stream = aiter(response.streaming_content)
        first = await lines_until(stream, "keep-alive", seconds=3)
        assert "changed" not in first
        await sync_to_async(deal)(match)
        await lines_until(stream, "event: changed")
        await response.streaming_content.aclose()

    run(scenario())


def test_entering_a_new_event_says_changed(client, players, home_club):
    token, path = _path(players[0])
    version = _version(path, client)
    later = Tournament.objects.create(name="Нов турнир", date=datetime.date(2026, 12, 6),
                                      club=home_club, format=Tournament.Format.ROUND_ROBIN)

    async def scenario():
        response = await AsyncClient().get(f"/pass/{token}/live/?v={version}")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")
        await sync_to_async(event_services.entry_add)(tournament=later, player=players[0])
        await lines_until(stream, "event: changed")
        await response.streaming_content.aclose()

    run(scenario())
    assert Entry.objects.filter(tournament=later).count() == 1


@pytest.mark.parametrize("step", ["renew", "revoke"])
def test_a_renewed_or_revoked_pass_says_gone(client, players, step):
    token, path = _path(players[0])
    version = _version(path, client)

    async def scenario():
        response = await AsyncClient().get(f"/pass/{token}/live/?v={version}")
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")
        change = services.pass_renew if step == "renew" else services.pass_revoke
        await sync_to_async(change)(players[0])
        await lines_until(stream, "event: gone")

    run(scenario())
    # The page, loaded again, tells the player to ask the organiser.
    again = client.get(path, HTTP_COOKIE="django_language=en")
    assert again.status_code == 404 and "Ask the organiser" in again.content.decode()


def test_a_wrong_pass_has_no_stream(client, players):
    async def scenario():
        assert (await AsyncClient().get(f"/pass/{'x' * 43}/live/")).status_code == 404

    run(scenario())


def test_the_match_opened_from_a_pass_follows_its_match_not_its_link(client, started):  # noqa: F811
    match = Pairing.objects.get(round__tournament=started, round__number=1, table=1).match
    started.entry_mode = "players_sign"
    started.save(update_fields=["entry_mode"])
    token, path = _path(match.player_a)
    page = client.get(f"{path}m/{match.pk}/")
    html = page.content.decode()
    assert f"/pass/{token}/m/{match.pk}/live/?v=" in html
    assert table_entry.table_of(match).token not in html

    async def scenario():
        response = await AsyncClient().get(
            f"/pass/{token}/m/{match.pk}/live/?v={page['X-Live-Version']}")
        assert response.status_code == 200
        stream = aiter(response.streaming_content)
        await lines_until(stream, "retry:")
        await sync_to_async(deal)(match)
        await lines_until(stream, "event: changed")
        await response.streaming_content.aclose()
        other = await AsyncClient().get(f"/pass/{token}/m/{match.pk + 1}/live/")
        assert other.status_code == 404

    run(scenario())
