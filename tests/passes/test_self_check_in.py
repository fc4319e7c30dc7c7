"""Self check-in: the club's join code, a phone's claim of a name, the organiser's approval in
the control room, and the waiting page led on to the pass. The limits (3 claims waiting from an
address, 2 for a player, 2 hours to wait, 10 minutes to follow an approval, 30 wrong links in
10 minutes) are the ones `passes.check_in` and `tableside.link_guesses` state."""

import datetime

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient, Client
from django.utils import timezone

from club.models import Club, Player
from passes import check_in, services
from passes.models import CheckInClaim, CheckInRecord, JoinCode, PlayerPass
from tests.live.test_streams import lines_until, quick_watcher, run  # noqa: F401

PHONE = "10.0.0.21"
DESK = "10.0.0.1"
LOOK_ALIKES = "0O Q1IL2Z5S8B"


@pytest.fixture
def code(home_club) -> str:
    return check_in.join_code_of(home_club)


def phone(address: str = PHONE) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.cookies["django_language"] = "en"
    return client


def claim_for(client: Client, code: str, player: Player):
    return client.post(f"/join/{code}/", {"player": player.pk})


def text(response) -> str:
    return " ".join(response.content.decode().split())


def approve(client: Client, tournament, claim: CheckInClaim):
    client.cookies["django_language"] = "en"
    return client.post(f"/t/{tournament.pk}/control/claims/{claim.pk}/approve/",
                       REMOTE_ADDR=DESK)


# --- The join code ------------------------------------------------------------------------


def test_a_code_is_six_characters_without_look_alikes():
    assert len(check_in.ALPHABET) == 24
    assert not set(LOOK_ALIKES) & set(check_in.ALPHABET)
    for _ in range(200):
        made = check_in.new_code()
        assert len(made) == 6 and set(made) <= set(check_in.ALPHABET)


def test_a_typed_code_is_read_in_capitals_with_cyrillic_look_alikes():
    assert check_in.normal_code(" k7mx3p ") == "K7MX3P"
    # Cyrillic А, С, Х, Р typed on a Bulgarian keyboard: the Latin letters they look like.
    assert check_in.normal_code("АС3ХРт") == "AC3XPT"
    assert check_in.normal_code("K7MX30") is None  # 0 is no character of a code
    assert check_in.normal_code("K7MX3") is None
    assert check_in.normal_code("") is None


def test_the_code_is_made_once_and_renewing_voids_the_old_one(home_club, organiser_client):
    first = check_in.join_code_of(home_club)
    assert check_in.join_code_of(home_club) == first
    assert JoinCode.objects.count() == 1
    assert phone().get(f"/join/{first.lower()}/").status_code == 200
    response = organiser_client.post(f"/club/{home_club.pk}/join-code/renew/")
    assert response.status_code == 302
    second = check_in.join_code_of(home_club)
    assert second != first
    assert phone().get(f"/join/{first}/").status_code == 404
    assert phone().get(f"/join/{second}/").status_code == 200


def test_only_the_clubs_organisers_renew_the_code(home_club, code, outsider_client):
    assert outsider_client.post(f"/club/{home_club.pk}/join-code/renew/").status_code == 403
    assert check_in.join_code_of(home_club) == code


def test_the_join_page_lists_the_clubs_players_only(code, players):
    Player.objects.create(name="Чужд Играч", club=Club.objects.create(name="Клуб Варна"))
    page = text(phone().get(f"/join/{code}/"))
    assert "Your pass on your phone" in page
    assert all(player.name in page for player in players)
    assert "Чужд Играч" not in page


def test_the_join_page_speaks_bulgarian(code, players):
    client = Client(REMOTE_ADDR=PHONE)
    client.cookies["django_language"] = "bg"
    page = text(client.get(f"/join/{code}/"))
    assert "Вашият пропуск на телефона ви" in page


# --- Wrong codes and claims ---------------------------------------------------------------


