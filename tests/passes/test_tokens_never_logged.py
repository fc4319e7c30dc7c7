"""A whole table-entry run's server log holds no token: the site served by a real uvicorn
process as `make run` serves it (its access lines included, uvicorn's log at its debug level
and the site's at INFO, above its WARNING by default), on this test's database and pass key,
driven over HTTP through a match's link and players' passes, their pages, posts and streams,
the refusals, a wrong token, a plain 404, the 429 after too many wrong tokens and a renewed
pass's old token. Then the server's whole output (stdout and stderr) is read: no token appears
in it, whole or as any 16 characters of it (config/log_links.py masks them)."""

import os
import random
import re
import subprocess
import sys
import time

import httpx
import pytest
from django.conf import settings
from django.db import connection

from events import services as event_services
from passes import services
from scoring.models import Match
from tableside import table_entry
from tableside.link_guesses import GUESS_LIMIT
from tests.live_site import free_port
from tests.passes.test_pass_page import round_robin

pytestmark = [pytest.mark.real_process, pytest.mark.django_db(transaction=True)]

WINDOW = 16
ELEVEN_NIL = [("A", 3, "capot")] * 3 + [("A", 2, "schneider")]


@pytest.fixture
def server(pass_key_file, tmp_path):
    """uvicorn serving the site in a process of its own, on the test database (a SQLite file:
    the SQLite pass only, as `real_process` says) and the test's pass key, its whole output
    in a file. Yields (base URL, the output's path); stopped after the test."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite pass only")
    port = free_port()
    output = tmp_path / "server.log"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{connection.settings_dict['NAME']}",
        "PASS_KEY_FILE": str(pass_key_file), "CACHE_URL": "locmemcache://",
        "LOG_LEVEL": "INFO", "MEDIA_ROOT": str(tmp_path / "media"),
    }
    with output.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--lifespan", "off", "--log-level", "debug"],
            cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, output.read_text()
            try:
                httpx.get(base + "/", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, output.read_text()
                time.sleep(0.1)
        yield base, output
    finally:
        process.terminate()
        process.wait(timeout=10)


def phone(base: str) -> httpx.Client:
    """A phone: its own cookies, the site in English."""
    return httpx.Client(base_url=base, cookies={"django_language": "en"}, timeout=10)


def post(client: httpx.Client, path: str, data: dict) -> httpx.Response:
    """A form post with the CSRF cookie the client's last page set."""
    return client.post(path, data=data, headers={"X-CSRFToken": client.cookies["csrftoken"]})


def first_words(client: httpx.Client, path: str) -> tuple[int, str]:
    """A stream's status and its first message, then the stream is left."""
    with client.stream("GET", path, headers={"Accept": "text/event-stream"}) as response:
        if response.status_code != 200:
            return response.status_code, ""
        for chunk in response.iter_text():
            return 200, chunk
    return response.status_code, ""


