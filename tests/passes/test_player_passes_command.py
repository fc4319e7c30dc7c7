"""`manage.py player_passes`: a line per player with a pass, the others on the standard
error; `--create` makes the missing passes."""

import io

import pytest
from django.core.management import CommandError, call_command

from passes import services
from passes.models import PlayerPass


def run(*args) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("player_passes", *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


def test_the_lines_name_the_players_and_their_addresses(settings, players, home_club):
    settings.SITE_URL = "http://192.168.1.20:8000"
    made = services.pass_make(players[1])
    lines, err = run(str(home_club.pk))
    token = services.token_of(made)
    assert lines == [f"{players[1].name}\thttp://192.168.1.20:8000/pass/{token}/"]
    # Everyone else is named on the standard error, as having no pass.
    for player in players:
        if player.pk != players[1].pk:
            assert f"{player.name}\tno pass" in err


def test_create_makes_the_missing_passes(settings, players, home_club):
    settings.SITE_URL = "http://192.168.1.20:8000"
    services.pass_make(players[0])
    services.pass_revoke(players[0])
    lines, err = run(str(home_club.pk), "--create")
    assert PlayerPass.objects.filter(revoked_at__isnull=True).count() == len(players) - 1
    assert len(lines) == len(players) - 1
    assert f"{players[0].name}\tpass revoked" in err
    names = sorted(player.name for player in players[1:])
    assert [line.split("\t")[0] for line in lines] == names
    assert all(line.split("\t")[1].startswith("http://192.168.1.20:8000/pass/") for line in lines)


def test_a_loopback_address_is_warned_of(settings, players, home_club):
    settings.SITE_URL = "http://127.0.0.1:8000"
    _lines, err = run(str(home_club.pk))
    assert "this computer's own address" in err


def test_an_unknown_club_is_an_error(db):
    with pytest.raises(CommandError):
        run("999999")