def test_wrong_codes_and_claims_are_404_counted_then_429(code, players):
    client = phone()
    assert client.get("/join/AAAAAA/").status_code == 404  # no club's code
    assert client.get("/join/claim/").status_code == 404   # no claim held
    assert client.post("/join/K7MX3O/", {"player": players[0].pk}).status_code == 404
    client.cookies[check_in.CLAIM_COOKIE] = "x" * 43
    assert client.get("/join/claim/").status_code == 404   # a claim that is none
    assert client.get("/join/claim/live/").status_code == 404
    for number in range(30 - 5):
        assert client.get(f"/join/WRONG{number}/").status_code == 404
    assert client.get(f"/join/{code}/").status_code == 200  # a valid code still opens
    assert client.get("/join/AAAAAA/").status_code == 429
    assert CheckInClaim.objects.count() == 0
    assert phone("10.0.0.99").get("/join/AAAAAA/").status_code == 404  # another address


# --- Claims ------------------------------------------------------------------------------


def test_a_claim_keeps_only_the_hash_of_its_secret_in_a_cookie(code, players):
    client = phone()
    response = claim_for(client, code, players[0])
    assert response.status_code == 302 and response["Location"] == "/join/claim/"
    cookie = response.cookies[check_in.CLAIM_COOKIE]
    assert cookie["httponly"] and cookie["path"] == "/join/" and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 7200
    secret = cookie.value
    assert len(secret) == 43  # 256 random bits in URL-safe base64
    claim = CheckInClaim.objects.get()
    assert claim.secret_hash == check_in.secret_hash(secret) != secret
    assert (claim.player, claim.state, claim.address) == (players[0], "pending", PHONE)
    assert claim.expires_at - claim.made_at == datetime.timedelta(hours=2)
    assert list(CheckInRecord.objects.values_list("action", "address")) == [("made", PHONE)]
    page = text(client.get("/join/claim/"))
    assert "Ask the organiser to confirm" in page and players[0].name in page
    assert claim.number in page
    assert not PlayerPass.objects.exists()  # no pass without the organiser


def test_a_bad_choice_is_refused_and_writes_nothing(code, players):
    client = phone()
    other = Player.objects.create(name="Чужд Играч", club=Club.objects.create(name="Клуб Варна"))
    for posted in ({"player": other.pk}, {"player": "x"}, {}, {"player": "9" * 40},
                   {"player": "²"}):
        response = client.post(f"/join/{code}/", posted)
        assert response.status_code == 422
        assert "Choose your name from the list." in text(response)
    assert not CheckInClaim.objects.exists()


def test_three_claims_wait_from_one_address_at_most(code, players):
    for player in players[:3]:
        assert claim_for(phone(), code, player).status_code == 302
    response = claim_for(phone(), code, players[3])
    assert response.status_code == 429
    assert "already waits for the organiser for 3 players" in text(response)
    assert CheckInClaim.objects.count() == 3
    assert claim_for(phone("10.0.0.22"), code, players[3]).status_code == 302


def test_two_claims_wait_for_one_player_at_most(code, players):
    assert claim_for(phone("10.0.0.31"), code, players[0]).status_code == 302
    assert claim_for(phone("10.0.0.32"), code, players[0]).status_code == 302
    response = claim_for(phone("10.0.0.33"), code, players[0])
    assert response.status_code == 409
    assert f"{players[0].name} already waits for the organiser" in text(response)
    assert CheckInClaim.objects.count() == 2


def test_a_new_name_from_the_same_phone_withdraws_the_first(code, players):
    client = phone()
    claim_for(client, code, players[0])
    claim_for(client, code, players[1])
    states = dict(CheckInClaim.objects.values_list("player_id", "state"))
    assert states == {players[0].pk: "withdrawn", players[1].pk: "pending"}
    assert players[1].name in text(client.get("/join/claim/"))


