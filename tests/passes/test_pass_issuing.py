"""A player's pass: made, stored only as hashes, renewed and revoked by the organiser, found by
its token alone; wrong tokens count toward the wrong-link limit."""

import hashlib
import stat

import pytest
from django.db import connection

from club.models import Club, Player
from config.log_links import mask_links
from passes import services
from passes.models import PlayerPass
from tableside.link_guesses import GUESS_LIMIT


@pytest.fixture
def ivan(players) -> Player:
    return players[0]


def test_the_token_is_nowhere_in_the_database(ivan):
    player_pass = services.pass_make(ivan)
    token = services.token_of(player_pass)
    code = services.code_of(player_pass)
    assert len(token) == 43  # 256 bits of HMAC-SHA256 in URL-safe base64, no padding
    assert player_pass.token_hash == hashlib.sha256(token.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM passes_playerpass")
        row = " ".join(str(value) for value in cursor.fetchone())
    assert token not in row
    # The stored code is keyed: a bare SHA-256 of the four digits is not what is kept.
    assert hashlib.sha256(code.encode()).hexdigest() not in row
    assert len(code) == 4 and code.isdigit()


def test_the_key_file_is_its_owners_alone(ivan, pass_key_file):
    services.pass_make(ivan)
    assert stat.S_IMODE(pass_key_file.stat().st_mode) == 0o600


def test_the_same_pass_is_shown_again(ivan):
    made = services.pass_make(ivan)
    again = services.pass_make(ivan)
    assert again.pk == made.pk
    assert services.token_of(again) == services.token_of(made)
    assert services.code_of(again) == services.code_of(made)


def test_the_code_is_checked(ivan):
    player_pass = services.pass_make(ivan)
    code = services.code_of(player_pass)
    other = f"{(int(code) + 1) % 10000:04d}"
    assert services.code_matches(player_pass, code)
    assert services.code_matches(player_pass, f" {code} ")
    assert not services.code_matches(player_pass, other)
    assert not services.code_matches(player_pass, code[:3])


def test_a_player_of_no_club_has_no_pass(db):
    from passes.errors import PassError

    loner = Player.objects.create(name="Самотник")
    with pytest.raises(PassError) as refused:
        services.pass_make(loner)
    assert refused.value.code == "no_club"
    assert not PlayerPass.objects.exists()


def test_the_pass_page_opens_with_the_players_name(client, ivan):
    token = services.token_of(services.pass_make(ivan))
    response = client.get(f"/pass/{token}/")
    assert response.status_code == 200
    assert ivan.name in response.content.decode()


def _gone_text(response) -> str:
    return response.content.decode().split("<main", 1)[1]


def test_a_renewed_pass_answers_404_like_a_wrong_one(client, ivan):
    old = services.token_of(services.pass_make(ivan))
    new = services.token_of(services.pass_renew(ivan))
    assert new != old
    gone = client.get(f"/pass/{old}/")
    wrong = client.get(f"/pass/{'x' * 43}/")
    assert gone.status_code == wrong.status_code == 404
    assert _gone_text(gone) == _gone_text(wrong)
    assert ivan.name not in gone.content.decode()
    assert client.get(f"/pass/{new}/").status_code == 200


def test_a_revoked_pass_answers_404_until_renewed(client, ivan):
    token = services.token_of(services.pass_make(ivan))
    services.pass_revoke(ivan)
    assert client.get(f"/pass/{token}/").status_code == 404
    renewed = services.token_of(services.pass_renew(ivan))
    assert client.get(f"/pass/{renewed}/").status_code == 200
    assert client.get(f"/pass/{token}/").status_code == 404


def test_a_mangled_pass_answers_404_without_a_hint(client, ivan):
    token = services.token_of(services.pass_make(ivan))
    mangled = token[:-1] + ("A" if token[-1] != "A" else "B")
    response = client.get(f"/pass/{mangled}/")
    assert response.status_code == 404
    assert ivan.name not in response.content.decode()
    assert _gone_text(response) == _gone_text(client.get(f"/pass/{'y' * 43}/"))


def test_thirty_wrong_passes_answer_429_and_a_valid_pass_still_opens(client, ivan):
    token = services.token_of(services.pass_make(ivan))
    for number in range(GUESS_LIMIT):
        assert client.get(f"/pass/{'z' * 40}{number:03d}/").status_code == 404
    assert client.get(f"/pass/{'w' * 43}/").status_code == 429
    assert client.get(f"/pass/{token}/").status_code == 200


def test_wrong_passes_and_wrong_match_links_share_the_limit(client, ivan):
    for number in range(GUESS_LIMIT):
        path = f"/p/{'q' * 29}{number:03d}/" if number % 2 else f"/pass/{'q' * 40}{number:03d}/"
        assert client.get(path).status_code == 404
    assert client.get(f"/pass/{'v' * 43}/").status_code == 429


def test_the_pass_path_is_masked_in_logs(ivan):
    token = services.token_of(services.pass_make(ivan))
    line = f'"GET /pass/{token}/ HTTP/1.1" 200 and /pass/{token}/live/?v=3'
    masked = mask_links(line)
    assert token not in masked
    assert masked == '"GET /pass/…/ HTTP/1.1" 200 and /pass/…/live/?v=3'


def test_the_organiser_makes_renews_and_revokes(organiser_client, ivan):
    url = f"/players/{ivan.pk}/pass/"
    assert 'value="make"' in organiser_client.get(url).content.decode()
    assert organiser_client.post(url, {"action": "make"}).status_code == 302
    first = services.token_of(PlayerPass.objects.get(player=ivan))
    page = organiser_client.get(url).content.decode()
    assert first in page and services.code_of(PlayerPass.objects.get(player=ivan)) in page
    organiser_client.post(url, {"action": "renew"})
    second = services.token_of(PlayerPass.objects.get(player=ivan))
    assert second != first
    organiser_client.post(url, {"action": "revoke"})
    assert services.pass_for_token(second) is None


def test_only_the_clubs_organisers_see_a_pass(client, outsider_client, ivan):
    services.pass_make(ivan)
    assert outsider_client.get(f"/players/{ivan.pk}/pass/").status_code == 403
    assert outsider_client.post(f"/players/{ivan.pk}/pass/", {"action": "renew"}) \
        .status_code == 403
    assert client.get(f"/players/{ivan.pk}/pass/").status_code == 302  # to the login
    other = Club.objects.create(name="Друг клуб")
    assert outsider_client.get(f"/club/{other.pk}/passes/").status_code == 403


def test_the_slips_page_has_a_slip_per_player_with_a_pass(organiser_client, players, home_club):
    for player in players[:3]:
        services.pass_make(player)
    page = organiser_client.get(f"/club/{home_club.pk}/passes/").content.decode()
    assert page.count('class="pass-slip"') == 3
    for player in players[:3]:
        assert services.code_of(PlayerPass.objects.get(player=player)) in page
    organiser_client.post(f"/club/{home_club.pk}/passes/make/")
    assert PlayerPass.objects.filter(player__club=home_club).count() == len(players)


def test_the_slips_as_a_pdf(organiser_client, outsider_client, players, home_club):
    for player in players[:4]:
        services.pass_make(player)
    response = organiser_client.get(f"/club/{home_club.pk}/passes.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert outsider_client.get(f"/club/{home_club.pk}/passes.pdf").status_code == 403