def test_a_table_entry_run_logs_no_token(server, home_club, organiser, players):
    base, output = server
    tournament = round_robin(home_club, organiser, players[:4])
    event_services.tournament_start(tournament=tournament, rng=random.Random(1))
    # Round 1: table 1 is 1 (seat A) against 4, table 2 is 2 (seat A) against 3.
    one, two = (Match.objects.get(pairing__round__tournament=tournament,
                                  pairing__round__number=1, pairing__table=table)
                for table in (1, 2))
    first, second, third, fourth = players[:4]
    pass_one, pass_four = services.pass_make(first), services.pass_make(fourth)
    old_pass_two = services.token_of(services.pass_make(second))
    tokens = {
        "link 1": table_entry.table_of(one).token, "link 2": table_entry.table_of(two).token,
        "pass 1": services.token_of(pass_one), "pass 4": services.token_of(pass_four),
        "old pass 2": old_pass_two,
    }
    wrong = {"wrong link": "Wr0ngL1nk" + "x" * 30, "wrong pass": "Wr0ngPa55" + "y" * 34}

    # Table 2 on its match's link: take seat A, four deals (11:0), sign: refused, player 2
    # has a pass; the link's stream.
    link = phone(base)
    path = f"/p/{tokens['link 2']}"
    assert link.get(f"{path}/").status_code == 200  # "Who are you?"
    assert post(link, f"{path}/seat/", {"seat": "A"}).status_code == 302
    for number, (winner, points, reason) in enumerate(ELEVEN_NIL, start=1):
        answer = post(link, f"{path}/deal/", {"number": number, "winner": winner,
                                              "game_points": points, "reason": reason})
        assert answer.status_code == 302, answer.text
    assert post(link, f"{path}/sign/", {"seat": "A"}).status_code == 409
    assert first_words(link, f"{path}/live/")[0] == 200

    # Table 1 on the passes of 1 and 4: the pages, their streams, deals to 11:0 from 1's,
    # 1 signs; a wrong personal code for 4 on 1's phone (422); 4's phone naming 1's seat
    # (403); 4 signs from their own pass: final.
    phone_one, phone_four = phone(base), phone(base)
    pass_path = f"/pass/{tokens['pass 1']}"
    assert phone_one.get(f"{pass_path}/").status_code == 200
    assert first_words(phone_one, f"{pass_path}/live/")[0] == 200
    assert phone_one.get(f"{pass_path}/m/{one.pk}/").status_code == 200
    assert first_words(phone_one, f"{pass_path}/m/{one.pk}/live/")[0] == 200
    for number, (winner, points, reason) in enumerate(ELEVEN_NIL, start=1):
        answer = post(phone_one, f"{pass_path}/m/{one.pk}/deal/",
                      {"number": number, "winner": winner, "game_points": points,
                       "reason": reason})
        assert answer.status_code == 302, answer.text
    assert post(phone_one, f"{pass_path}/m/{one.pk}/sign/", {"seat": "A"}).status_code == 302
    code = "1111" if services.code_of(pass_four) == "0000" else "0000"
    assert post(phone_one, f"{pass_path}/m/{one.pk}/code/", {"code": code}).status_code == 422
    four_path = f"/pass/{tokens['pass 4']}/m/{one.pk}"
    assert phone_four.get(f"{four_path}/").status_code == 200
    assert post(phone_four, f"{four_path}/sign/", {"seat": "A"}).status_code == 403
    assert post(phone_four, f"{four_path}/sign/", {"seat": "B"}).status_code == 302
    assert table_entry.table_of(one).is_final

    # The pass of 2, renewed: its old token finds nothing (404, page and stream), the new one
    # opens. A wrong link, a wrong pass, a page that does not exist.
    stranger = phone(base)
    assert stranger.get(f"/pass/{old_pass_two}/").status_code == 200
    tokens["pass 2"] = services.token_of(services.pass_renew(second))
    assert stranger.get(f"/pass/{old_pass_two}/").status_code == 404
    assert first_words(stranger, f"/pass/{old_pass_two}/live/")[0] == 404
    assert stranger.get(f"/pass/{tokens['pass 2']}/").status_code == 200
    assert stranger.get(f"/p/{wrong['wrong link']}/").status_code == 404
    assert stranger.get(f"/pass/{wrong['wrong pass']}/").status_code == 404
    assert stranger.get("/no-such-page/").status_code == 404
    # Wrong tokens until this address is refused (429), for pages, posts and streams alike;
    # a valid pass still opens.
    statuses = [stranger.get(f"/pass/{wrong['wrong pass']}/").status_code
                for _try in range(GUESS_LIMIT)]
    assert statuses[-1] == 429
    assert post(stranger, f"/p/{wrong['wrong link']}/deal/", {"number": 1}).status_code == 429
    assert first_words(stranger, f"/pass/{old_pass_two}/live/")[0] == 429
    assert first_words(stranger, f"/pass/{wrong['wrong pass']}/m/{one.pk}/live/")[0] == 429
    assert stranger.get(f"/pass/{tokens['pass 2']}/").status_code == 200

    # The server's whole output: the requests are all there, with their statuses, and no
    # token, whole or any 16 characters of it.
    for client in (link, phone_one, phone_four, stranger):
        client.close()
    log = output.read_text()
    assert re.search(r'"GET /pass/…/m/\d+/ HTTP/1\.1" 200', log), log
    assert '"POST /p/…/deal/ HTTP/1.1" 302' in log and '"GET /pass/…/ HTTP/1.1" 429' in log
    assert "Forbidden: /pass/…/m/" in log and "Not Found: /no-such-page/" in log
    for name, token in (tokens | wrong).items():
        pieces = {token[start:start + WINDOW] for start in range(len(token) - WINDOW + 1)}
        leaked = [piece for piece in pieces if piece in log]
        assert not leaked, f"{name}: {leaked[0]} in the server's log"