def test_an_expired_claim_opens_nothing_and_no_longer_counts(code, players):
    client = phone()
    for player in players[:3]:
        claim_for(phone(), code, player)
    past = timezone.now() - datetime.timedelta(seconds=1)
    CheckInClaim.objects.update(expires_at=past)
    assert claim_for(client, code, players[3]).status_code == 302  # the 3 old ones are over
    CheckInClaim.objects.filter(player=players[3]).update(expires_at=past)
    assert client.get("/join/claim/").status_code == 404


# --- The organiser decides ----------------------------------------------------------------


def test_only_an_organiser_of_the_club_decides(code, players, tournament, outsider,
                                               outsider_client, django_user_model):
    claim_for(phone(), code, players[0])
    claim = CheckInClaim.objects.get()
    assert approve(outsider_client, tournament, claim).status_code == 403
    # An organiser of the event who does not organise the club: 403 too.
    tournament.organisers.add(outsider)
    assert approve(outsider_client, tournament, claim).status_code == 403
    anonymous = Client().post(f"/t/{tournament.pk}/control/claims/{claim.pk}/approve/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    claim.refresh_from_db()
    assert claim.state == "pending" and not PlayerPass.objects.exists()


def test_the_control_room_lists_the_claims_waiting(code, players, tournament,
                                                   organiser_client):
    claim_for(phone(), code, players[0])
    claim = CheckInClaim.objects.get()
    services.pass_make(players[1])
    claim_for(phone("10.0.0.22"), code, players[1])
    organiser_client.cookies["django_language"] = "en"
    page = text(organiser_client.get(f"/t/{tournament.pk}/control/"))
    assert "Players asking for their pass" in page
    assert f"the phone shows {claim.number}" in page
    assert f"{players[1].name} already has a pass" in page
    assert f"{players[0].name} already has a pass" not in page
    assert code in page


def test_approving_leads_the_waiting_page_to_the_pass_once(code, players, tournament,
                                                           organiser, organiser_client):
    client = phone()
    claim_for(client, code, players[0])
    claim = CheckInClaim.objects.get()
    response = approve(organiser_client, tournament, claim)
    assert response.status_code == 302
    player_pass = PlayerPass.objects.get(player=players[0])  # made by the approval
    token = services.token_of(player_pass)
    claim.refresh_from_db()
    assert (claim.state, claim.decided_by, claim.player_pass) == ("approved", organiser,
                                                                  player_pass)
    response = client.get("/join/claim/")
    assert response.status_code == 302 and response["Location"] == f"/pass/{token}/"
    assert response.cookies[check_in.CLAIM_COOKIE].value == ""  # the cookie is deleted
    assert client.get(response["Location"]).status_code == 200
    # Handed over once: the claim opens nothing more, even with its secret.
    claim.refresh_from_db()
    assert claim.state == "handed"
    assert list(CheckInRecord.objects.values_list("action", "address")) == [
        ("made", PHONE), ("approved", DESK), ("handed", PHONE)]


def test_the_live_fetch_of_an_approved_claim_redirects_by_htmx(code, players, tournament,
                                                               organiser_client):
    client = phone()
    claim_for(client, code, players[0])
    approve(organiser_client, tournament, CheckInClaim.objects.get())
    token = services.token_of(PlayerPass.objects.get(player=players[0]))
    response = client.get("/join/claim/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response["HX-Redirect"] == f"/pass/{token}/"


def test_an_approval_not_followed_in_ten_minutes_opens_nothing(code, players, tournament,
                                                               organiser_client):
    client = phone()
    claim_for(client, code, players[0])
    approve(organiser_client, tournament, CheckInClaim.objects.get())
    claim = CheckInClaim.objects.get()
    assert claim.expires_at - claim.decided_at == datetime.timedelta(minutes=10)
    CheckInClaim.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert client.get("/join/claim/").status_code == 404


def test_a_player_with_a_pass_gets_the_same_pass_only_through_the_organiser(
        code, players, tournament, organiser_client):
    token = services.token_of(services.pass_make(players[0]))
    client = phone()
    claim_for(client, code, players[0])
    response = client.get("/join/claim/")
    assert response.status_code == 200  # waits: no pass without the organiser
    assert f"{players[0].name} already has a pass. The organiser checks" in text(response)
    assert token not in response.content.decode()
    approve(organiser_client, tournament, CheckInClaim.objects.get())
    assert client.get("/join/claim/")["Location"] == f"/pass/{token}/"
    assert PlayerPass.objects.count() == 1


def test_a_revoked_pass_is_renewed_before_approving(code, players, tournament,
                                                    organiser_client):
    services.pass_make(players[0])
    services.pass_revoke(players[0])
    claim_for(phone(), code, players[0])
    response = approve(organiser_client, tournament, CheckInClaim.objects.get())
    assert response.status_code == 409
    assert "The pass of" in text(response) and "is revoked" in text(response)
    assert CheckInClaim.objects.get().state == "pending"


def test_refusing_says_so_on_the_phone(code, players, tournament, organiser_client):
    client = phone()
    claim_for(client, code, players[0])
    claim = CheckInClaim.objects.get()
    organiser_client.cookies["django_language"] = "en"
    response = organiser_client.post(f"/t/{tournament.pk}/control/claims/{claim.pk}/refuse/",
                                     REMOTE_ADDR=DESK)
    assert response.status_code == 302
    page = client.get("/join/claim/")
    assert page.status_code == 200
    assert "The organiser did not confirm this phone" in text(page)
    assert not PlayerPass.objects.exists()
    # Decided once: approving it now is refused, nothing written.
    again = approve(organiser_client, tournament, claim)
    assert again.status_code == 409 and "already answered" in text(again)
    assert CheckInRecord.objects.filter(action="refused", address=DESK).count() == 1
    assert not PlayerPass.objects.exists()


def test_a_claim_of_another_club_is_404_in_this_control_room(code, players, tournament,
                                                             organiser, organiser_client):
    other = Club.objects.create(name="Клуб Варна")
    other.organisers.add(organiser)
    stranger = Player.objects.create(name="Чужд Играч", club=other)
    claim_for(phone(), check_in.join_code_of(other), stranger)
    assert approve(organiser_client, tournament, CheckInClaim.objects.get()).status_code == 404


# --- Live ---------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_waiting_pages_stream_says_changed_on_approval(home_club, players, tournament,
                                                           organiser):
    code = check_in.join_code_of(home_club)
    client = phone()
    claim_for(client, code, players[0])
    secret = client.cookies[check_in.CLAIM_COOKIE].value
    version = int(client.get("/join/claim/")["X-Live-Version"])
    claim = CheckInClaim.objects.get()

    async def scenario():
        stream_client = AsyncClient()
        stream_client.cookies[check_in.CLAIM_COOKIE] = secret
        response = await stream_client.get(f"/join/claim/live/?v={version}")
        assert response.status_code == 200
        stream = aiter(response.streaming_content)
        first = await lines_until(stream, "keep-alive", seconds=3)
        assert "changed" not in first
        await sync_to_async(check_in.claim_approve)(claim_pk=claim.pk, club=home_club,
                                                    by=organiser, address=DESK)
        await lines_until(stream, f"event: changed\ndata: {version + 1}")
        await response.streaming_content.aclose()

    run(scenario())


# --- The projector -------------------------------------------------------------------------


def test_the_projector_shows_the_join_code_while_a_club_event_runs(client, tournament,
                                                                   home_club):
    tournament.is_public = True
    tournament.save()
    url = f"/t/{tournament.pk}/projector/"
    assert 'data-slide="join"' not in client.get(url).content.decode()  # not running yet
    assert not JoinCode.objects.exists()
    tournament.status = tournament.Status.RUNNING
    tournament.save()
    html = client.get(url).content.decode()
    code = check_in.join_code_of(home_club)
    assert 'data-slide="join"' in html
    assert f'<p class="join-code-big">{code}</p>' in html
    assert f"/join/{code}/</p>" in html
    tournament.club = None
    tournament.save()
    assert 'data-slide="join"' not in client.get(url).content.decode()  # no club
